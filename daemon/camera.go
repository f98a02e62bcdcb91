package daemon

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

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
