package referee_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/referee"
	"github.com/boardcam/boardcam/rules"
	"github.com/boardcam/boardcam/sim"
)

// Geometry of the ICF board used by the scenarios below (mm): the base
// circles' centres lie 246.6 from the centre and 213.8 from the side's
// centre line; the front line's inner edge is 229.7 from the centre.
const (
	baseY   = 246.6
	circleX = 213.8
)

func profile(t *testing.T, name string) *rules.Profile {
	t.Helper()
	p, err := rules.ProfileByName(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// exact is the configuration for the simulator's exact events.
func exact(t *testing.T, name string) referee.Config {
	cfg := referee.DefaultConfig(profile(t, name))
	cfg.Tolerance, cfg.TimeTolerance = 0, 0
	return cfg
}

// simulate runs a scenario given as YAML.
func simulate(t *testing.T, yaml string) *sim.Trace {
	t.Helper()
	sc, err := sim.Parse([]byte(yaml), "")
	if err != nil {
		t.Fatal(err)
	}
	tr, err := sim.Run(sc, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// ctxOpt adjusts a match context.
type ctxOpt func(*rules.State)

// midBoard is the context of a singles board well under way: S plays white
// against N, both with nine men on the board, the queen on the board, S to
// strike.
func midBoard(profile string, opts ...ctxOpt) rules.State {
	st := rules.State{
		Profile: profile,
		Players: []rules.Player{{Name: "South", Seat: board.S, Team: 0}, {Name: "North", Seat: board.N, Team: 1}},
		Teams: [2]rules.TeamState{
			{Name: "South", Players: []string{"South"}, Colour: board.White, OnBoard: 9},
			{Name: "North", Players: []string{"North"}, Colour: board.Black, OnBoard: 9},
		},
		Board: 1, Turn: board.S, Strokes: 10, Winner: -1,
		Queen: rules.Queen{Status: rules.QueenOnBoard, Team: -1},
	}
	for _, o := range opts {
		o(&st)
	}
	return st
}

func turn(s board.Side) ctxOpt { return func(st *rules.State) { st.Turn = s } }

func breaking(st *rules.State) { st.Breaking, st.Strokes = true, 0 }

func onBoard(white, black int) ctxOpt {
	return func(st *rules.State) {
		st.Teams[0].OnBoard, st.Teams[0].Pocketed = white, 9-white
		st.Teams[1].OnBoard, st.Teams[1].Pocketed = black, 9-black
	}
}

func awaiting(white, black int, placer board.Side) ctxOpt {
	return func(st *rules.State) {
		st.Teams[0].AwaitingPlacement, st.Teams[1].AwaitingPlacement = white, black
		st.Placer = placer.String()
	}
}

// judge feeds every event to a new referee with the same context and
// returns all decisions.
func judge(t *testing.T, cfg referee.Config, st rules.State, evs []events.Event) []referee.Decision {
	t.Helper()
	r, err := referee.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var out []referee.Decision
	for _, e := range evs {
		ds, err := r.Observe(e, st)
		if err != nil {
			t.Fatalf("frame %d %s: %v", e.Frame, e.Type, err)
		}
		out = append(out, ds...)
	}
	return out
}

// strokes returns the stroke decisions.
func strokes(ds []referee.Decision) []referee.Decision {
	var out []referee.Decision
	for _, d := range ds {
		if d.Kind == referee.KindStroke {
			out = append(out, d)
		}
	}
	return out
}

// only returns the single stroke decision.
func only(t *testing.T, ds []referee.Decision) referee.Decision {
	t.Helper()
	ss := strokes(ds)
	if len(ss) != 1 {
		t.Fatalf("%d stroke decisions, want 1:\n%s", len(ss), dump(ds))
	}
	return ss[0]
}

// calls lists the fouls called in the decisions, as "code/status".
func calls(ds ...referee.Decision) string {
	var out []string
	for _, d := range ds {
		for _, c := range d.Calls {
			out = append(out, string(c.Foul)+"/"+string(c.Status))
		}
	}
	return strings.Join(out, " ")
}

func findCall(t *testing.T, d referee.Decision, f rules.Foul) referee.Call {
	t.Helper()
	for _, c := range d.Calls {
		if c.Foul == f {
			return c
		}
	}
	t.Fatalf("no %s call in %s", f, dump([]referee.Decision{d}))
	return referee.Call{}
}

func dump(ds []referee.Decision) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "  %s seat %s frame %d: %q\n", d.Kind, d.Seat, d.Frame, d.Log)
		for _, c := range d.Calls {
			fmt.Fprintf(&b, "    %s/%s margin %v conf %.3f: %s\n", c.Foul, c.Status, deref(c.Margin), c.Confidence, c.Reason)
		}
		for _, n := range d.Notes {
			fmt.Fprintf(&b, "    note: %s\n", n)
		}
	}
	return b.String()
}

func deref(p *float64) any {
	if p == nil {
		return "-"
	}
	return *p
}

// Hand-built events.

func startAt(frame int, side board.Side, x, y float64) events.Event {
	return events.Event{Type: events.StrokeStart, Frame: frame, T: float64(frame) / 60, Side: events.SidePtr(side), StrikerMM: events.MMPtr(board.V(x, y))}
}

func crossed(frame int, side board.Side) events.Event {
	return events.Event{Type: events.FrontLineCrossed, Frame: frame, T: float64(frame) / 60, Side: events.SidePtr(side)}
}

func hit(frame int, t float64, a, b string, amm, bmm board.Vec) events.Event {
	return events.Event{Type: events.Contact, Frame: frame, T: t, A: a, B: b, AMM: events.MMPtr(amm), BMM: events.MMPtr(bmm)}
}

func pocketed(frame int, id string, p board.Pocket) events.Event {
	k, _ := board.KindOfID(id)
	return events.Event{Type: events.Pocketed, Frame: frame, T: float64(frame) / 60, Piece: events.KindPtr(k), ID: id, Pocket: events.PocketPtr(p)}
}

func end(frame int, pieces ...events.PieceAt) events.Event {
	return events.Event{Type: events.StrokeEnd, Frame: frame, T: float64(frame) / 60, Pieces: pieces}
}

func at(id string, x, y float64) events.PieceAt {
	k, _ := board.KindOfID(id)
	return events.PieceAt{Piece: k, ID: id, MM: events.MM{x, y}}
}

func placed(frame int, id string, x, y float64) events.Event {
	k, _ := board.KindOfID(id)
	return events.Event{Type: events.Placed, Frame: frame, T: float64(frame) / 60, Piece: events.KindPtr(k), ID: id, MM: events.MMPtr(board.V(x, y))}
}

func moved(frame int, id string, x, y float64) events.Event {
	k, _ := board.KindOfID(id)
	return events.Event{Type: events.Moved, Frame: frame, T: float64(frame) / 60, Piece: events.KindPtr(k), ID: id, MM: events.MMPtr(board.V(x, y))}
}
