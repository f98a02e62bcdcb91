package tracker

import (
	"fmt"
	"math"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/scene"
	"github.com/boardcam/boardcam/sim"
	"github.com/boardcam/boardcam/tracker/trackertest"
)

// This file turns simulator traces into what a detector would report,
// with the errors real detection makes, so the tracker can be tested
// against the simulator's exact ground truth.

// scenarioPath finds testdata/scenarios/name.
func scenarioPath(t testing.TB, name string) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "testdata", "scenarios", name)
}

// run is a tracker run over a whole trace.
type run struct {
	tr     *sim.Trace
	events []events.Event
	// mapped are the events with identities mapped to the truth's as
	// they stood when each was released.
	mapped []events.Event
	// idmap maps tracker identities to truth identities (from the first
	// frame after the initial position was taken).
	idmap map[string]string
	// switches counts frames in which a disc at rest in the truth was
	// tracked under an identity that maps to another truth disc.
	switches int
	// restChecks counts the disc-frames checked for switches.
	restChecks int
	switchLog  []string
	last       map[string]lastMatch
}

func runTrace(t testing.TB, tr *sim.Trace, nz trackertest.Noise, cfg Config) *run {
	t.Helper()
	cfg.Geometry = tr.Geometry
	tk, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s := trackertest.NewSynth(tr, nz)
	r := &run{tr: tr, idmap: map[string]string{}}
	initAt := int(math.Ceil((tk.cfg.InitTime + 0.2) * float64(tr.FPS)))
	prev := make([]State, nTracks)
	for i := range tr.NumFrames() {
		f, sc := s.Frame(i)
		u := tk.Update(f)
		for _, e := range u.Events {
			r.events = append(r.events, e)
			r.mapped = append(r.mapped, r.toTruth(e))
		}
		if i > initAt {
			// A disc coming onto the board takes a free identity: map it
			// afresh.
			for k, p := range u.Pieces {
				if p.State.OnBoard() && !prev[k].OnBoard() {
					best, bd := "", 10.0
					for _, d := range sc.Discs {
						if d.Kind == p.Kind && d.State.OnBoard() && d.Pos.Dist(p.MM) < bd {
							best, bd = d.ID, d.Pos.Dist(p.MM)
						}
					}
					if best != "" {
						r.idmap[p.ID] = best
					}
				}
			}
		}
		for k, p := range u.Pieces {
			prev[k] = p.State
		}
		if i == initAt {
			r.mapIDs(u.Pieces, sc)
		}
		if i > initAt {
			r.checkIDs(u.Pieces, sc)
		}
	}
	for _, e := range tk.Flush() {
		r.events = append(r.events, e)
		r.mapped = append(r.mapped, r.toTruth(e))
	}
	return r
}

// mapIDs pairs each tracked disc with the nearest truth disc of its kind.
func (r *run) mapIDs(ps []Piece, sc scene.Scene) {
	for _, p := range ps {
		if !p.State.OnBoard() {
			continue
		}
		best, bd := "", 8.0
		for _, d := range sc.Discs {
			if d.Kind == p.Kind && d.State.OnBoard() {
				if dd := d.Pos.Dist(p.MM); dd < bd {
					best, bd = d.ID, dd
				}
			}
		}
		if best != "" {
			r.idmap[p.ID] = best
		}
	}
}

// checkIDs counts identity switches at rest, as the evaluation harness
// defines them (docs/eval.md): a truth disc at rest matched (within 6 mm)
// to a different tracked identity than in its previous matched frame. (Men
// of one colour that swap identities while seen moving are not counted.)
func (r *run) checkIDs(ps []Piece, sc scene.Scene) {
	if r.last == nil {
		r.last = map[string]lastMatch{}
	}
	for _, d := range sc.Discs {
		if !d.State.OnBoard() {
			continue
		}
		best, bd := -1, 6.0
		for k, p := range ps {
			if p.Seen && p.State.OnBoard() && p.MM.Dist(d.Pos) < bd {
				best, bd = k, p.MM.Dist(d.Pos)
			}
		}
		if best < 0 {
			continue
		}
		id := ps[best].ID
		rest := d.State == scene.Rest
		if prev, ok := r.last[d.ID]; ok && rest {
			r.restChecks++
			if prev.id != id {
				r.switches++
				if len(r.switchLog) < 10 {
					r.switchLog = append(r.switchLog, fmt.Sprintf("t=%.3f truth %s at rest was %s, now %s", sc.T, d.ID, prev.id, id))
				}
			}
		}
		r.last[d.ID] = lastMatch{id, rest}
	}
}

type lastMatch struct {
	id   string
	rest bool
}

// toTruth maps the identities in e to the truth's.
func (r *run) toTruth(e events.Event) events.Event {
	if e.A != "" {
		e.A = r.truthID(e.A)
	}
	if e.B != "" {
		e.B = r.truthID(e.B)
	}
	if e.ID != "" {
		e.ID = r.truthID(e.ID)
	}
	return e
}

// truthID maps a tracker id to the truth id ("" if unknown).
func (r *run) truthID(id string) string {
	if id == events.Frame {
		return id
	}
	return r.idmap[id]
}

// eventLine formats an event compactly for test logs.
func eventLine(e events.Event) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%5d %7.3f %-18s", e.Frame, e.T, e.Type)
	if e.Side != nil {
		fmt.Fprintf(&b, " side=%s", e.Side)
	}
	if e.A != "" {
		fmt.Fprintf(&b, " %s-%s", e.A, e.B)
	}
	if e.Piece != nil {
		fmt.Fprintf(&b, " %s %s", e.Piece, e.ID)
	}
	if e.Pocket != nil {
		fmt.Fprintf(&b, " %s", e.Pocket)
	}
	if e.MM != nil {
		fmt.Fprintf(&b, " [%.1f %.1f]", e.MM[0], e.MM[1])
	}
	if e.StrikerMM != nil {
		fmt.Fprintf(&b, " [%.1f %.1f]", e.StrikerMM[0], e.StrikerMM[1])
	}
	if e.Type == events.StrokeEnd {
		fmt.Fprintf(&b, " %d pieces", len(e.Pieces))
	}
	return b.String()
}
