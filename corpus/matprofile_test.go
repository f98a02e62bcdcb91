//go:build matprofile

package corpus

import "gocv.io/x/gocv"

func init() { leakCount = func() int { return gocv.MatProfile.Count() } }
