package eval

import (
	"fmt"
	"sort"
	"sync"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/camera"
	"github.com/boardcam/boardcam/corpus"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/sight"
)

// Clip is what a pipeline is told about a clip before its first frame: the
// configuration a club would give the daemon (board, frame rate, seating),
// never the truth.
type Clip struct {
	Name          string
	Video         string // the video file
	FPS           int
	Width, Height int
	Frames        int
	// Geometry is the board (from the clip's board file, else ICF).
	Geometry *board.Geometry
	// Referee is how the clip's events are refereed (rules, seats,
	// match context), for pipelines that referee their own events.
	Referee corpus.RefereeSetup
	// SouthAt is the installation's orientation: the image side nearest
	// board side S, as a club configures it when it mounts the camera
	// (calibrate --south-at). "" when not configured: the pipeline then
	// infers the orientation itself.
	SouthAt camera.Direction
	// Lens is the camera's lens model from the clip's lens file (what a
	// club's lens.json holds: fitted to chessboard photos, see
	// `boardcam synth --lens`); nil when there is none. LensFile is the
	// file.
	Lens     *camera.Lens
	LensFile string
	// Calibration says where the pipeline's calibration comes from. With
	// CalibrationTruth (a diagnostic) TrueCalibration is the first
	// frame's true calibration and every Frame carries its own; the
	// pipeline must use them instead of finding the board.
	Calibration     CalibrationSource
	TrueCalibration *camera.Calibration

	truth    *corpus.Truth         // for the oracle pipelines of the harness's own tests
	trueCals []*camera.Calibration // per camera entry, with CalibrationTruth
}

// Frame is one decoded video frame.
type Frame struct {
	Index int
	T     float64 // seconds: Index / fps
	// Image is the decoded picture (an OpenCV *gocv.Mat from the decoder
	// cmd/boardcam gives; nil when scoring the truth without a video).
	Image sight.Image
	// Calibration is the frame's true calibration with CalibrationTruth
	// (the diagnostic), nil otherwise. It is the same pointer for every
	// frame while the camera does not move.
	Calibration *camera.Calibration
}

// Piece is one disc the pipeline reports in a frame.
type Piece struct {
	Kind board.Kind `json:"piece"`
	// MM is the disc's centre on the board (mm) and PX in the image (px).
	MM board.Vec  `json:"mm"`
	PX [2]float64 `json:"px"`
	// ID is the tracker's identity (W1…W9, B1…B9, Q, S; "" when the
	// pipeline does not track).
	ID string `json:"id,omitempty"`
	// Occluded marks a piece the tracker keeps where it was last seen
	// because something hides it: not a detection, so detection metrics
	// skip it.
	Occluded bool `json:"occluded,omitempty"`
}

// Foul is a foul the pipeline (or the referee over its events) called.
type Foul = corpus.Foul

// Output is what a pipeline says about one frame.
type Output struct {
	// Corners are the playing surface's corners in image pixels (NW, NE,
	// SE, SW = top-left, top-right, bottom-right, bottom-left) when the
	// pipeline is calibrated; nil otherwise.
	Corners *[4][2]float64
	// Pieces are the discs seen in this frame.
	Pieces []Piece
	// Events are the physical events emitted while processing this frame
	// (their Frame field says which frame they are about).
	Events []events.Event
	// Fouls are fouls called (their Frame says which frame they are about).
	Fouls []Foul
}

// Pipeline is the vision pipeline as the harness drives it: Begin once per
// clip, Frame for every frame in order, End after the last frame (for
// events and fouls still pending). A pipeline is used for one clip at a
// time and may be reused for the next after End.
type Pipeline interface {
	Name() string
	Begin(c Clip) error
	Frame(f Frame) (Output, error)
	End() (Output, error)
}

// Factory makes a pipeline.
type Factory func() (Pipeline, error)

var (
	regMu    sync.Mutex
	registry = map[string]Factory{
		"none":  func() (Pipeline, error) { return None{}, nil },
		"truth": func() (Pipeline, error) { return &Oracle{}, nil },
	}
)

// DefaultPipeline is the name under which the real vision pipeline
// registers itself; `boardcam eval` uses it when it is registered and
// "none" otherwise.
const DefaultPipeline = "vision"

// Register makes a pipeline available by name (for `boardcam eval
// --pipeline NAME`). The real pipeline registers as [DefaultPipeline].
func Register(name string, f Factory) {
	regMu.Lock()
	defer regMu.Unlock()
	if _, dup := registry[name]; dup {
		panic("eval: pipeline registered twice: " + name)
	}
	registry[name] = f
}

// New makes the pipeline registered as name.
func New(name string) (Pipeline, error) {
	regMu.Lock()
	f, ok := registry[name]
	regMu.Unlock()
	if !ok {
		return nil, fmt.Errorf("eval: no pipeline %q (have %v)", name, Names())
	}
	return f()
}

