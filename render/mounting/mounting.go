// Package mounting makes the transformed copies of the real board photos
// (internal/realboards' Mounting: framed on the surface, turned, coarser,
// under other light, recompressed) with OpenCV. The geometry and the
// transformed annotation are worked out without cgo by
// realboards.Mounting.Plan; this package only carries the Warp out on the
// pixels.
package mounting

import (
	"fmt"
	"image"
	"image/color"

	"github.com/boardcam/boardcam/internal/cvio"
	"github.com/boardcam/boardcam/internal/realboards"
	"gocv.io/x/gocv"
)

// Apply makes m's transformed copy of img (the photo of a) and its exact
// annotation. The caller closes the returned Mat.
func Apply(m realboards.Mounting, img gocv.Mat, a realboards.Annotation) (gocv.Mat, realboards.Annotation, error) {
	if img.Empty() {
		return gocv.NewMat(), a, fmt.Errorf("realboards: %s: empty picture", a.File)
	}
	w, b, err := m.Plan(img.Cols(), img.Rows(), a)
	if err != nil {
		return gocv.NewMat(), a, err
	}
	out, err := Warp(img, w)
	if err != nil {
		return gocv.NewMat(), a, fmt.Errorf("realboards: %s: %w", a.File, err)
	}
	return out, b, nil
}

// Warp carries w out on img (8-bit BGR). The caller closes the returned
// Mat.
func Warp(img gocv.Mat, w realboards.Warp) (gocv.Mat, error) {
	src := img
	if w.Blur > 0 {
		// Anti-aliasing before the warp samples the picture more coarsely.
		blurred := gocv.NewMat()
		defer blurred.Close()
		gocv.GaussianBlur(img, &blurred, image.Point{}, w.Blur, w.Blur, gocv.BorderReflect101)
		src = blurred
	}
	hm := gocv.NewMatWithSize(3, 3, gocv.MatTypeCV64F)
	defer hm.Close()
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			hm.SetDoubleAt(i, j, w.H[i][j])
		}
	}
	out := gocv.NewMat()
	floor := color.RGBA{B: w.Floor[0], G: w.Floor[1], R: w.Floor[2]}
	gocv.WarpPerspectiveWithParams(src, &out, hm, image.Point{w.Width, w.Height}, gocv.InterpolationLinear, gocv.BorderConstant, floor)
	if w.Curve != nil {
		lut := gocv.NewMatWithSize(1, 256, gocv.MatTypeCV8UC3)
		for v := 0; v < 256; v++ {
			for c := 0; c < 3; c++ {
				lut.SetUCharAt(0, v*3+c, w.Curve[v][c])
			}
		}
		gocv.LUT(out, lut, &out)
		lut.Close()
	}
	if w.JPEG > 0 {
		buf, err := cvio.EncodeJPEG(out, w.JPEG)
		if err != nil {
			out.Close()
			return gocv.NewMat(), fmt.Errorf("jpeg: %w", err)
		}
		dec, err := cvio.DecodeJPEG(buf, false)
		if err != nil {
			dec.Close()
			out.Close()
			return gocv.NewMat(), fmt.Errorf("jpeg: %w", err)
		}
		out.Close()
		out = dec
	}
	return out, nil
}
