package eval

import (
	"math"
	"sort"
	"strings"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/corpus"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/foul"
	"github.com/boardcam/boardcam/scene"
)

// Defaults of [Options].
const (
	// DefaultEventWindow: a reported event matches a true one of the same
	// type and attributes at most this many frames away.
	DefaultEventWindow = 5
	// TightWindow is the window of the *_2frames figures (the targets ask
	// for pockets within 2 frames).
	TightWindow = 2
	// DefaultFoulWindow (seconds): fouls match within this time, or within
	// the event window if that is longer.
	DefaultFoulWindow = 0.5
	// HandEventWindow (seconds): placed and moved events match within this
	// time, or within the event window if that is longer. The truth stamps
	// the moment the hand lets go of the piece; a camera sees the piece
	// only once the hand has lifted off it and moved away.
	HandEventWindow = 0.5
	// DefaultGate is the largest distance between a detection and a true
	// disc that can be matched, as a fraction of a man's radius.
	DefaultGate = 0.5
)

// scoredTypes are the physical event types compared with the truth.
// calibrated and recalibrated have no counterpart in the truth (the camera
// truth is compared frame by frame instead).
var scoredTypes = map[events.Type]bool{
	events.StrokeStart: true, events.FrontLineCrossed: true, events.Contact: true, events.Pocketed: true,
	events.Overboard: true, events.StrokeEnd: true, events.Placed: true, events.Moved: true, events.ArmOverFoulLine: true,
}

// counts are the raw tallies of one clip (or of several, added up).
type counts struct {
	frames        int
	frames720     int
	cornerFrames  int
	cornerErr     float64 // sum over frames of the mean corner error
	cornerFrames7 int     // the same over 720p clips
	cornerErr7    float64
	restTP        int
	restFN        int
	allTP         int
	allFN         int
	fpRest        int // unmatched detections (false positives)
	detections    int
	classOK       int
	classN        int
	posRest       []float64
	posMoving     []float64
	idSw          int
	idSwAll       int
	tracked       int // matched visible discs reported with an identity
	events        map[string]*typeCounts
	fouls         map[string]*typeCounts
	underHand     int
	pipeSeconds   float64
	pipeFrames    int
}

type typeCounts struct {
	truth, reported, tp, tp2 int
	diffs                    []int
}

func newCounts() *counts {
	return &counts{events: map[string]*typeCounts{}, fouls: map[string]*typeCounts{}}
}

func (c *counts) add(o *counts) {
	c.frames += o.frames
	c.frames720 += o.frames720
	c.cornerFrames += o.cornerFrames
	c.cornerErr += o.cornerErr
	c.cornerFrames7 += o.cornerFrames7
	c.cornerErr7 += o.cornerErr7
	c.restTP += o.restTP
	c.restFN += o.restFN
	c.allTP += o.allTP
	c.allFN += o.allFN
	c.fpRest += o.fpRest
	c.detections += o.detections
	c.classOK += o.classOK
	c.classN += o.classN
	c.posRest = append(c.posRest, o.posRest...)
	c.posMoving = append(c.posMoving, o.posMoving...)
	c.idSw += o.idSw
	c.idSwAll += o.idSwAll
	c.tracked += o.tracked
	c.underHand += o.underHand
	c.pipeSeconds += o.pipeSeconds
	c.pipeFrames += o.pipeFrames
	for _, m := range []struct{ dst, src map[string]*typeCounts }{{c.events, o.events}, {c.fouls, o.fouls}} {
		for k, v := range m.src {
			d := m.dst[k]
			if d == nil {
				d = &typeCounts{}
				m.dst[k] = d
			}
			d.truth += v.truth
			d.reported += v.reported
			d.tp += v.tp
			d.tp2 += v.tp2
			d.diffs = append(d.diffs, v.diffs...)
		}
	}
}

// scorer compares one clip's pipeline output with its truth.
type scorer struct {
	t        *corpus.Truth
	g        *board.Geometry
	opt      Options
	gate     float64
	c        *counts
	lastID   map[string]string
	reported []events.Event
	fouls    []Foul
}

func newScorer(t *corpus.Truth, g *board.Geometry, opt Options) *scorer {
	c := newCounts()
	if g == nil {
		g = board.ICF()
	}
	return &scorer{t: t, g: g, opt: opt, gate: opt.Gate * t.Clip.ManRadius, c: c, lastID: map[string]string{}}
}

