package look

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"reflect"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Settings is everything the renderer needs besides the board geometry and
// the seed: the camera, how the board, the pieces and the room look, the
// sensor and the video encoder. It is the `render:` section of a clip spec
// (YAML); fields left out keep the values of [DefaultSettings].
type Settings struct {
	// Width and Height of the frame in pixels (1280×720 or 1920×1080;
	// other sizes from 160×120 up work too).
	Width  int `yaml:"width"`
	Height int `yaml:"height"`
	// FPS is the frame rate the clip is encoded at (30, 60 or 120).
	FPS int `yaml:"fps"`

	Camera     CameraSettings `yaml:"camera"`
	Board      BoardStyle     `yaml:"board"`
	Pieces     PieceStyle     `yaml:"pieces"`
	Lighting   Lighting       `yaml:"lighting"`
	Background Background     `yaml:"background"`
	Sensor     Sensor         `yaml:"sensor"`
	Video      VideoSettings  `yaml:"video"`
}

// CameraSettings place the camera over the board and describe its lens.
type CameraSettings struct {
	// Height of the lens above the playing surface, mm (900 to 1500 in
	// practice; 500 to 3000 accepted).
	Height float64 `yaml:"height"`
	// Tilt of the optical axis from the vertical, degrees (0 to 15).
	Tilt float64 `yaml:"tilt"`
	// TiltDirection is the direction, on the board, toward which the
	// camera looks: degrees from +x (E) toward +y (S).
	TiltDirection float64 `yaml:"tilt_direction"`
	// Rotation of the board in the image, degrees clockwise (any angle).
	Rotation float64 `yaml:"rotation"`
	// Offset is where the optical axis meets the playing surface, in board
	// mm from the centre.
	Offset [2]float64 `yaml:"offset,flow"`
	// FOV is the horizontal field of view in degrees (e.g. 66 for a Pi
	// camera module 3, 102 for its wide version). Zero: the focal length
	// follows from Fill instead.
	FOV float64 `yaml:"fov"`
	// Fill is the fraction of the image height that the whole board
	// (surface and frame) spans when FOV is zero.
	Fill float64 `yaml:"fill"`
	// K1, K2, K3 are the radial distortion coefficients of OpenCV's model
	// (on normalised coordinates; negative K1 is barrel distortion).
	K1 float64 `yaml:"k1"`
	K2 float64 `yaml:"k2"`
	K3 float64 `yaml:"k3"`
	// PrincipalOffset moves the principal point from the image centre, px.
	PrincipalOffset [2]float64 `yaml:"principal_offset,flow"`
	// Exposure time in milliseconds: moving discs are blurred over it.
	Exposure float64 `yaml:"exposure"`
	// Knocks move the camera during the clip (someone bumps the stand).
	Knocks []Knock `yaml:"knocks"`
}

// Knock changes the camera pose from time T on, after a short damped wobble.
// The changes add to the camera settings (and to earlier knocks).
type Knock struct {
	// T is the time of the knock, seconds from the clip's start.
	T float64 `yaml:"t"`
	// Rotation is added to the board rotation, degrees.
	Rotation float64 `yaml:"rotation"`
	// Tilt tilts the camera further, degrees, toward TiltDirection.
	Tilt          float64 `yaml:"tilt"`
	TiltDirection float64 `yaml:"tilt_direction"`
	// Offset is added to the camera offset, mm.
	Offset [2]float64 `yaml:"offset,flow"`
	// Height is added to the camera height, mm.
	Height float64 `yaml:"height"`
	// Shake is the amplitude of the wobble in degrees and Duration how long
	// it takes to die out, seconds (default 0.4).
	Shake    float64 `yaml:"shake"`
	Duration float64 `yaml:"duration"`
}

// BoardStyle is how the board itself looks.
type BoardStyle struct {
	// Markings: "icf" (base lines with red base circles, arrows with arcs,
	// red centre circle and a star in the outer circle) or "home" (plain
	// double lines, no red, plain circles).
	Markings string `yaml:"markings"`
	// Wood of the playing surface: "birch" (pale), "light", "honey", "dark"
	// or a colour "#rrggbb".
	Wood string `yaml:"wood"`
	// Grain strength 0–1.
	Grain float64 `yaml:"grain"`
	// Wear 0–1: scuffs where hands rest, darker edges, worn lines.
	Wear float64 `yaml:"wear"`
	// Powder 0–1: speckles and smears of board powder.
	Powder float64 `yaml:"powder"`
	// Frame colour: "black", "brown", "mahogany", "natural" or "#rrggbb".
	Frame string `yaml:"frame"`
	// FrameHeight is how far the frame stands above the surface, mm.
	FrameHeight float64 `yaml:"frame_height"`
	// Net colour of the pocket nets: "mixed", "red", "green", "white",
	// "blue", "black".
	Net string `yaml:"net"`
	// Text prints a maker's name and "MADE IN INDIA" on the board.
	Text bool `yaml:"text"`
	// Lines draws the markings away from the geometry's figures (see
	// LineStyle and DrawnMarkings).
	Lines LineStyle `yaml:"lines"`
	// PlainCentre prints the ICF centre circle as a flat red disc alone on
	// the wood, with no star and no outline, as some boards (and another
	// renderer) print it: the queen's size and red, with nothing around it
	// to tell it from her but that it does not stand up from the board.
	PlainCentre bool `yaml:"plain_centre"`
}

