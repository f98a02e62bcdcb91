package render

import (
	"os"
	"testing"

	"github.com/boardcam/boardcam/internal/matleak"
)

// TestMain fails the run when a test leaked an OpenCV Mat.
func TestMain(m *testing.M) { os.Exit(matleak.Run(m, "render")) }

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
