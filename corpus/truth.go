package corpus

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/scene"
)

// TruthVersion is the version of the truth file format. Readers refuse
// other versions; change it whenever a field changes meaning.
const TruthVersion = 1

// GzipAbove is the size in bytes above which a truth file is written
// gzip-compressed (NAME.truth.json.gz) instead of as plain JSON.
const GzipAbove = 1 << 20

// Truth is the ground truth of one clip (see docs/corpus.md).
type Truth struct {
	Version int      `json:"version"`
	Clip    ClipInfo `json:"clip"`
	// Cameras are the camera's truth, one entry per run of frames with
	// the same pose (a knocked camera gives one per wobbling frame).
	Cameras []CameraTruth `json:"cameras"`
	// Events are the simulator's exact events (T exact, Frame the first
	// frame at or after it).
	Events []events.Event `json:"events"`
	// Referee is how the events were refereed; Judgement what came of it
	// (the expected fouls and decisions).
	Referee   RefereeSetup `json:"referee"`
	Judgement *Judgement   `json:"judgement"`
	// Expect is the spec's expect: section, as checked.
	Expect Expect `json:"expect"`
	// Frames holds every disc and hand in every frame.
	Frames []FrameTruth `json:"frames"`
}

// ClipInfo describes the clip.
type ClipInfo struct {
	Name string `json:"name"`
	// Spec and Video are file names relative to the truth file.
	Spec       string  `json:"spec"`
	SpecSHA256 string  `json:"spec_sha256"`
	Video      string  `json:"video"`
	SHA256     string  `json:"sha256"`
	Bytes      int64   `json:"bytes"`
	Seed       uint64  `json:"seed"`
	FPS        int     `json:"fps"`
	Width      int     `json:"width"`
	Height     int     `json:"height"`
	Frames     int     `json:"frames"`
	Duration   float64 `json:"duration_s"`
	// Board is the board geometry's name and BoardFile the file it was
	// read from ("" for the ICF board); Markings the drawn style.
	Board     string `json:"board"`
	BoardFile string `json:"board_file,omitempty"`
	Markings  string `json:"markings"`
	// ManRadius and StrikerRadius are the disc radii in mm; Thickness
	// the men's thickness (the striker is 1 mm thicker).
	ManRadius     float64 `json:"man_radius_mm"`
	StrikerRadius float64 `json:"striker_radius_mm"`
	Thickness     float64 `json:"thickness_mm"`
	// TraceSHA256 is the simulator's trace hash (sim.Trace.Hash).
	TraceSHA256 string `json:"trace_sha256"`
	// FramesSHA256 is the SHA-256 of every rendered frame as handed to
	// the encoder (8-bit BGR, row by row, frame after frame). The frames
	// are what the code and the spec determine; the video's bytes
	// (SHA256) also depend on the machine's x264, which writes other
	// bytes from the same frames on another CPU (docs/corpus.md).
	// Empty in truth files made before it was recorded.
	FramesSHA256 string `json:"frames_sha256,omitempty"`
}

// CameraTruth is the camera over frames From…To (inclusive).
type CameraTruth struct {
	From int `json:"from"`
	To   int `json:"to"`
	// CornersPx are the playing surface's corners in (distorted) image
	// pixels: NW, NE, SE, SW = top-left, top-right, bottom-right,
	// bottom-left in board terms.
	CornersPx [4][2]float64 `json:"corners_px"`
	// Homography maps undistorted image pixels to board mm on the surface.
	Homography [3][3]float64 `json:"homography"`
	// CameraMatrix and DistCoeffs (k1, k2, p1, p2, k3) are OpenCV's.
	CameraMatrix [3][3]float64 `json:"camera_matrix"`
	DistCoeffs   [5]float64    `json:"dist_coeffs"`
	// PxPerMM is the image scale at the board's centre.
	PxPerMM float64 `json:"px_per_mm"`
}

// FrameTruth is one frame.
type FrameTruth struct {
	I     int         `json:"i"`
	T     R3          `json:"t"`
	Discs []DiscTruth `json:"discs"`
	Hands []HandTruth `json:"hands,omitempty"`
}

// DiscTruth is one disc in one frame. MM and PX are absent for discs that
// are pocketed or off; PX is the centre of the disc's top face in the
// (distorted) image.
type DiscTruth struct {
	ID     string        `json:"id"`
	Kind   board.Kind    `json:"piece"`
	State  scene.State   `json:"state"`
	MM     *[2]R3        `json:"mm,omitempty"`
	PX     *[2]R3        `json:"px,omitempty"`
	Z      R3            `json:"z,omitempty"`
	Pocket *board.Pocket `json:"pocket,omitempty"`
	// Hand is the fraction of the disc's top face a hand or an arm hides
	// from the camera; Outside the fraction outside the image.
	Hand    R3 `json:"hand,omitempty"`
	Outside R3 `json:"outside,omitempty"`
}

