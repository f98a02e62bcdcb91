//go:build matprofile

package matleak

import (
	"bytes"

	"gocv.io/x/gocv"
)

func init() {
	live = func() (int, string) {
		var b bytes.Buffer
		gocv.MatProfile.WriteTo(&b, 1)
		return gocv.MatProfile.Count(), b.String()
	}
}
