package web

import (
	"errors"
	"math"

	"github.com/boardcam/boardcam/board"
)

// homography is a row-major 3×3 projective map.
type homography [9]float64

// apply maps (x, y).
func (h homography) apply(x, y float64) (float64, float64, bool) {
	w := h[6]*x + h[7]*y + h[8]
	if math.Abs(w) < 1e-12 {
		return 0, 0, false
	}
	return (h[0]*x + h[1]*y + h[2]) / w, (h[3]*x + h[4]*y + h[5]) / w, true
}

// scaled returns the map followed by a uniform scaling by k.
func (h homography) scaled(k float64) homography {
	for i := 0; i < 6; i++ {
		h[i] *= k
	}
	return h
}

// homographyFrom solves for the map taking src[i] to dst[i] (four point
// pairs, no three collinear).
func homographyFrom(src, dst [4][2]float64) (homography, error) {
	// Unknowns h0…h7 with h8 = 1:
	//   h0 x + h1 y + h2 − h6 x u − h7 y u = u
	//   h3 x + h4 y + h5 − h6 x v − h7 y v = v
	var a [8][9]float64
	for i := 0; i < 4; i++ {
		x, y, u, v := src[i][0], src[i][1], dst[i][0], dst[i][1]
		a[2*i] = [9]float64{x, y, 1, 0, 0, 0, -x * u, -y * u, u}
		a[2*i+1] = [9]float64{0, 0, 0, x, y, 1, -x * v, -y * v, v}
	}
	for col := 0; col < 8; col++ {
		p := col
		for r := col + 1; r < 8; r++ {
			if math.Abs(a[r][col]) > math.Abs(a[p][col]) {
				p = r
			}
		}
		if math.Abs(a[p][col]) < 1e-12 {
			return homography{}, errors.New("degenerate corners (three in a line?)")
		}
		a[col], a[p] = a[p], a[col]
		for r := 0; r < 8; r++ {
			if r == col {
				continue
			}
			f := a[r][col] / a[col][col]
			for k := col; k < 9; k++ {
				a[r][k] -= f * a[col][k]
			}
		}
	}
	var h homography
	for i := 0; i < 8; i++ {
		h[i] = a[i][8] / a[i][i]
	}
	h[8] = 1
	return h, nil
}

// BoardToPixels is the map from board millimetres to pixels of the
// calibrated camera frame (Width wide): the calibration's homography, or
// one solved from its corners.
func (c Calibration) BoardToPixels(g *board.Geometry) ([9]float64, error) {
	h, err := previewHomography(c, g, 1)
	return [9]float64(h), err
}
