package eval

import (
	"math"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/camera"
)

// The true calibration is the truth's camera: its corners, through the
// lens, are the truth's corners; its homography maps them to the board's
// corners; the lens is the camera's.
func TestTrueCalibration(t *testing.T) {
	for _, name := range []string{"break", "single-pocket", "queen-returned", "arm-foul", "camera-knock"} {
		tr := truthOf(t, name)
		g := board.ICF()
		for k := range tr.Cameras {
			cam := &tr.Cameras[k]
			cal, err := TrueCalibration(cam, tr.Clip.Width, tr.Clip.Height, g, camera.Orientation{})
			if err != nil {
				t.Fatalf("%s camera %d: %v", name, k, err)
			}
			if cal.Lens == nil || cal.Lens.Distortion[0] != cam.DistCoeffs[0] || cal.Lens.CameraMatrix != cam.CameraMatrix {
				t.Fatalf("%s: lens %+v, camera %v %v", name, cal.Lens, cam.CameraMatrix, cam.DistCoeffs)
			}
			for i, c := range cal.Corners {
				d := cal.Lens.Distort(c)
				if e := math.Hypot(d.X-cam.CornersPx[i][0], d.Y-cam.CornersPx[i][1]); e > 0.01 {
					t.Errorf("%s camera %d corner %d: %.3f px from the truth's", name, k, i, e)
				}
			}
			if p := cal.ToBoard(cal.Corners[2]); math.Abs(p.X-g.Surface/2) > 0.01 || math.Abs(p.Y-g.Surface/2) > 0.01 {
				t.Errorf("%s: SE corner maps to %v", name, p)
			}
		}
	}
}

// The installation's orientation is the camera's rotation rounded to a
// quarter turn; a camera turned 45° has none.
func TestSouthAtOf(t *testing.T) {
	for name, want := range map[string]camera.Direction{
		"break":                 camera.Bottom, // rotation 0
		"single-pocket":         camera.Left,   // 90
		"placement-base-circle": camera.Left,   // 90
		"placement-both-lines":  camera.Right,  // -90
		"queen-returned":        camera.Top,    // 180
		"backward-flick":        camera.Bottom, // -3
		"doubles":               "",            // 45
	} {
		tr := truthOf(t, name)
		got, ok := SouthAtOf(&tr.Cameras[0], board.ICF())
		if !ok {
			got = ""
		}
		if got != want {
			t.Errorf("%s: south at %q, want %q", name, got, want)
		}
		for _, o := range []OrientationSource{OrientationInstalled, OrientationInferred} {
			c, err := clipOf(tr, videos, "", Options{Orientation: o})
			if err != nil {
				t.Fatal(err)
			}
			w := want
			if o == OrientationInferred {
				w = ""
			}
			if c.SouthAt != w {
				t.Errorf("%s, %s: the clip says south at %q, want %q", name, o, c.SouthAt, w)
			}
		}
	}
}

// recorder reports the calibration the harness hands it (the true one
// with --calibration truth) and remembers what each frame carried.
type recorder struct {
	clip   Clip
	frames []*camera.Calibration
}

func (r *recorder) Name() string { return "recorder" }

func (r *recorder) Begin(c Clip) error { r.clip, r.frames = c, nil; return nil }

func (r *recorder) Frame(f Frame) (Output, error) {
	r.frames = append(r.frames, f.Calibration)
	var out Output
	if cal := f.Calibration; cal != nil {
		var c [4][2]float64
		for i, p := range cal.Corners {
			p = cal.Lens.Distort(p)
			c[i] = [2]float64{p.X, p.Y}
		}
		out.Corners = &c
	}
	return out, nil
}

func (r *recorder) End() (Output, error) { return Output{}, nil }

// With CalibrationTruth every frame carries its camera's true calibration
// (a new one each time the knocked camera moves), and reporting it scores
// a corner error of zero; with CalibrationAuto nothing is handed over.
func TestCalibrationTruthHandsEachFrameItsCamera(t *testing.T) {
	tr := truthOf(t, "camera-knock")
	if len(tr.Cameras) < 3 {
		t.Fatalf("camera-knock has %d cameras: the knock is gone from the corpus?", len(tr.Cameras))
	}
	r := &recorder{}
	m, err := ScoreTruth(tr, r, Options{Calibration: CalibrationTruth})
	if err != nil {
		t.Fatal(err)
	}
	if r.clip.Calibration != CalibrationTruth || r.clip.TrueCalibration == nil || r.clip.TrueCalibration != r.frames[0] {
		t.Fatalf("clip %+v", r.clip)
	}
	distinct := map[*camera.Calibration]bool{}
	for i, c := range r.frames {
		if c == nil {
			t.Fatalf("frame %d has no calibration", i)
		}
		distinct[c] = true
		if k := cameraIndex(tr, i); c.Corners != r.clip.trueCals[k].Corners {
			t.Fatalf("frame %d: not its camera's calibration", i)
		}
	}
	if len(distinct) != len(tr.Cameras) {
		t.Errorf("%d distinct calibrations for %d cameras", len(distinct), len(tr.Cameras))
	}
	if e := val(t, "corner error", m.CalibrationCornerErrPxMean); e > 0.01 || m.CalibrationCoverage != 1 {
		t.Errorf("true corners read %.3f px, coverage %v", e, m.CalibrationCoverage)
	}

	r = &recorder{}
	if _, err := ScoreTruth(tr, r, Options{}); err != nil {
		t.Fatal(err)
	}
	if r.clip.Calibration != CalibrationAuto || r.clip.TrueCalibration != nil {
		t.Errorf("auto: clip %+v", r.clip)
	}
	for i, c := range r.frames {
		if c != nil {
			t.Fatalf("auto: frame %d was handed a calibration", i)
		}
	}
}

func TestParseSources(t *testing.T) {
	if c, err := ParseCalibrationSource(""); err != nil || c != CalibrationAuto {
		t.Error(c, err)
	}
	if c, err := ParseCalibrationSource("truth"); err != nil || c != CalibrationTruth {
		t.Error(c, err)
	}
	if _, err := ParseCalibrationSource("oracle"); err == nil {
		t.Error("oracle accepted")
	}
	if o, err := ParseOrientationSource(""); err != nil || o != OrientationInstalled {
		t.Error(o, err)
	}
	if _, err := ParseOrientationSource("config"); err == nil {
		t.Error("config accepted")
	}
}
