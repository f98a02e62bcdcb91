//go:build matprofile

package daemon

import (
	"bytes"

	"gocv.io/x/gocv"
)

func init() {
	leakCount = func() (int, string) {
		var b bytes.Buffer
		gocv.MatProfile.WriteTo(&b, 1)
		return gocv.MatProfile.Count(), b.String()
	}
}
