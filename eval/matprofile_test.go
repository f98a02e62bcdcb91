//go:build matprofile

package eval

import "gocv.io/x/gocv"

func init() { leakCount = func() int { return gocv.MatProfile.Count() } }