// HandTruth is a hand over the board (see scene.Hand), rounded.
type HandTruth struct {
	Owner     string `json:"owner"`
	Elbow     [2]R3  `json:"elbow"`
	Wrist     [2]R3  `json:"wrist"`
	Fingertip [2]R3  `json:"fingertip"`
	ArmWidth  R3     `json:"arm_width"`
	HandWidth R3     `json:"hand_width"`
	Z         R3     `json:"z"`
	Holding   string `json:"holding,omitempty"`
}

// Scene returns the hand as a scene.Hand.
func (h HandTruth) Scene() scene.Hand {
	v := func(p [2]R3) board.Vec { return board.Vec{X: float64(p[0]), Y: float64(p[1])} }
	return scene.Hand{Owner: h.Owner, Elbow: v(h.Elbow), Wrist: v(h.Wrist), Fingertip: v(h.Fingertip),
		ArmWidth: float64(h.ArmWidth), HandWidth: float64(h.HandWidth), Z: float64(h.Z), Holding: h.Holding}
}

// Pos returns the disc's position in mm (zero when absent).
func (d DiscTruth) Pos() board.Vec {
	if d.MM == nil {
		return board.Vec{}
	}
	return board.Vec{X: float64(d.MM[0]), Y: float64(d.MM[1])}
}

// Pixel returns the disc's top-face centre in image pixels and whether it
// is known.
func (d DiscTruth) Pixel() ([2]float64, bool) {
	if d.PX == nil {
		return [2]float64{}, false
	}
	return [2]float64{float64(d.PX[0]), float64(d.PX[1])}, true
}

// Visible reports whether a detector is expected to find the disc: on the
// board, at most half of it under a hand, and its centre inside the image.
func (d DiscTruth) Visible(w, h int) bool {
	if !d.State.OnBoard() || d.Hand >= 0.5 || d.PX == nil {
		return false
	}
	x, y := float64(d.PX[0]), float64(d.PX[1])
	return x >= -0.5 && y >= -0.5 && x <= float64(w)-0.5 && y <= float64(h)-0.5
}

// Camera returns the camera of frame i.
func (t *Truth) Camera(i int) *CameraTruth {
	for k := range t.Cameras {
		if c := &t.Cameras[k]; i >= c.From && i <= c.To {
			return c
		}
	}
	return nil
}

// R3 is a number written with at most three decimals (0.001 mm or px).
type R3 float64

// MarshalJSON implements json.Marshaler.
func (r R3) MarshalJSON() ([]byte, error) {
	v := math.Round(float64(r)*1000) / 1000
	if v == 0 {
		v = 0 // no "-0"
	}
	return []byte(strconv.FormatFloat(v, 'f', -1, 64)), nil
}

func r3(v float64) R3 { return R3(v) }

func vec2(v board.Vec) [2]R3 { return [2]R3{R3(v.X), R3(v.Y)} }