// PieceStyle is how the carrommen, the queen and the striker look.
type PieceStyle struct {
	// Whites: "natural" (light wood), "yellow", "brown" (dark stained wood,
	// as some sets have) or "#rrggbb".
	Whites string `yaml:"whites"`
	// Blacks: "worn" (dark grey-brown, rubbed), "black", "brown" or "#rrggbb".
	Blacks string `yaml:"blacks"`
	// Queen: "red", "pink" or "#rrggbb".
	Queen string `yaml:"queen"`
	// Striker: "white", "ivory", "blue", "green", "yellow", "red", "black"
	// or "#rrggbb".
	Striker string `yaml:"striker"`
	// Thickness of the men, mm (7 to 9); the striker is 1 mm thicker.
	Thickness float64 `yaml:"thickness"`
	// Variation 0–1 of tone from piece to piece.
	Variation float64 `yaml:"variation"`
}

// Lighting is the room's light.
type Lighting struct {
	// Light is the key lamp's position: x, y in board mm, height above the
	// surface in mm.
	Light [3]float64 `yaml:"light,flow"`
	// LampSize is the radius of the lamp, mm: bigger lamps, softer shadows.
	LampSize float64 `yaml:"lamp_size"`
	// Level is the overall brightness (1 = well exposed).
	Level float64 `yaml:"level"`
	// Ambient 0–1 is the share of light that does not come from the lamp.
	Ambient float64 `yaml:"ambient"`
	// Unevenness 0–1 adds broad patches of more and less light.
	Unevenness float64 `yaml:"unevenness"`
	// Vignetting 0–1: how much darker the image corners are.
	Vignetting float64 `yaml:"vignetting"`
	// Glare 0–1: the lamp's reflection on the lacquer.
	Glare float64 `yaml:"glare"`
	// Shadows 0–1: how dark the shadows under pieces and hands are.
	Shadows float64 `yaml:"shadows"`
	// Warmth −1 (cold, bluish) to 1 (warm, yellow) colour of the light.
	Warmth float64 `yaml:"warmth"`
	// Dims change the level during the clip.
	Dims []Dim `yaml:"dims"`
}

// Dim changes the light level: from time T it ramps over Ramp seconds to
// Level times the base level.
type Dim struct {
	T     float64 `yaml:"t"`
	Level float64 `yaml:"level"`
	Ramp  float64 `yaml:"ramp"`
}

// Background is what lies around the board.
type Background struct {
	// Kind: "table" (wooden table top), "floor" (tiles), "cloth".
	Kind string `yaml:"kind"`
	// Clutter 0–1: how many objects (cables, cups, phones, boxes, paper).
	Clutter float64 `yaml:"clutter"`
	// Depth of the background below the playing surface, mm (30 for a board
	// lying on a table, 650 for a board on a stand over the floor).
	Depth float64 `yaml:"depth"`
}

// Sensor is the camera's sensor and image processing.
type Sensor struct {
	// Noise scales shot and read noise (0 = none, 1 = a typical webcam).
	Noise float64 `yaml:"noise"`
	// ReadNoise is the noise floor in 8-bit units; ShotNoise the variance
	// per unit of signal.
	ReadNoise float64 `yaml:"read_noise"`
	ShotNoise float64 `yaml:"shot_noise"`
	// AutoGain 0–1: how much of a dimming the camera compensates by
	// amplifying (and with it the noise).
	AutoGain float64 `yaml:"auto_gain"`
	// Blur is the lens's blur, a Gaussian sigma in pixels.
	Blur float64 `yaml:"blur"`
	// Sharpen is the strength of the camera's unsharp mask (0 = none; webcams
	// use 0.3 to 1), which leaves light and dark halos along edges.
	Sharpen float64 `yaml:"sharpen"`
	// Saturation and Contrast of the camera's processing (1 = neutral).
	Saturation float64 `yaml:"saturation"`
	Contrast   float64 `yaml:"contrast"`
	// JPEGQuality: when 1–100, each frame goes through JPEG at this quality
	// (as from a webcam's MJPEG stream); 0 = off.
	JPEGQuality int `yaml:"jpeg_quality"`
	// Supersample is the anti-aliasing factor of the static scene (1–3).
	Supersample int `yaml:"supersample"`
}

