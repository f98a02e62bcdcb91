package sim

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/scene"
)

// Each example scenario does what its comment says.
var exampleChecks = map[string]func(t *testing.T, tr *Trace){
	"break.yaml": func(t *testing.T, tr *Trace) {
		if len(tr.Strokes) != 1 || tr.Strokes[0].Contacts < 10 || tr.Strokes[0].FirstContact != "W4" {
			t.Errorf("break: %+v", tr.Strokes)
		}
	},
	"single-pocket.yaml": func(t *testing.T, tr *Trace) {
		want := "stroke_start, front_line_crossed, contact S-W1, pocketed W1 NE, stroke_end"
		if got := types(tr.Events); got != want {
			t.Errorf("events %s", got)
		}
	},
	"striker-pocketed.yaml": func(t *testing.T, tr *Trace) {
		p := tr.Strokes[0].Pocketed
		if len(p) != 2 || p[0].ID != "W1" || p[1].ID != "S" {
			t.Errorf("pocketed %+v", p)
		}
		pl := eventsOf(tr, events.Placed)
		if len(pl) != 1 || pl[0].ID != "W2" || !tr.Geometry.InsideOuterCircle(pl[0].MM.Vec(), tr.Geometry.ManDiameter/2) {
			t.Errorf("due %s", types(pl))
		}
	},
	"queen-covered.yaml": func(t *testing.T, tr *Trace) {
		s := tr.Strokes
		if len(s) != 2 || len(s[0].Pocketed) != 1 || s[0].Pocketed[0].ID != "Q" || len(s[1].Pocketed) != 1 || s[1].Pocketed[0].ID != "W2" {
			t.Fatalf("strokes %+v", s)
		}
		if strings.Join(s[1].Notes, ";") != "queen covered" {
			t.Errorf("notes %v", s[1].Notes)
		}
	},
	"queen-returned.yaml": func(t *testing.T, tr *Trace) {
		pl := eventsOf(tr, events.Placed)
		if len(pl) != 1 || pl[0].ID != "Q" {
			t.Fatalf("placed %s", types(pl))
		}
		g := tr.Geometry
		if p := pl[0].MM.Vec(); p.Len() > g.CentreCircleDiameter/2+g.QueenDiameter+1 {
			t.Errorf("queen returned to %v, not next to the centre circle", p)
		}
	},
	"jump-overboard.yaml": func(t *testing.T, tr *Trace) {
		if o := eventsOf(tr, events.Overboard); len(o) != 1 || o[0].ID != "W4" {
			t.Errorf("overboard %s", types(o))
		}
		if p := eventsOf(tr, events.Placed); len(p) != 1 || p[0].ID != "W4" {
			t.Errorf("placed %s", types(p))
		}
	},
	"hand-over-pocket.yaml": func(t *testing.T, tr *Trace) {
		if p := eventsOf(tr, events.Pocketed); len(p) != 0 {
			t.Errorf("pocketed %s", types(p))
		}
		hidden := false
		for i := range tr.NumFrames() {
			for _, h := range tr.Frame(i).Hands {
				hidden = hidden || h.Hides(board.V(300, -300), tr.Geometry.ManDiameter/2)
			}
		}
		if !hidden {
			t.Error("W1 by the pocket is never hidden")
		}
	},
	"dues-placed.yaml": func(t *testing.T, tr *Trace) {
		pl := eventsOf(tr, events.Placed)
		if len(pl) != 2 || pl[0].ID != "W1" || pl[1].ID != "W2" || pl[1].MM.Vec() != board.V(40, -50) {
			t.Errorf("placed %s", types(pl))
		}
	},
	"four-sides.yaml": func(t *testing.T, tr *Trace) {
		var sides []string
		for _, s := range tr.Strokes {
			sides = append(sides, s.Side.String())
			if !s.CrossedFrontLine {
				t.Errorf("stroke %d did not cross", s.Number)
			}
		}
		if strings.Join(sides, "") != "SENW" {
			t.Errorf("sides %v", sides)
		}
		if tr.Strokes[2].Placement != board.BaseCircle {
			t.Errorf("N's stroke from %s, want the base circle", tr.Strokes[2].Placement)
		}
	},
	"nudge.yaml": func(t *testing.T, tr *Trace) {
		m := eventsOf(tr, events.Moved)
		if len(m) != 1 || m[0].ID != "W1" || m[0].MM.Vec() != board.V(-105, 20) {
			t.Errorf("moved %s", types(m))
		}
	},
	"arm-foul.yaml": func(t *testing.T, tr *Trace) {
		if f := eventsOf(tr, events.ArmOverFoulLine); len(f) != 1 || *f[0].Side != board.W {
			t.Errorf("fouls %s", types(f))
		}
	},
	"autoplay-board.yaml": func(t *testing.T, tr *Trace) {
		if len(tr.Boards) != 1 || len(tr.Strokes) < 20 {
			t.Errorf("boards %+v after %d strokes", tr.Boards, len(tr.Strokes))
		}
	},
	"autoplay-match.yaml": func(t *testing.T, tr *Trace) {
		if len(tr.Boards) != 3 {
			t.Errorf("boards %+v, notes %v", tr.Boards, tr.Notes)
		}
	},
}

func TestExampleScenarios(t *testing.T) {
	files, err := filepath.Glob("../testdata/scenarios/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no example scenarios: %v", err)
	}
	seen := map[string]bool{}
	for _, f := range files {
		name := filepath.Base(f)
		seen[name] = true
		t.Run(name, func(t *testing.T) {
			tr, err := RunFile(f, Options{})
			if err != nil {
				t.Fatal(err)
			}
			checkFrames(t, tr)
			// Nothing is ever held by two hands, and a held disc is held.
			for i := 0; i < tr.NumFrames(); i += 3 {
				s := tr.Frame(i)
				holders := map[string]int{}
				for _, h := range s.Hands {
					if h.Holding != "" {
						holders[h.Holding]++
					}
				}
				for _, d := range s.Discs {
					if (d.State == scene.Held) != (holders[d.ID] == 1) {
						t.Fatalf("frame %d: %s is %s, held by %d hands", i, d.ID, d.State, holders[d.ID])
					}
				}
			}
			check, ok := exampleChecks[name]
			if !ok {
				t.Fatalf("no check for %s: add one to exampleChecks", name)
			}
			check(t, tr)
		})
	}
	for name := range exampleChecks {
		if !seen[name] {
			t.Errorf("example %s is missing", name)
		}
	}
	if _, err := os.Stat("../docs/scenarios.md"); err != nil {
		t.Errorf("the format is undocumented: %v", err)
	}
}