// frame scores the output of frame i.
func (s *scorer) frame(i int, out Output) {
	t, c := s.t, s.c
	w, h := t.Clip.Width, t.Clip.Height
	c.frames++
	if h == 720 {
		c.frames720++
	}
	if out.Corners != nil {
		if cam := t.Camera(i); cam != nil {
			var e float64
			for k := range 4 {
				e += math.Hypot(out.Corners[k][0]-cam.CornersPx[k][0], out.Corners[k][1]-cam.CornersPx[k][1])
			}
			c.cornerFrames++
			c.cornerErr += e / 4
			if h == 720 {
				c.cornerFrames7++
				c.cornerErr7 += e / 4
			}
		}
	}
	s.reported = append(s.reported, out.Events...)
	s.fouls = append(s.fouls, out.Fouls...)

	// Detections ↔ true discs on the board (or held over it).
	var dets []Piece
	for _, p := range out.Pieces {
		if !p.Occluded {
			dets = append(dets, p)
		}
	}
	c.detections += len(dets)
	var discs []corpus.DiscTruth
	for _, d := range t.Frames[i].Discs {
		if d.State.OnBoard() || d.State == scene.Held {
			discs = append(discs, d)
		} else {
			// Off the board (pocketed, overboard): a man put back may take
			// any free identity of his colour, which is no switch.
			delete(s.lastID, d.ID)
		}
	}
	cost := make([][]float64, len(discs))
	for a, d := range discs {
		cost[a] = make([]float64, len(dets))
		for b, p := range dets {
			dist := d.Pos().Dist(p.MM)
			if dist > s.gate {
				dist = math.Inf(1)
			}
			cost[a][b] = dist
		}
	}
	match := assign(cost, len(discs), len(dets))
	matched := make([]bool, len(dets))
	for a, d := range discs {
		b := match[a]
		if b >= 0 {
			matched[b] = true
		}
		if !d.Visible(w, h) {
			continue // hidden or held: neither a miss nor a hit
		}
		rest := d.State == scene.Rest
		if b < 0 {
			c.allFN++
			if rest {
				c.restFN++
			}
			continue
		}
		p := dets[b]
		c.allTP++
		c.classN++
		if p.Kind == d.Kind {
			c.classOK++
		}
		e := d.Pos().Dist(p.MM)
		if rest {
			c.restTP++
			c.posRest = append(c.posRest, e)
		} else {
			c.posMoving = append(c.posMoving, e)
		}
		if p.ID != "" {
			c.tracked++
			if prev := s.lastID[d.ID]; prev != "" && prev != p.ID {
				c.idSwAll++
				if rest {
					c.idSw++
				}
			}
			s.lastID[d.ID] = p.ID
		}
	}
	for b := range dets {
		if !matched[b] {
			c.fpRest++
		}
	}
}

// finish scores the events and fouls once the clip is over.
func (s *scorer) finish(end Output) *counts {
	t, c := s.t, s.c
	s.reported = append(s.reported, end.Events...)
	s.fouls = append(s.fouls, end.Fouls...)
	// Events by type.
	byType := map[events.Type][2][]item{}
	var repPocketed []events.Event
	for k, list := range [2][]events.Event{t.Events, s.reported} {
		for _, e := range list {
			if !scoredTypes[e.Type] {
				continue
			}
			v := byType[e.Type]
			v[k] = append(v[k], item{e.Frame, eventKey(e)})
			byType[e.Type] = v
			if k == 1 && e.Type == events.Pocketed {
				repPocketed = append(repPocketed, e)
			}
		}
	}
	// The striker's first contact of each stroke: what the referee judges
	// by (the truth's contacts also list every touch inside a pack).
	if fc := [2][]item{firstContacts(t.Events), firstContacts(s.reported)}; len(fc[0])+len(fc[1]) > 0 {
		byType[FirstContact] = fc
	}
	for typ, v := range byType {
		tc := &typeCounts{truth: len(v[0]), reported: len(v[1])}
		var matchedR []bool
		w := s.opt.EventWindow
		if typ == events.Placed || typ == events.Moved {
			w = max(w, int(math.Round(HandEventWindow*float64(t.Clip.FPS))))
		}
		tc.tp, tc.diffs, matchedR = matchItems(v[0], v[1], w)
		tc.tp2, _, _ = matchItems(v[0], v[1], TightWindow)
		c.events[string(typ)] = tc
		if typ == events.Pocketed {
			for j, e := range repPocketed {
				if !matchedR[j] && s.underHand(e) {
					c.underHand++
				}
			}
		}
	}
	// Fouls by code; the seat must agree; the window is the foul's own
	// (foul.Score) or the option's.
	window := func(code string) int {
		w := s.opt.FoulWindow
		if d, ok := foul.Lookup(foul.Code(code)); ok && d.Camera != nil && d.Camera.Score.Window > 0 {
			w = d.Camera.Score.Window
		}
		return max(s.opt.EventWindow, int(math.Round(w*float64(t.Clip.FPS))))
	}
	byFoul := map[string][2][]item{}
	var truthFouls []Foul
	if t.Judgement != nil {
		truthFouls = t.Judgement.Fouls
	}
	for k, list := range [2][]Foul{truthFouls, s.fouls} {
		for _, f := range list {
			v := byFoul[string(f.Foul)]
			v[k] = append(v[k], item{f.Frame, f.Seat.String()})
			byFoul[string(f.Foul)] = v
		}
	}
	for code, v := range byFoul {
		tc := &typeCounts{truth: len(v[0]), reported: len(v[1])}
		tc.tp, tc.diffs, _ = matchItems(v[0], v[1], window(code))
		tc.tp2, _, _ = matchItems(v[0], v[1], TightWindow)
		c.fouls[code] = tc
	}
	return c
}