// VideoSettings are the H.264 encoder's settings.
type VideoSettings struct {
	// CRF is x264's constant rate factor (lower = better, bigger).
	CRF int `yaml:"crf"`
	// Preset is x264's preset (ultrafast … veryslow).
	Preset string `yaml:"preset"`
	// MaxKbps caps the bit rate (kbit/s); 0 = no cap.
	MaxKbps int `yaml:"max_kbps"`
}

// DefaultSettings returns a webcam at 1.2 m over a worn club board with a
// black frame under one lamp, on a cluttered table, at 1280×720 and 30 fps.
func DefaultSettings() Settings {
	return Settings{
		Width: 1280, Height: 720, FPS: 30,
		Camera: CameraSettings{
			Height: 1200, Fill: 0.94, K1: -0.06, K2: 0.012, Exposure: 8,
		},
		Board: BoardStyle{
			Markings: "icf", Wood: "light", Grain: 0.6, Wear: 0.4, Powder: 0.35,
			Frame: "black", FrameHeight: 22, Net: "mixed", Text: true,
		},
		Pieces: PieceStyle{
			Whites: "natural", Blacks: "worn", Queen: "red", Striker: "white",
			Thickness: 8, Variation: 0.5,
		},
		Lighting: Lighting{
			Light: [3]float64{-220, -320, 1150}, LampSize: 120, Level: 1, Ambient: 0.45,
			Unevenness: 0.3, Vignetting: 0.35, Glare: 0.35, Shadows: 0.55, Warmth: 0.15,
		},
		Background: Background{Kind: "table", Clutter: 0.5, Depth: 30},
		Sensor: Sensor{
			Noise: 1, ReadNoise: 1.6, ShotNoise: 0.08, AutoGain: 0.6, Blur: 0.8, Sharpen: 0.4,
			Saturation: 0.9, Contrast: 1, Supersample: 2,
		},
		Video: VideoSettings{CRF: 20, Preset: "medium", MaxKbps: 3000},
	}
}

// LoadSettings reads settings from a YAML file (see [ParseSettings]).
func LoadSettings(path string) (Settings, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Settings{}, fmt.Errorf("render: %w", err)
	}
	s, err := ParseSettings(b)
	if err != nil {
		return Settings{}, fmt.Errorf("render: %s: %w", path, err)
	}
	return s, nil
}

// ParseSettings reads settings in YAML over the defaults and validates them.
// Errors name the line and the field.
func ParseSettings(b []byte) (Settings, error) {
	var doc yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(b)).Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return DefaultSettings(), nil
		}
		return Settings{}, err
	}
	if len(doc.Content) == 0 {
		return DefaultSettings(), nil
	}
	return DecodeSettings(doc.Content[0])
}

// DecodeSettings decodes settings from a YAML node (the `render:` value of a
// clip spec) over the defaults and validates them; errors carry the line
// numbers of the original document.
func DecodeSettings(n *yaml.Node) (Settings, error) {
	s := DefaultSettings()
	if n == nil || (n.Kind == yaml.ScalarNode && n.Tag == "!!null") {
		return s, nil
	}
	if err := checkKnown(n, reflect.TypeOf(s), ""); err != nil {
		return Settings{}, err
	}
	if err := n.Decode(&s); err != nil {
		return Settings{}, err
	}
	if errs := s.validate(); len(errs) > 0 {
		var all []error
		for _, e := range errs {
			if line := lineOf(n, e.path); line > 0 {
				all = append(all, fmt.Errorf("line %d: %s: %s", line, e.path, e.msg))
			} else {
				all = append(all, fmt.Errorf("%s: %s", e.path, e.msg))
			}
		}
		return Settings{}, errors.Join(all...)
	}
	return s, nil
}

// Validate checks the settings; the error names every bad field.
func (s Settings) Validate() error {
	var all []error
	for _, e := range s.validate() {
		all = append(all, fmt.Errorf("%s: %s", e.path, e.msg))
	}
	return errors.Join(all...)
}

type fieldError struct{ path, msg string }

