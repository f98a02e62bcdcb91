package calibrate

import (
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/board"
)

// Full calibration of a 720p frame (budget: about a second on the Pi).
func BenchmarkDetect720p(b *testing.B) {
	img, _ := renderView(b, board.ICF(), view{W: 1280, H: 720, Fill: 0.86, Noise: 3, Blur: 0.7, Seed: 1, Pieces: true})
	defer img.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := Detect(img, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// Full calibration of the largest real photograph (1500×1479).
func BenchmarkDetectRealPhoto(b *testing.B) {
	img := readImage(b, filepath.Join(realboardsDir(b), "udayan14--carrom.jpg"))
	defer img.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := Detect(img, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// The periodic moved-camera check on a 720p frame (budget: a few ms).
func BenchmarkCheck720p(b *testing.B) {
	img, _ := renderView(b, board.ICF(), view{W: 1280, H: 720, Fill: 0.86, Noise: 3, Blur: 0.7, Seed: 1})
	defer img.Close()
	cal, _, err := Detect(img, Options{})
	if err != nil {
		b.Fatal(err)
	}
	ch, err := NewChecker(cal, CheckerOptions{})
	if err != nil {
		b.Fatal(err)
	}
	if err := ch.SetReference(img); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if r, err := ch.Check(img); err != nil || r.Status != CheckOK {
			b.Fatal(r.Status, err)
		}
	}
}

// Undistorting one 720p frame into a preallocated Mat.
func BenchmarkUndistort720p(b *testing.B) {
	l := &Lens{ImageSize: Size{W: 1280, H: 720}, CameraMatrix: [3][3]float64{{860, 0, 641}, {0, 860, 357}, {0, 0, 1}}, Distortion: []float64{-0.3, 0.1, 0, 0, 0}}
	u, err := NewUndistorter(l)
	if err != nil {
		b.Fatal(err)
	}
	defer u.Close()
	src := gocv.NewMatWithSize(720, 1280, gocv.MatTypeCV8UC3)
	defer src.Close()
	dst := gocv.NewMat()
	defer dst.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := u.Apply(src, &dst); err != nil {
			b.Fatal(err)
		}
	}
}
