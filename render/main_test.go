package render

import (
	"fmt"
	"os"
	"testing"
)

// leakCount counts live OpenCV Mats; it is set in matprofile_test.go, which
// only builds with -tags matprofile (gocv's Mat profile exists only then).
var leakCount func() int

// TestMain fails the run when any OpenCV Mat was leaked.
func TestMain(m *testing.M) {
	code := m.Run()
	if leakCount == nil {
		fmt.Fprintln(os.Stderr, "render: built without -tags matprofile: Mat leaks not checked")
	} else if n := leakCount(); n != 0 {
		fmt.Fprintf(os.Stderr, "render: %d OpenCV Mats leaked\n", n)
		code = 1
	}
	os.Exit(code)
}

// small returns fast settings for tests: a small frame, no supersampling.
func small(w, h int) Settings {
	s := DefaultSettings()
	s.Width, s.Height = w, h
	s.Sensor.Supersample = 1
	return s
}

// clean removes everything random or soft that would hide geometry.
func clean(s Settings) Settings {
	s.Sensor.Noise = 0
	s.Sensor.Blur = 0
	s.Sensor.Sharpen = 0
	s.Sensor.JPEGQuality = 0
	s.Lighting.Glare = 0
	s.Lighting.Unevenness = 0
	s.Board.Wear = 0
	s.Board.Powder = 0
	s.Background.Clutter = 0
	return s
}