func (s Settings) validate() []fieldError {
	var errs []fieldError
	bad := func(path, format string, a ...any) {
		errs = append(errs, fieldError{path, fmt.Sprintf(format, a...)})
	}
	rng := func(path string, v, lo, hi float64) {
		if math.IsNaN(v) || v < lo || v > hi {
			bad(path, "%v is outside %v to %v", v, lo, hi)
		}
	}
	if s.Width < 160 || s.Width > 4096 {
		bad("width", "%d is outside 160 to 4096", s.Width)
	}
	if s.Height < 120 || s.Height > 4096 {
		bad("height", "%d is outside 120 to 4096", s.Height)
	}
	if s.FPS < 1 || s.FPS > 240 {
		bad("fps", "%d is outside 1 to 240", s.FPS)
	}
	c := s.Camera
	rng("camera.height", c.Height, 500, 3000)
	rng("camera.tilt", c.Tilt, 0, 15)
	rng("camera.fov", c.FOV, 0, 130)
	if c.FOV > 0 && c.FOV < 20 {
		bad("camera.fov", "%v is too narrow to see a board (20 to 130, or 0 to use fill)", c.FOV)
	}
	if c.FOV == 0 {
		rng("camera.fill", c.Fill, 0.2, 1.5)
	}
	rng("camera.k1", c.K1, -1, 1)
	rng("camera.k2", c.K2, -1, 1)
	rng("camera.k3", c.K3, -1, 1)
	rng("camera.exposure", c.Exposure, 0, 100)
	if math.Hypot(c.Offset[0], c.Offset[1]) > 400 {
		bad("camera.offset", "%v mm is too far from the board centre (at most 400)", c.Offset)
	}
	for i, k := range c.Knocks {
		p := fmt.Sprintf("camera.knocks[%d]", i)
		rng(p+".t", k.T, 0, 1e6)
		rng(p+".shake", k.Shake, 0, 5)
		rng(p+".duration", k.Duration, 0, 10)
		rng(p+".tilt", k.Tilt, -10, 10)
		rng(p+".height", k.Height, -300, 300)
	}
	b := s.Board
	if b.Markings != "icf" && b.Markings != "home" {
		bad("board.markings", "%q is not icf or home", b.Markings)
	}
	b.Lines.validate(bad)
	if b.PlainCentre && b.Markings != "icf" {
		bad("board.plain_centre", "a home board's centre circle is a plain ring already (plain_centre is for markings: icf)")
	}
	if _, err := ParseColour(b.Wood, WoodColours); err != nil {
		bad("board.wood", "%v", err)
	}
	if _, err := ParseColour(b.Frame, FrameColours); err != nil {
		bad("board.frame", "%v", err)
	}
	if _, ok := NetColours[b.Net]; !ok {
		bad("board.net", "%q is not one of %s", b.Net, names(NetColours))
	}
	rng("board.grain", b.Grain, 0, 1)
	rng("board.wear", b.Wear, 0, 1)
	rng("board.powder", b.Powder, 0, 1)
	rng("board.frame_height", b.FrameHeight, 0, 80)
	p := s.Pieces
	for _, f := range []struct {
		path, v string
		m       map[string]BGR
	}{{"pieces.whites", p.Whites, WhiteColours}, {"pieces.blacks", p.Blacks, BlackColours},
		{"pieces.queen", p.Queen, QueenColours}, {"pieces.striker", p.Striker, StrikerColours}} {
		if _, err := ParseColour(f.v, f.m); err != nil {
			bad(f.path, "%v", err)
		}
	}
	rng("pieces.thickness", p.Thickness, 3, 15)
	rng("pieces.variation", p.Variation, 0, 1)
	l := s.Lighting
	rng("lighting.light[2]", l.Light[2], 300, 5000)
	rng("lighting.lamp_size", l.LampSize, 0, 1000)
	rng("lighting.level", l.Level, 0.05, 3)
	rng("lighting.ambient", l.Ambient, 0, 1)
	rng("lighting.unevenness", l.Unevenness, 0, 1)
	rng("lighting.vignetting", l.Vignetting, 0, 1)
	rng("lighting.glare", l.Glare, 0, 1)
	rng("lighting.shadows", l.Shadows, 0, 1)
	rng("lighting.warmth", l.Warmth, -1, 1)
	for i, d := range l.Dims {
		p := fmt.Sprintf("lighting.dims[%d]", i)
		rng(p+".t", d.T, 0, 1e6)
		rng(p+".level", d.Level, 0.05, 3)
		rng(p+".ramp", d.Ramp, 0, 60)
	}
	g := s.Background
	if _, ok := BackgroundKinds[g.Kind]; !ok {
		bad("background.kind", "%q is not one of %s", g.Kind, names(BackgroundKinds))
	}
	rng("background.clutter", g.Clutter, 0, 1)
	rng("background.depth", g.Depth, 0, 2000)
	n := s.Sensor
	rng("sensor.noise", n.Noise, 0, 10)
	rng("sensor.read_noise", n.ReadNoise, 0, 50)
	rng("sensor.shot_noise", n.ShotNoise, 0, 10)
	rng("sensor.auto_gain", n.AutoGain, 0, 1)
	rng("sensor.blur", n.Blur, 0, 5)
	rng("sensor.sharpen", n.Sharpen, 0, 3)
	rng("sensor.saturation", n.Saturation, 0, 2)
	rng("sensor.contrast", n.Contrast, 0.3, 2)
	if n.JPEGQuality < 0 || n.JPEGQuality > 100 {
		bad("sensor.jpeg_quality", "%d is outside 0 to 100", n.JPEGQuality)
	}
	if n.Supersample < 1 || n.Supersample > 3 {
		bad("sensor.supersample", "%d is outside 1 to 3", n.Supersample)
	}
	v := s.Video
	if v.CRF < 0 || v.CRF > 51 {
		bad("video.crf", "%d is outside 0 to 51", v.CRF)
	}
	if !validPreset[v.Preset] {
		bad("video.preset", "%q is not an x264 preset", v.Preset)
	}
	if v.MaxKbps < 0 {
		bad("video.max_kbps", "%d must not be negative", v.MaxKbps)
	}
	return errs
}

