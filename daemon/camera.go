package daemon

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"gocv.io/x/gocv"
	"gopkg.in/yaml.v3"
)

// Frame rate and exposure. A striker crossing the board at 5 m/s moves
// 20 mm (half its diameter) during a 1/250 s exposure and 160 mm during
// 1/30 s: the vision finds a disc, not a streak, only when the exposure is
// short. Blur is cheaper to prevent than to undo, so the camera sources
// ask for a short exposure where the camera allows it, and say what they
// got: docs/daemon.md lists the controls.

// DefaultExposure is the exposure asked of cameras (1/250 s).
const DefaultExposure = 4 * time.Millisecond

// Exposure is source.exposure: "auto" (the camera's automatic exposure),
// or an exposure time ("4ms", "2ms"); zero: DefaultExposure.
type Exposure struct {
	Auto bool
	D    time.Duration
}

// UnmarshalYAML reads "auto" or a duration.
func (e *Exposure) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("line %d: want auto or an exposure time such as 4ms", n.Line)
	}
	return e.Set(n.Value)
}

// Set parses "auto" or a duration (for flags and YAML).
func (e *Exposure) Set(s string) error {
	s = strings.TrimSpace(s)
	if strings.EqualFold(s, "auto") {
		*e = Exposure{Auto: true}
		return nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("%q is not an exposure (write auto, or a time such as 4ms or 2.5ms)", s)
	}
	*e = Exposure{D: d}
	return nil
}

// MarshalYAML writes the exposure as text.
func (e Exposure) MarshalYAML() (any, error) { return e.String(), nil }

func (e Exposure) String() string {
	if e.Auto {
		return "auto"
	}
	return e.Time().String()
}

// Time is the exposure to ask for (0 for auto).
func (e Exposure) Time() time.Duration {
	switch {
	case e.Auto:
		return 0
	case e.D == 0:
		return DefaultExposure
	}
	return e.D
}

// capProps is what the daemon sets and reads on an OpenCV VideoCapture
// (*gocv.VideoCapture implements it): tests record the calls.
type capProps interface {
	Set(prop gocv.VideoCaptureProperties, param float64)
	Get(prop gocv.VideoCaptureProperties) float64
}

// V4L2 values of OpenCV's CAP_PROP_AUTO_EXPOSURE, passed to the driver's
// exposure_auto control (V4L2_CID_EXPOSURE_AUTO) as they are.
const (
	v4l2ExposureManual           = 1 // V4L2_EXPOSURE_MANUAL
	v4l2ExposureAperturePriority = 3 // V4L2_EXPOSURE_APERTURE_PRIORITY (the webcams' automatic mode)
)

// configureV4L2 asks a V4L2 camera (through OpenCV's V4L2 backend) for the
// frame size, rate, pixel format and exposure of o, reads back what it
// took, and says so in words: what was applied, and what was not.
//
// OpenCV passes CAP_PROP_AUTO_EXPOSURE to the driver's exposure_auto
// control (1 manual, 3 aperture priority) and CAP_PROP_EXPOSURE to
// exposure_absolute, in units of 100 µs.
func configureV4L2(vc capProps, o CaptureOptions) (applied, missed []string) {
	if o.Format != "" {
		f := strings.ToUpper(o.Format)
		for len(f) < 4 {
			f += " "
		}
		code := float64(uint32(f[0]) | uint32(f[1])<<8 | uint32(f[2])<<16 | uint32(f[3])<<24)
		vc.Set(gocv.VideoCaptureFOURCC, code)
		if got := vc.Get(gocv.VideoCaptureFOURCC); got == code {
			applied = append(applied, "pixel format "+strings.TrimSpace(f))
		} else {
			missed = append(missed, fmt.Sprintf("pixel format %s (the camera keeps %s)", strings.TrimSpace(f), fourcc(got)))
		}
	}
	if o.Width > 0 {
		vc.Set(gocv.VideoCaptureFrameWidth, float64(o.Width))
	}
	if o.Height > 0 {
		vc.Set(gocv.VideoCaptureFrameHeight, float64(o.Height))
	}
	if o.Width > 0 || o.Height > 0 {
		w, h := int(vc.Get(gocv.VideoCaptureFrameWidth)), int(vc.Get(gocv.VideoCaptureFrameHeight))
		if (o.Width > 0 && w != o.Width) || (o.Height > 0 && h != o.Height) {
			missed = append(missed, fmt.Sprintf("size %d×%d (the camera gives %d×%d)", o.Width, o.Height, w, h))
		} else {
			applied = append(applied, fmt.Sprintf("size %d×%d", w, h))
		}
	}
	if o.FPS > 0 {
		vc.Set(gocv.VideoCaptureFPS, o.FPS)
		if got := vc.Get(gocv.VideoCaptureFPS); math.Abs(got-o.FPS) > 0.5 {
			missed = append(missed, fmt.Sprintf("%g fps (the camera gives %g: at high rates many USB cameras need format: mjpg)", o.FPS, got))
		} else {
			applied = append(applied, fmt.Sprintf("%g fps", got))
		}
	}
	if t := o.Exposure; t > 0 {
		units := math.Round(float64(t) / float64(100*time.Microsecond))
		vc.Set(gocv.VideoCaptureAutoExposure, v4l2ExposureManual)
		vc.Set(gocv.VideoCaptureExposure, units)
		mode, got := vc.Get(gocv.VideoCaptureAutoExposure), vc.Get(gocv.VideoCaptureExposure)
		switch {
		case mode != v4l2ExposureManual:
			missed = append(missed, fmt.Sprintf("exposure %s: the camera keeps its automatic exposure (mode %g); fast strokes may blur", t, mode))
		case got <= 0 || math.Abs(got-units) > math.Max(1, units/10):
			missed = append(missed, fmt.Sprintf("exposure %s: the camera took %s", t, time.Duration(got)*100*time.Microsecond))
		default:
			applied = append(applied, fmt.Sprintf("exposure %s (manual)", time.Duration(got)*100*time.Microsecond))
		}
	} else if o.ExposureAuto {
		vc.Set(gocv.VideoCaptureAutoExposure, v4l2ExposureAperturePriority)
		applied = append(applied, "automatic exposure")
	}
	return applied, missed
}

