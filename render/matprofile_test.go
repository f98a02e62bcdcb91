//go:build matprofile

package render

import "gocv.io/x/gocv"

func init() { leakCount = func() int { return gocv.MatProfile.Count() } }
