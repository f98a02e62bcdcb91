package eval

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/corpus"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/scene"
	"github.com/boardcam/boardcam/sight"
)

const videos = "../testdata/videos"

func truthOf(t *testing.T, name string) *corpus.Truth {
	t.Helper()
	p, err := corpus.FindTruth(videos, name)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := corpus.ReadTruth(p)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func score(t *testing.T, tr *corpus.Truth, p Pipeline) Metrics {
	t.Helper()
	m, err := ScoreTruth(tr, p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func val(t *testing.T, what string, v *float64) float64 {
	t.Helper()
	if v == nil {
		t.Fatalf("%s is undefined", what)
	}
	return *v
}

func failed(ts []Target, name string) bool {
	for _, t := range ts {
		if t.Name == name {
			return !t.Pass
		}
	}
	return true
}

// The assignment is optimal: it agrees with brute force on small random
// problems with forbidden pairs.
func TestAssignIsOptimal(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 300; trial++ {
		rows, cols := 1+r.IntN(5), 1+r.IntN(5)
		cost := make([][]float64, rows)
		for i := range cost {
			cost[i] = make([]float64, cols)
			for j := range cost[i] {
				cost[i][j] = math.Floor(r.Float64() * 10)
				if r.Float64() < 0.3 {
					cost[i][j] = math.Inf(1)
				}
			}
		}
		got := assign(cost, rows, cols)
		gn, gc := 0, 0.0
		used := map[int]bool{}
		for i, j := range got {
			if j < 0 {
				continue
			}
			if used[j] || math.IsInf(cost[i][j], 1) {
				t.Fatalf("invalid assignment %v of %v", got, cost)
			}
			used[j] = true
			gn++
			gc += cost[i][j]
		}
		bn, bc := bruteAssign(cost, rows, cols, 0, map[int]bool{})
		if gn != bn || math.Abs(gc-bc) > 1e-9 {
			t.Fatalf("cost %v: got %d pairs cost %v, best %d pairs cost %v", cost, gn, gc, bn, bc)
		}
	}
}

// bruteAssign returns the most pairs and, among those, the least cost.
func bruteAssign(cost [][]float64, rows, cols, i int, used map[int]bool) (int, float64) {
	if i == rows {
		return 0, 0
	}
	bn, bc := bruteAssign(cost, rows, cols, i+1, used)
	for j := 0; j < cols; j++ {
		if used[j] || math.IsInf(cost[i][j], 1) {
			continue
		}
		used[j] = true
		n, c := bruteAssign(cost, rows, cols, i+1, used)
		used[j] = false
		n++
		c += cost[i][j]
		if n > bn || (n == bn && c < bc) {
			bn, bc = n, c
		}
	}
	return bn, bc
}

// The truth itself scores perfectly on every figure.
func TestTruthScoresPerfectly(t *testing.T) {
	for _, name := range []string{"hand-over-pocket", "camera-knock", "arm-foul", "jump-overboard"} {
		m := score(t, truthOf(t, name), &Oracle{})
		if m.DetectionRecall != 1 || m.DetectionPrecision != 1 || m.ClassificationAccuracy != 1 ||
			m.DetectionRecallAll != 1 || m.DetectionPrecisionAll != 1 || m.CalibrationCoverage != 1 {
			t.Errorf("%s: %+v", name, m)
		}
		if val(t, "corner error", m.CalibrationCornerErrPxMean) != 0 || val(t, "position error", m.PositionErrMMMean) != 0 ||
			val(t, "p95", m.PositionErrMMP95) != 0 || m.IDSwitches != 0 || m.PocketUnderHand != 0 {
			t.Errorf("%s: errors %+v", name, m)
		}
		for k, s := range m.Events {
			if s.F1 != 1 || s.F1Within2 != 1 || val(t, k+" timing", s.TimingErrFramesMean) != 0 {
				t.Errorf("%s: event %s %+v", name, k, s)
			}
		}
		for k, s := range m.Fouls {
			if s.F1 != 1 {
				t.Errorf("%s: foul %s %+v", name, k, s)
			}
		}
		if m.Counts.VisibleAtRest == 0 || len(m.Events) == 0 {
			t.Errorf("%s: nothing was measured: %+v", name, m.Counts)
		}
	}
}

// The pipeline that sees nothing reads zero, and its errors are undefined,
// not perfect: every target fails.
func TestNoneReadsZero(t *testing.T) {
	m := score(t, truthOf(t, "camera-knock"), None{})
	if m.DetectionRecall != 0 || m.DetectionPrecision != 0 || m.ClassificationAccuracy != 0 || m.CalibrationCoverage != 0 {
		t.Errorf("%+v", m)
	}
	if m.CalibrationCornerErrPxMean != nil || m.PositionErrMMMean != nil || m.PositionErrMMP95 != nil {
		t.Error("an error figure is defined with nothing measured")
	}
	if s := m.Events["pocketed"]; s.Truth != 1 || s.F1 != 0 || val(t, "recall", s.Recall) != 0 {
		t.Errorf("pocketed %+v", s)
	}
	for _, tg := range Targets(m) {
		if tg.Pass {
			t.Errorf("target %s passes for a pipeline that sees nothing", tg.Name)
		}
	}
}

// Positions 3 mm off: still matched (the gate is 7.95 mm), but the error
// reads 3 mm and the 1 mm target fails.
func TestShiftedPositionsFailTheTarget(t *testing.T) {
	shift := &Oracle{Mutate: func(c *Clip, f int, out *Output) {
		for i := range out.Pieces {
			out.Pieces[i].MM = out.Pieces[i].MM.Add(board.V(3, 0))
		}
	}}
	m := score(t, truthOf(t, "camera-knock"), shift)
	if e := val(t, "mean", m.PositionErrMMMean); math.Abs(e-3) > 1e-3 {
		t.Errorf("mean error %v, want 3", e)
	}
	if m.DetectionRecall != 1 || m.DetectionPrecision != 1 {
		t.Errorf("recall %v precision %v", m.DetectionRecall, m.DetectionPrecision)
	}
	ts := Targets(m)
	if !failed(ts, "position_err_mm_mean") || !failed(ts, "position_err_mm_p95") {
		t.Error("a 3 mm error meets the position targets")
	}
	// Beyond the gate a detection no longer matches: a miss and a false
	// positive.
	far := &Oracle{Mutate: func(c *Clip, f int, out *Output) {
		if len(out.Pieces) > 0 {
			out.Pieces[0].MM = out.Pieces[0].MM.Add(board.V(8.5, 0))
		}
	}}
	m = score(t, truthOf(t, "camera-knock"), far)
	if m.DetectionRecallAll >= 1 || m.DetectionPrecisionAll >= 1 || m.Counts.FalsePositives != m.Frames {
		t.Errorf("8.5 mm off still matched: %+v", m.Counts)
	}
}

// Whites reported as blacks: classification falls, detection does not.
func TestSwappedClasses(t *testing.T) {
	swap := &Oracle{Mutate: func(c *Clip, f int, out *Output) {
		for i := range out.Pieces {
			switch out.Pieces[i].Kind {
			case board.White:
				out.Pieces[i].Kind = board.Black
			case board.Black:
				out.Pieces[i].Kind = board.White
			}
		}
	}}
	m := score(t, truthOf(t, "hand-over-pocket"), swap)
	// Two of the five discs on the board are white, two black.
	if m.ClassificationAccuracy > 0.25 || m.ClassificationAccuracy == 0 || m.DetectionRecall != 1 {
		t.Errorf("classification %v recall %v", m.ClassificationAccuracy, m.DetectionRecall)
	}
	if !failed(Targets(m), "classification_accuracy") {
		t.Error("swapped classes meet the classification target")
	}
}

// Dropping every third piece lowers recall, not precision.
func TestDroppedPieces(t *testing.T) {
	drop := &Oracle{Mutate: func(c *Clip, f int, out *Output) {
		var keep []Piece
		for i, p := range out.Pieces {
			if i%3 != 0 {
				keep = append(keep, p)
			}
		}
		out.Pieces = keep
	}}
	m := score(t, truthOf(t, "jump-overboard"), drop)
	if m.DetectionRecall > 0.7 || m.DetectionRecall < 0.6 || m.DetectionPrecision != 1 {
		t.Errorf("recall %v precision %v", m.DetectionRecall, m.DetectionPrecision)
	}
	if !failed(Targets(m), "detection_recall") || failed(Targets(m), "detection_precision") {
		t.Error("targets")
	}
}

// Pockets reported 5 frames late still match within the ±5 window, with a
// timing error of 5, but fail the within-2-frames target.
func TestLatePockets(t *testing.T) {
	tr := truthOf(t, "camera-knock")
	var held []events.Event
	late := &Oracle{Mutate: func(c *Clip, f int, out *Output) {
		var rest []events.Event
		for _, e := range out.Events {
			if e.Type == events.Pocketed {
				e.Frame += 5
				held = append(held, e)
			} else {
				rest = append(rest, e)
			}
		}
		for _, e := range held {
			if e.Frame == f {
				rest = append(rest, e)
			}
		}
		out.Events = rest
	}}
	m := score(t, tr, late)
	s := m.Events["pocketed"]
	if s.F1 != 1 || val(t, "timing", s.TimingErrFramesMean) != 5 || s.F1Within2 != 0 {
		t.Errorf("pocketed %+v", s)
	}
	if !failed(Targets(m), "events.pocketed.f1_2frames") {
		t.Error("late pockets meet the 2-frame target")
	}
	// In the wrong pocket they do not match at all.
	wrong := &Oracle{Mutate: func(c *Clip, f int, out *Output) {
		for i, e := range out.Events {
			if e.Type == events.Pocketed {
				out.Events[i].Pocket = events.PocketPtr((*e.Pocket + 1) % 4)
			}
		}
	}}
	if s := score(t, tr, wrong).Events["pocketed"]; s.Matched != 0 || s.F1 != 0 {
		t.Errorf("wrong pocket matched: %+v", s)
	}
}

// Two discs at rest trading tracker identities half way through the clip
// count as identity switches.
func TestSwappedIDs(t *testing.T) {
	tr := truthOf(t, "hand-over-pocket")
	half := tr.Clip.Frames / 2
	swap := &Oracle{Mutate: func(c *Clip, f int, out *Output) {
		if f < half {
			return
		}
		for i := range out.Pieces {
			switch out.Pieces[i].ID {
			case "W2":
				out.Pieces[i].ID = "B2"
			case "B2":
				out.Pieces[i].ID = "W2"
			}
		}
	}}
	m := score(t, tr, swap)
	if m.IDSwitches != 2 || m.IDSwitchesAll != 2 {
		t.Errorf("id switches %d (all %d), want 2", m.IDSwitches, m.IDSwitchesAll)
	}
	if !failed(Targets(m), "id_switches") {
		t.Error("swapped identities meet the target")
	}
}

// A man pocketed and put back may come back under any free identity of
// his colour (the tracker cannot know which man the umpire picked up):
// that is no identity switch; trading identities on the board still is.
func TestReturnedManNewIdentity(t *testing.T) {
	tr := truthOf(t, "demo")
	placed := -1
	for _, e := range tr.Events {
		if e.Type == events.Placed && e.ID == "W1" {
			placed = e.Frame
			break
		}
	}
	if placed < 0 {
		t.Fatal("no placed W1 in the demo's truth")
	}
	renamed := &Oracle{Mutate: func(c *Clip, f int, out *Output) {
		for i := range out.Pieces {
			if f >= placed && out.Pieces[i].ID == "W1" {
				out.Pieces[i].ID = "W7"
			}
		}
	}}
	if m := score(t, tr, renamed); m.IDSwitches != 0 || m.IDSwitchesAll != 0 {
		t.Errorf("a returned man under a new identity: %d id switches (all %d), want 0", m.IDSwitches, m.IDSwitchesAll)
	}
	swapped := &Oracle{Mutate: func(c *Clip, f int, out *Output) {
		for i := range out.Pieces {
			if f < placed {
				continue
			}
			switch out.Pieces[i].ID {
			case "B2":
				out.Pieces[i].ID = "B3"
			case "B3":
				out.Pieces[i].ID = "B2"
			}
		}
	}}
	if m := score(t, tr, swapped); m.IDSwitchesAll < 2 {
		t.Errorf("two men trading identities on the board: %d id switches (all states), want ≥ 2", m.IDSwitchesAll)
	}
}

// A pocketing reported for a man hidden under the hand over the NE pocket
// is a false positive, counted as pocket_under_hand.
func TestPocketUnderHand(t *testing.T) {
	tr := truthOf(t, "hand-over-pocket")
	hidden := -1
	for _, fr := range tr.Frames {
		for _, d := range fr.Discs {
			if d.ID == "W1" && d.State == scene.Rest && d.Hand >= 0.5 {
				hidden = fr.I
				break
			}
		}
		if hidden >= 0 {
			break
		}
	}
	if hidden < 0 {
		t.Fatal("no frame hides W1")
	}
	ghost := &Oracle{Mutate: func(c *Clip, f int, out *Output) {
		if f == hidden+3 {
			out.Events = append(out.Events, events.Event{Type: events.Pocketed, Frame: f, T: float64(f) / 30,
				Piece: events.KindPtr(board.White), ID: "W1", Pocket: events.PocketPtr(board.NE)})
		}
	}}
	m := score(t, tr, ghost)
	if m.PocketUnderHand != 1 {
		t.Errorf("pocket_under_hand %d, want 1", m.PocketUnderHand)
	}
	if s := m.Events["pocketed"]; s.Reported != 1 || s.Matched != 0 || s.Precision != 0 {
		t.Errorf("pocketed %+v", s)
	}
	if !failed(Targets(m), "pocket_under_hand") {
		t.Error("target met")
	}
	// The same false pocketing far from any hand is a plain false positive.
	other := &Oracle{Mutate: func(c *Clip, f int, out *Output) {
		if f == 2 {
			out.Events = append(out.Events, events.Event{Type: events.Pocketed, Frame: f, Piece: events.KindPtr(board.White), ID: "W2", Pocket: events.PocketPtr(board.SW)})
		}
	}}
	if m := score(t, tr, other); m.PocketUnderHand != 0 || m.Events["pocketed"].Reported != 1 {
		t.Errorf("pocket_under_hand %d", m.PocketUnderHand)
	}
}

// A pipeline that emits the true events but no fouls gets its fouls from
// the referee (Refereed), which then match the truth; fouls of the wrong
// seat or code do not.
func TestRefereedFouls(t *testing.T) {
	tr := truthOf(t, "arm-foul")
	noFouls := &Oracle{Mutate: func(c *Clip, f int, out *Output) {
		if f < 0 {
			out.Fouls = nil
		}
	}}
	m := score(t, tr, noFouls)
	if s := m.Fouls["hand_over_foul_line"]; s.Truth != 1 || s.Matched != 0 {
		t.Errorf("without the referee: %+v", s)
	}
	m = score(t, tr, Refereed(noFouls))
	if s := m.Fouls["hand_over_foul_line"]; s.Truth != 1 || s.Matched != 1 || s.F1 != 1 {
		t.Errorf("refereed: %+v", m.Fouls)
	}
	wrongSeat := &Oracle{Mutate: func(c *Clip, f int, out *Output) {
		for i := range out.Fouls {
			out.Fouls[i].Seat = board.E
		}
	}}
	if s := score(t, tr, wrongSeat).Fouls["hand_over_foul_line"]; s.Matched != 0 || s.F1 != 0 {
		t.Errorf("wrong seat matched: %+v", s)
	}
}

// fakeVideo yields n blank pictures of w×h: the harness's path (file
// checks, frame sizes and count) without a decoder.
type fakeVideo struct {
	n, w, h int
	img     fakeImage
}

type fakeImage struct{ w, h int }

func (f *fakeImage) Rows() int    { return f.h }
func (f *fakeImage) Cols() int    { return f.w }
func (f *fakeImage) Empty() bool  { return f.w == 0 }
func (f *fakeImage) Close() error { return nil }

func (v *fakeVideo) Read() (sight.Image, bool) {
	if v.n == 0 {
		return nil, false
	}
	v.n--
	v.img = fakeImage{v.w, v.h}
	return &v.img, true
}
func (v *fakeVideo) Err() error   { return nil }
func (v *fakeVideo) Close() error { return nil }

// Run drives the whole path with a decoder that yields the truth's frame
// count and size: the truth pipeline scores perfectly; a wrong size or
// count is an error; no decoder is an error. (vision/analysis decodes the
// committed videos with OpenCV through the same path.)
func TestRunThroughAVideoDecoder(t *testing.T) {
	files, err := TruthFiles([]string{filepath.Join(videos, "arm-foul.mp4"), filepath.Join(videos, "placement-cut-moon.truth.json")})
	if err != nil {
		t.Fatal(err)
	}
	opener := func(dw, dn int) VideoOpener {
		return func(path string) (Video, error) {
			for _, f := range files {
				tr, err := corpus.ReadTruth(f)
				if err != nil {
					return nil, err
				}
				if filepath.Join(filepath.Dir(f), tr.Clip.Video) == path {
					return &fakeVideo{n: tr.Clip.Frames + dn, w: tr.Clip.Width + dw, h: tr.Clip.Height}, nil
				}
			}
			return nil, fmt.Errorf("no truth for %s", path)
		}
	}
	rep, err := Run(context.Background(), files, Refereed(&Oracle{}), Options{Video: opener(0, 0)})
	if err != nil {
		t.Fatal(err)
	}
	s := rep.Summary
	if s.Clips != 2 || s.Frames == 0 || s.DetectionRecall != 1 || s.DetectionPrecision != 1 || val(t, "corners", s.CalibrationCornerErrPxMean) != 0 {
		t.Errorf("summary %+v", s)
	}
	if len(rep.Clips) != 2 || rep.Clips[0].Name != "arm-foul" || rep.Clips[0].Frames != truthOf(t, "arm-foul").Clip.Frames {
		t.Errorf("clips %+v", rep.Clips)
	}
	if s.Fouls["cut_moon"].F1 != 1 || s.Fouls["hand_over_foul_line"].F1 != 1 {
		t.Errorf("fouls %+v", s.Fouls)
	}
	for _, c := range []struct {
		name   string
		opt    Options
		errHas string
	}{
		{"wider frames", Options{Video: opener(2, 0)}, "the truth says"},
		{"a frame short", Options{Video: opener(0, -1)}, "decoded"},
		{"a frame more", Options{Video: opener(0, 1)}, "more frames than its truth"},
		{"no decoder", Options{}, "no video decoder"},
	} {
		rep, err := Run(context.Background(), files[:1], Refereed(&Oracle{}), c.opt)
		if err != nil && rep != nil && len(rep.Clips) == 1 {
			err = fmt.Errorf("%w: %s", err, rep.Clips[0].Error) // the clip's own error
		}
		if err == nil || !strings.Contains(err.Error(), c.errHas) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.errHas)
		}
	}
}

// The striker's first contact of every stroke is scored on its own: the
// truth perfect, a wrong first object a miss.
func TestFirstContact(t *testing.T) {
	tr := truthOf(t, "demo")
	m := score(t, tr, &Oracle{})
	fc, ok := m.Events[string(FirstContact)]
	if !ok || fc.Truth == 0 || fc.Matched != fc.Truth || fc.F1 != 1 {
		t.Fatalf("perfect pipeline: first_contact %+v", fc)
	}
	wrong := &Oracle{Mutate: func(c *Clip, f int, out *Output) {
		for i, e := range out.Events {
			if e.Type == events.Contact && e.A == "S" {
				out.Events[i].B = "frame"
			} else if e.Type == events.Contact && e.B == "S" {
				out.Events[i].A = "frame"
			}
		}
	}}
	if w := score(t, tr, wrong).Events[string(FirstContact)]; w.Matched != 0 || w.Truth != fc.Truth {
		t.Errorf("every first contact on the frame instead: %+v", w)
	}
}

// A placement matches within half a second (the camera sees the man only
// once the hand has gone), not later.
func TestPlacedWindow(t *testing.T) {
	tr := truthOf(t, "demo")
	late := func(frames int) *Oracle {
		return &Oracle{Mutate: func(c *Clip, f int, out *Output) {
			for i, e := range out.Events {
				if e.Type == events.Placed {
					out.Events[i].Frame += frames
				}
			}
		}}
	}
	fps := tr.Clip.FPS
	if p := score(t, tr, late(int(0.4*float64(fps)))).Events["placed"]; p.Truth == 0 || p.Matched != p.Truth {
		t.Errorf("placed 0.4 s late: %+v, want every one matched", p)
	}
	if p := score(t, tr, late(int(0.7*float64(fps)))).Events["placed"]; p.Matched != 0 {
		t.Errorf("placed 0.7 s late: %+v, want none matched", p)
	}
}