// Marshal writes the truth as JSON: the header fields indented, one camera,
// event, foul, decision and frame per line, so that a person can read it
// and a diff shows what changed.
func (t *Truth) Marshal() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("{\n")
	field := func(name string, v any, last bool) error {
		j, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("corpus: truth %s: %w", name, err)
		}
		fmt.Fprintf(&b, "  %q: %s", name, j)
		if !last {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
		return nil
	}
	list := func(name string, n int, item func(i int) any, last bool) error {
		fmt.Fprintf(&b, "  %q: [", name)
		for i := 0; i < n; i++ {
			j, err := json.Marshal(item(i))
			if err != nil {
				return fmt.Errorf("corpus: truth %s[%d]: %w", name, i, err)
			}
			b.WriteString("\n    ")
			b.Write(j)
			if i < n-1 {
				b.WriteByte(',')
			}
		}
		if n > 0 {
			b.WriteString("\n  ")
		}
		b.WriteByte(']')
		if !last {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
		return nil
	}
	j := t.Judgement
	if j == nil {
		j = &Judgement{}
	}
	steps := []func() error{
		func() error { return field("version", t.Version, false) },
		func() error { return field("clip", t.Clip, false) },
		func() error { return field("expect", t.Expect, false) },
		func() error { return field("referee", t.Referee, false) },
		func() error { return list("cameras", len(t.Cameras), func(i int) any { return t.Cameras[i] }, false) },
		func() error { return list("events", len(t.Events), func(i int) any { return t.Events[i] }, false) },
		func() error {
			b.WriteString("  \"judgement\": {\n")
			fmt.Fprintf(&b, "  ")
			if err := list("fouls", len(j.Fouls), func(i int) any { return j.Fouls[i] }, false); err != nil {
				return err
			}
			fmt.Fprintf(&b, "  ")
			if err := list("decisions", len(j.Decisions), func(i int) any { return j.Decisions[i] }, j.Final == nil && len(j.Rejected) == 0); err != nil {
				return err
			}
			if len(j.Rejected) > 0 {
				fmt.Fprintf(&b, "  ")
				if err := field("rejected", j.Rejected, j.Final == nil); err != nil {
					return err
				}
			}
			if j.Final != nil {
				fmt.Fprintf(&b, "  ")
				if err := field("final_state", j.Final, true); err != nil {
					return err
				}
			}
			b.WriteString("  },\n")
			return nil
		},
		func() error { return list("frames", len(t.Frames), func(i int) any { return t.Frames[i] }, true) },
	}
	for _, s := range steps {
		if err := s(); err != nil {
			return nil, err
		}
	}
	b.WriteString("}\n")
	return b.Bytes(), nil
}

// Encode returns the truth file's bytes and whether they are gzipped
// (when the JSON is larger than [GzipAbove]). The gzip stream has no
// name or time, so the same truth always gives the same bytes.
func (t *Truth) Encode() ([]byte, bool, error) {
	j, err := t.Marshal()
	if err != nil {
		return nil, false, err
	}
	if len(j) <= GzipAbove {
		return j, false, nil
	}
	var b bytes.Buffer
	zw, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if err != nil {
		return nil, false, err
	}
	if _, err := zw.Write(j); err != nil {
		return nil, false, err
	}
	if err := zw.Close(); err != nil {
		return nil, false, err
	}
	return b.Bytes(), true, nil
}

// ReadTruth reads a truth file (plain or gzipped JSON) and checks its
// version.
func ReadTruth(path string) (*Truth, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			return nil, fmt.Errorf("corpus: %s: %w", path, err)
		}
		defer zr.Close()
		r = zr
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("corpus: %s: %w", path, err)
	}
	return ParseTruth(b, path)
}

// ParseTruth reads a truth file's JSON; name names it in errors.
func ParseTruth(b []byte, name string) (*Truth, error) {
	var head struct {
		Version int `json:"version"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return nil, fmt.Errorf("corpus: %s: %w", name, jsonErr(b, err))
	}
	if head.Version != TruthVersion {
		return nil, fmt.Errorf("corpus: %s: truth version %d, this boardcam reads version %d (regenerate with boardcam synth)", name, head.Version, TruthVersion)
	}
	t := &Truth{}
	if err := json.Unmarshal(b, t); err != nil {
		return nil, fmt.Errorf("corpus: %s: %w", name, jsonErr(b, err))
	}
	if len(t.Frames) != t.Clip.Frames {
		return nil, fmt.Errorf("corpus: %s: %d frames listed, clip.frames says %d", name, len(t.Frames), t.Clip.Frames)
	}
	for i, f := range t.Frames {
		if f.I != i {
			return nil, fmt.Errorf("corpus: %s: frames[%d] has i=%d", name, i, f.I)
		}
		if t.Camera(i) == nil {
			return nil, fmt.Errorf("corpus: %s: no camera for frame %d", name, i)
		}
	}
	return t, nil
}

// jsonErr adds the line to a JSON syntax or type error.
func jsonErr(b []byte, err error) error {
	var off int64 = -1
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	if off < 0 || off > int64(len(b)) {
		return err
	}
	return fmt.Errorf("line %d: %w", bytes.Count(b[:off], []byte("\n"))+1, err)
}

// FindTruth returns the truth file of clip name in dir (plain or gzipped).
func FindTruth(dir, name string) (string, error) {
	for _, p := range []string{TruthFile(dir, name), TruthFileGz(dir, name)} {
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("corpus: no truth file for clip %s in %s (%s or %s)", name, dir, name+".truth.json", name+".truth.json.gz")
}

// FileSHA256 is the SHA-256 (hex) and size of a file: how a truth names its
// video and spec.
func FileSHA256(path string) (string, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", 0, fmt.Errorf("corpus: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", 0, fmt.Errorf("corpus: %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}
