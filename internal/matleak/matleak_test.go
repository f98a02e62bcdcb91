//go:build matprofile

package matleak

import (
	"testing"

	"gocv.io/x/gocv"
)

// The check must fail while a Mat is live and pass once it is closed.
func TestCheckSeesALeak(t *testing.T) {
	if Check("matleak") != 0 {
		t.Fatal("leak reported before any Mat was made")
	}
	m := gocv.NewMat()
	if Check("matleak") != 1 {
		t.Error("a live Mat was not reported")
	}
	m.Close()
	if Check("matleak") != 0 {
		t.Error("a closed Mat was reported")
	}
}
