//go:build matprofile

package vision

import "gocv.io/x/gocv"

func init() { leakCount = func() int { return gocv.MatProfile.Count() } }
