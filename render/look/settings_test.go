package look

import (
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

func TestParseSettings(t *testing.T) {
	s, err := ParseSettings([]byte("camera:\n  tilt: 5\n  knocks:\n    - {t: 2, rotation: 1}\nboard: {markings: home}\n"))
	if err != nil {
		t.Fatal(err)
	}
	d := DefaultSettings()
	if s.Camera.Tilt != 5 || s.Board.Markings != "home" || len(s.Camera.Knocks) != 1 || s.Camera.Knocks[0].T != 2 {
		t.Errorf("parsed %+v", s)
	}
	if s.Camera.Height != d.Camera.Height || s.Board.Wood != d.Board.Wood || s.Width != 1280 {
		t.Error("fields left out lost their defaults")
	}
	if s, err := ParseSettings(nil); err != nil || s.Width != d.Width {
		t.Errorf("empty: %v", err)
	}
	// Round trip.
	b, err := d.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if s, err := ParseSettings(b); err != nil || s.Camera.K1 != d.Camera.K1 || s.Sensor != d.Sensor {
		t.Errorf("round trip: %v", err)
	}
	for _, c := range []struct{ yaml, want string }{
		{"camera:\n  tilt: 5\n  tlt: 3\n", `line 3: unknown field "tlt" in camera`},
		{"width: 1280\n\ncamera:\n  tilt: 40\n", "line 4: camera.tilt: 40 is outside 0 to 15"},
		{"board:\n  wood: plywood\n", `line 2: board.wood: "plywood" is not one of`},
		{"camera:\n  knocks:\n    - t: 1\n    - t: -2\n", "line 4: camera.knocks[1].t"},
		{"lighting:\n  light: [0, 0, 10]\n", "line 2: lighting.light[2]: 10 is outside"},
		{"sensor: {jpeg_quality: 101}\n", "sensor.jpeg_quality"},
		{"camera: {height: tall}\n", "line 1: cannot unmarshal"},
		{"video: {preset: quick}\n", `video.preset: "quick"`},
		{"pieces: {striker: \"#12345\"}\n", "pieces.striker"},
		{"board: {markings: home, plain_centre: true}\n", "line 1: board.plain_centre"},
	} {
		_, err := ParseSettings([]byte(c.yaml))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.yaml, err, c.want)
		}
	}
	// Decoding the render: section of a larger document keeps its lines.
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte("name: clip\nseed: 3\nrender:\n  fps: 60\n  camera:\n    k1: 3\n"), &doc); err != nil {
		t.Fatal(err)
	}
	root := doc.Content[0]
	var node *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "render" {
			node = root.Content[i+1]
		}
	}
	if _, err := DecodeSettings(node); err == nil || !strings.Contains(err.Error(), "line 6: camera.k1") {
		t.Errorf("node error %v", err)
	}
	if s, err := DecodeSettings(nil); err != nil || s.FPS != 30 {
		t.Errorf("nil node: %v", err)
	}
}

func TestColours(t *testing.T) {
	c, err := ParseColour("#ff8000", WoodColours)
	if err != nil || c != RGB(255, 128, 0) {
		t.Errorf("#ff8000 = %v, %v", c, err)
	}
	if _, err := ParseColour("#ff80", WoodColours); err == nil {
		t.Error("short hex accepted")
	}
}
