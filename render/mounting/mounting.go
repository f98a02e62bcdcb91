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
	"math"
	"math/rand"

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
	border := gocv.BorderConstant
	if w.Replicate {
		border = gocv.BorderReplicate
	}
	gocv.WarpPerspectiveWithParams(src, &out, hm, image.Point{w.Width, w.Height}, gocv.InterpolationLinear, border, floor)
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
	if err := light(out, w); err != nil {
		out.Close()
		return gocv.NewMat(), err
	}
	if w.Defocus > 0 {
		gocv.GaussianBlur(out, &out, image.Point{}, w.Defocus, w.Defocus, gocv.BorderReflect101)
	}
	if w.Noise > 0 {
		if err := noise(out, w.Noise, w.Seed); err != nil {
			out.Close()
			return gocv.NewMat(), err
		}
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

// light applies w's light ramp and glare to out (8-bit, 3 channels) in
// place.
func light(out gocv.Mat, w realboards.Warp) error {
	if w.Ramp.Low <= 0 && w.Glare.Peak <= 0 {
		return nil
	}
	pix, err := out.DataPtrUint8()
	if err != nil {
		return fmt.Errorf("light: %w", err)
	}
	cols, rows := out.Cols(), out.Rows()
	rx, ry := w.Ramp.To[0]-w.Ramp.From[0], w.Ramp.To[1]-w.Ramp.From[1]
	rl2 := rx*rx + ry*ry
	g2 := 2 * w.Glare.Sigm * w.Glare.Sigm
	for y := 0; y < rows; y++ {
		for x := 0; x < cols; x++ {
			gain, add := 1.0, 0.0
			if w.Ramp.Low > 0 && rl2 > 0 {
				t := ((float64(x)-w.Ramp.From[0])*rx + (float64(y)-w.Ramp.From[1])*ry) / rl2
				t = math.Max(0, math.Min(1, t))
				gain = 1 - t*(1-w.Ramp.Low)
			}
			if w.Glare.Peak > 0 && g2 > 0 {
				dx, dy := float64(x)-w.Glare.At[0], float64(y)-w.Glare.At[1]
				add = w.Glare.Peak * math.Exp(-(dx*dx+dy*dy)/g2)
			}
			i := (y*cols + x) * 3
			for c := 0; c < 3; c++ {
				v := float64(pix[i+c])*gain + add
				pix[i+c] = uint8(math.Min(255, math.Round(v)))
			}
		}
	}
	return nil
}

// noise adds Gaussian noise of sigma grey levels to every channel of out
// (8-bit, 3 channels) in place, the same for the same seed.
func noise(out gocv.Mat, sigma float64, seed int64) error {
	pix, err := out.DataPtrUint8()
	if err != nil {
		return fmt.Errorf("noise: %w", err)
	}
	rng := rand.New(rand.NewSource(seed))
	for i, v := range pix {
		pix[i] = uint8(math.Max(0, math.Min(255, math.Round(float64(v)+sigma*rng.NormFloat64()))))
	}
	return nil
}