// Registered reports whether a pipeline of that name exists.
func Registered(name string) bool {
	regMu.Lock()
	defer regMu.Unlock()
	_, ok := registry[name]
	return ok
}

// Names lists the registered pipelines.
func Names() []string {
	regMu.Lock()
	defer regMu.Unlock()
	var out []string
	for n := range registry {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// None is the pipeline that sees nothing: every rate reads zero and every
// error is undefined. It stands in until the vision pipeline exists.
type None struct{}

// Name implements Pipeline.
func (None) Name() string { return "none" }

// Begin implements Pipeline.
func (None) Begin(Clip) error { return nil }

// Frame implements Pipeline.
func (None) Frame(Frame) (Output, error) { return Output{}, nil }

// End implements Pipeline.
func (None) End() (Output, error) { return Output{}, nil }

// Oracle is a pipeline that reports the ground truth itself: the true
// corners, every visible disc with its true identity, the true events at
// their frames and the true fouls. Mutate, when set, changes each frame's
// output (and, with frame -1, the output of End) — the deliberately wrong
// pipelines that test the harness. With Mutate nil it must score perfectly;
// `boardcam eval --pipeline truth` checks the harness and the decoding of
// the corpus that way.
type Oracle struct {
	Mutate func(c *Clip, frame int, out *Output)
	clip   Clip
}

// Name implements Pipeline.
func (o *Oracle) Name() string { return "truth" }

// Begin implements Pipeline.
func (o *Oracle) Begin(c Clip) error {
	if c.truth == nil {
		return fmt.Errorf("eval: the truth pipeline needs the clip's truth")
	}
	o.clip = c
	return nil
}

// Frame implements Pipeline.
func (o *Oracle) Frame(f Frame) (Output, error) {
	t := o.clip.truth
	if f.Index < 0 || f.Index >= len(t.Frames) {
		return Output{}, fmt.Errorf("eval: truth: no frame %d", f.Index)
	}
	var out Output
	if cam := t.Camera(f.Index); cam != nil {
		c := cam.CornersPx
		out.Corners = &c
	}
	for _, d := range t.Frames[f.Index].Discs {
		if !d.Visible(t.Clip.Width, t.Clip.Height) {
			continue
		}
		px, _ := d.Pixel()
		out.Pieces = append(out.Pieces, Piece{Kind: d.Kind, MM: d.Pos(), PX: px, ID: d.ID})
	}
	for _, e := range t.Events {
		if e.Frame == f.Index {
			out.Events = append(out.Events, e)
		}
	}
	if o.Mutate != nil {
		o.Mutate(&o.clip, f.Index, &out)
	}
	return out, nil
}

// End implements Pipeline.
func (o *Oracle) End() (Output, error) {
	var out Output
	if j := o.clip.truth.Judgement; j != nil {
		out.Fouls = append(out.Fouls, j.Fouls...)
	}
	if o.Mutate != nil {
		o.Mutate(&o.clip, -1, &out)
	}
	return out, nil
}

// Truth returns the clip's truth (for the Mutate functions of tests).
func (c *Clip) Truth() *corpus.Truth { return c.truth }

// Refereed wraps a pipeline that emits physical events but calls no
// fouls: at the end of each clip it referees the pipeline's events with
// the clip's referee setup (the camera tolerances of referee.DefaultConfig)
// and reports the fouls. A pipeline that called fouls itself keeps its own.
func Refereed(p Pipeline) Pipeline { return &refereed{Pipeline: p} }

type refereed struct {
	Pipeline
	clip  Clip
	evs   []events.Event
	fouls bool
}

func (r *refereed) Begin(c Clip) error {
	r.clip, r.evs, r.fouls = c, nil, false
	return r.Pipeline.Begin(c)
}

func (r *refereed) Frame(f Frame) (Output, error) {
	out, err := r.Pipeline.Frame(f)
	r.evs = append(r.evs, out.Events...)
	r.fouls = r.fouls || len(out.Fouls) > 0
	return out, err
}

func (r *refereed) End() (Output, error) {
	out, err := r.Pipeline.End()
	if err != nil {
		return out, err
	}
	r.evs = append(r.evs, out.Events...)
	if r.fouls || len(out.Fouls) > 0 {
		return out, nil
	}
	cfg, err := r.clip.Referee.RefereeConfig(r.clip.Geometry, false)
	if err != nil {
		return out, fmt.Errorf("eval: referee: %w", err)
	}
	var valid []events.Event
	for _, e := range r.evs {
		if e.Validate() == nil {
			valid = append(valid, e)
		}
	}
	j, err := r.clip.Referee.Judge(valid, cfg)
	if err != nil {
		return out, fmt.Errorf("eval: referee: %w", err)
	}
	out.Fouls = j.Fouls
	return out, nil
}