func fourcc(v float64) string {
	c := uint32(v)
	if c == 0 {
		return "its own"
	}
	return strings.TrimSpace(string([]byte{byte(c), byte(c >> 8), byte(c >> 16), byte(c >> 24)}))
}

// libcameraPipelines are the GStreamer pipelines that read a Raspberry Pi
// camera module through libcamerasrc, best first: libcamera exposes its
// controls as libcamerasrc properties since 0.3 (exposure-time in µs;
// from 0.5 it applies only with exposure-time-mode=manual; af-mode and
// lens-position for a camera with autofocus, Camera Module 3). A
// libcamera that lacks a property refuses the pipeline, so the source
// tries the next: first without the exposure mode, then without the
// exposure, then the same without the focus. camera names a camera (""
// the first).
func libcameraPipelines(camera string, o CaptureOptions) []string {
	p, _ := libcameraPipelineList(camera, o)
	return p
}

// libcameraPipelineList is libcameraPipelines with, for each pipeline, what
// it leaves out of what o asks.
func libcameraPipelineList(camera string, o CaptureOptions) (pipelines []string, omits [][]string) {
	src := "libcamerasrc"
	if camera != "" {
		src += fmt.Sprintf(" camera-name=%q", camera)
	}
	caps := "video/x-raw"
	if o.Width > 0 && o.Height > 0 {
		caps += fmt.Sprintf(",width=%d,height=%d", o.Width, o.Height)
	}
	if o.FPS > 0 {
		num, den := rational(o.FPS)
		caps += fmt.Sprintf(",framerate=%d/%d", num, den)
	}
	tail := " ! " + caps + " ! videoconvert ! video/x-raw,format=BGR ! appsink"
	type variant struct {
		props string
		omits []string
	}
	exposures := []variant{{}}
	if t := o.Exposure; t > 0 {
		us := t.Microseconds()
		exposures = []variant{
			{fmt.Sprintf(" exposure-time-mode=manual exposure-time=%d", us), nil},
			{fmt.Sprintf(" exposure-time=%d", us), nil},
			{"", []string{"exposure"}},
		}
	}
	focuses := []variant{{}}
	switch {
	case o.Focus.Continuous:
		focuses = []variant{{" af-mode=continuous", nil}, {"", []string{"focus"}}}
	case o.Focus.Given:
		focuses = []variant{{fmt.Sprintf(" af-mode=manual lens-position=%s", strconv.FormatFloat(o.Focus.Dioptres, 'f', -1, 64)), nil}, {"", []string{"focus"}}}
	}
	for _, f := range focuses {
		for _, e := range exposures {
			pipelines = append(pipelines, src+e.props+f.props+tail)
			omits = append(omits, append(append([]string(nil), e.omits...), f.omits...))
		}
	}
	return pipelines, omits
}

// Focus is source.focus, for a camera with a focus motor (Camera Module
// 3, through libcamera): a lens position in dioptres (1 / the distance in
// metres: 0.95 for a board 1.05 m below the lens; 0 is infinity), or
// continuous (autofocus that keeps refocusing: it may hunt when arms cross
// the picture). Unset: the camera's own setting.
type Focus struct {
	Given      bool
	Continuous bool
	Dioptres   float64
}

// UnmarshalYAML reads "continuous" or a number of dioptres.
func (f *Focus) UnmarshalYAML(n *yaml.Node) error {
	if err := f.Set(n.Value); n.Kind != yaml.ScalarNode || err != nil {
		return fmt.Errorf("line %d: want continuous or a lens position in dioptres (1 / distance in m, e.g. 0.95)", n.Line)
	}
	return nil
}

// Set parses a focus (also the flag's).
func (f *Focus) Set(s string) error {
	s = strings.TrimSpace(s)
	if s == "" {
		*f = Focus{}
		return nil
	}
	if strings.EqualFold(s, "continuous") {
		*f = Focus{Given: true, Continuous: true}
		return nil
	}
	d, err := strconv.ParseFloat(s, 64)
	if err != nil || d < 0 || d > 32 || math.IsNaN(d) {
		return fmt.Errorf("%q is not a focus (continuous, or a lens position of 0…32 dioptres)", s)
	}
	*f = Focus{Given: true, Dioptres: d}
	return nil
}

// MarshalYAML writes the focus as text.
func (f Focus) MarshalYAML() (any, error) { return f.String(), nil }

func (f Focus) String() string {
	switch {
	case !f.Given:
		return ""
	case f.Continuous:
		return "continuous"
	}
	return strconv.FormatFloat(f.Dioptres, 'f', -1, 64)
}

// rational writes a frame rate as a GStreamer fraction (29.97 → 30000/1001).
func rational(fps float64) (int, int) {
	if fps == math.Trunc(fps) {
		return int(fps), 1
	}
	for _, den := range []int{1001, 1000, 100} {
		if n := fps * float64(den); math.Abs(n-math.Round(n)) < 1e-6 || den == 100 {
			return int(math.Round(n)), den
		}
	}
	return int(math.Round(fps)), 1
}
