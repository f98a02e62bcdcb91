package vision

import (
	"image"
	"math/rand"
	"testing"

	"gocv.io/x/gocv"
)

// TestSmoothVotesIsGaussianBlur checks that smoothVotes gives, bit for
// bit, what OpenCV's GaussianBlur (5×5, σ 1, constant border) gives on
// regions of a larger vote map (whose pixels around the region are read).
func TestSmoothVotesIsGaussianBlur(t *testing.T) {
	const n = 97
	vt := newVoter(n, 10, 12)
	defer vt.close()
	rng := rand.New(rand.NewSource(1))
	for i := range vt.acc {
		a, err := vt.acc[i].DataPtrFloat32()
		if err != nil {
			t.Fatal(err)
		}
		for k := range a {
			if rng.Intn(3) == 0 {
				a[k] = rng.Float32() * 5
			}
		}
	}
	want := gocv.NewMatWithSize(n, n, gocv.MatTypeCV32F)
	defer want.Close()
	for _, roi := range []image.Rectangle{image.Rect(0, 0, n, n), image.Rect(10, 20, 34, 44), image.Rect(0, 50, 3, 97), image.Rect(60, 1, 97, 2), image.Rect(40, 40, 41, 41)} {
		vt.smoothVotes(roi)
		for i := range vt.acc {
			a := vt.acc[i].Region(roi)
			w := want.Region(roi)
			gocv.GaussianBlur(a, &w, image.Pt(5, 5), 1.0, 1.0, gocv.BorderConstant)
			w.Close()
			a.Close()
			got, _ := vt.smooth[i].DataPtrFloat32()
			exp, _ := want.DataPtrFloat32()
			for y := roi.Min.Y; y < roi.Max.Y; y++ {
				for x := roi.Min.X; x < roi.Max.X; x++ {
					if got[y*n+x] != exp[y*n+x] {
						t.Fatalf("roi %v map %d at %d,%d: %v, GaussianBlur %v", roi, i, x, y, got[y*n+x], exp[y*n+x])
					}
				}
			}
		}
	}
}