// FirstContact is the derived event type scored as "first_contact": the
// first contact of the striker in each stroke (between a stroke_start and
// its stroke_end), keyed by the kinds of the two discs (the other may be
// the frame).
const FirstContact events.Type = "first_contact"

// firstContacts lists the striker's first contact of every stroke in evs.
func firstContacts(evs []events.Event) []item {
	var out []item
	in, found := false, false
	for _, e := range evs {
		switch e.Type {
		case events.StrokeStart:
			in, found = true, false
		case events.StrokeEnd:
			in = false
		case events.Contact:
			if in && !found && (e.A == "S" || e.B == "S") {
				found = true
				out = append(out, item{e.Frame, eventKey(e)})
			}
		}
	}
	return out
}

// UnderHandRadius (mm): a reported pocketing that matches no true one
// counts as pocket_under_hand when, within the event window, a disc of the
// same kind lay on the board at most this far from the reported pocket's
// centre with at least half of it hidden by a hand.
const UnderHandRadius = 150

// underHand reports whether a reported pocketing concerns a disc that a
// hand hid at the time (see [UnderHandRadius]).
func (s *scorer) underHand(e events.Event) bool {
	k, ok := eventKind(e)
	if !ok {
		return false
	}
	g := s.g
	for f := e.Frame - s.opt.EventWindow; f <= e.Frame+s.opt.EventWindow; f++ {
		if f < 0 || f >= len(s.t.Frames) {
			continue
		}
		for _, d := range s.t.Frames[f].Discs {
			if d.Kind != k || !d.State.OnBoard() || d.Hand < 0.5 {
				continue
			}
			if e.Pocket == nil || d.Pos().Dist(g.Pocket(*e.Pocket).C) <= UnderHandRadius {
				return true
			}
		}
	}
	return false
}

// eventKind is the kind of the piece an event is about.
func eventKind(e events.Event) (board.Kind, bool) {
	if e.Piece != nil {
		return *e.Piece, true
	}
	if k, err := board.KindOfID(e.ID); err == nil {
		return k, true
	}
	return 0, false
}

// eventKey is what must agree for two events of a type to match: the side
// for stroke_start, front_line_crossed and arm_over_foul_line; the kinds
// of the two discs for a contact (identities may legitimately differ);
// the kind and the pocket for pocketed; the kind for overboard, placed and
// moved; nothing else for stroke_end.
func eventKey(e events.Event) string {
	side := func() string {
		if e.Side == nil {
			return "?"
		}
		return e.Side.String()
	}
	kind := func() string {
		if k, ok := eventKind(e); ok {
			return k.String()
		}
		return "?"
	}
	switch e.Type {
	case events.StrokeStart, events.FrontLineCrossed, events.ArmOverFoulLine:
		return side()
	case events.Contact:
		name := func(id string) string {
			if k, err := board.KindOfID(id); err == nil {
				return k.String()
			}
			return strings.ToLower(id)
		}
		ab := []string{name(e.A), name(e.B)}
		sort.Strings(ab)
		return ab[0] + "+" + ab[1]
	case events.Pocketed:
		p := "?"
		if e.Pocket != nil {
			p = e.Pocket.String()
		}
		return kind() + "@" + p
	case events.Overboard, events.Placed, events.Moved:
		return kind()
	}
	return ""
}