var validPreset = map[string]bool{"ultrafast": true, "superfast": true, "veryfast": true, "faster": true,
	"fast": true, "medium": true, "slow": true, "slower": true, "veryslow": true}

// BackgroundKinds are the kinds of room background.kind may name.
var BackgroundKinds = map[string]bool{"table": true, "floor": true, "cloth": true}

func names[V any](m map[string]V) string {
	var ns []string
	for k := range m {
		ns = append(ns, k)
	}
	// sort for stable messages
	for i := range ns {
		for j := i + 1; j < len(ns); j++ {
			if ns[j] < ns[i] {
				ns[i], ns[j] = ns[j], ns[i]
			}
		}
	}
	return strings.Join(ns, ", ")
}

// checkKnown rejects mapping keys that no field of t is tagged with, naming
// the line.
func checkKnown(n *yaml.Node, t reflect.Type, path string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case n.Kind == yaml.AliasNode:
		return checkKnown(n.Alias, t, path)
	case t.Kind() == reflect.Struct && n.Kind == yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			f, ok := fieldByTag(t, k.Value)
			if !ok {
				return fmt.Errorf("line %d: unknown field %q in %s", k.Line, k.Value, describe(path))
			}
			if err := checkKnown(v, f.Type, join(path, k.Value)); err != nil {
				return err
			}
		}
	case (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) && n.Kind == yaml.SequenceNode:
		for i, c := range n.Content {
			if err := checkKnown(c, t.Elem(), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	}
	return nil
}

func describe(path string) string {
	if path == "" {
		return "render settings"
	}
	return path
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func fieldByTag(t reflect.Type, key string) (reflect.StructField, bool) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name := strings.Split(f.Tag.Get("yaml"), ",")[0]
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		if name == key {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// lineOf finds the line of the node at path ("camera.knocks[1].t",
// "lighting.light[2]"); the nearest existing ancestor's line when the field
// was left out (it then has its default), 0 when nothing matches.
func lineOf(n *yaml.Node, path string) int {
	line := 0
	cur := n
	for _, part := range strings.Split(path, ".") {
		name, idx := part, -1
		if i := strings.IndexByte(part, '['); i >= 0 {
			name = part[:i]
			idx, _ = strconv.Atoi(strings.TrimSuffix(part[i+1:], "]"))
		}
		if cur == nil || cur.Kind != yaml.MappingNode {
			return line
		}
		var next *yaml.Node
		for i := 0; i+1 < len(cur.Content); i += 2 {
			if cur.Content[i].Value == name {
				next = cur.Content[i+1]
				line = cur.Content[i].Line
			}
		}
		if next == nil {
			return line
		}
		cur = next
		if idx >= 0 {
			if cur.Kind != yaml.SequenceNode || idx >= len(cur.Content) {
				return line
			}
			cur = cur.Content[idx]
			line = cur.Line
		}
	}
	return line
}

// Marshal writes the settings as YAML, the format [ParseSettings] reads.
func (s Settings) Marshal() ([]byte, error) { return yaml.Marshal(s) }
