package sim

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardcam/boardcam/board"
)

func TestParseErrorsSayWhere(t *testing.T) {
	cases := []struct {
		name, src, want string
	}{
		{"unknown top field", "name: x\nfrobs: 3\ntimeline: [{wait: 1}]\n", `x.yaml:2:1: scenario: unknown field "frobs"`},
		{"no timeline", "name: x\nseed: 3\n", `x.yaml:1:1: scenario: no timeline`},
		{"bad fps", "fps: fast\ntimeline: [{wait: 1}]\n", `x.yaml:1:6: fps: want a whole number, got "fast"`},
		{"bad side", "breaker: Q\ntimeline: [{wait: 1}]\n", `x.yaml:1:10: breaker: unknown side "Q"`},
		{"unknown action", "timeline:\n  - wait: 1\n  - dance: {}\n", `x.yaml:3:5: timeline[1].dance: unknown action "dance"`},
		{"strike without speed", "timeline:\n  - wait: 1\n  - strike:\n      side: S\n      direction: 0\n", `x.yaml:4:7: timeline[1].strike: needs a speed`},
		{"bad speed", "timeline:\n  - strike: {side: S, direction: 0, speed: -2}\n", `x.yaml:2:44: timeline[0].strike.speed: must be positive`},
		{"too fast", "timeline:\n  - strike: {side: S, direction: 0, speed: 40}\n", `timeline[0].strike.speed: 40 m/s is beyond any flick`},
		{"offset on the circle", "timeline:\n  - strike: {side: S, at: 190, direction: 0, speed: 2}\n", `x.yaml:2:27: timeline[0].strike.at: offset 190 mm puts the striker on a base circle`},
		{"bad aim", "timeline:\n  - strike: {side: S, direction: at X9, speed: 2}\n", `x.yaml:2:34: timeline[0].strike.direction: cannot aim at "X9"`},
		{"bad pocket", "timeline:\n  - strike: {side: S, direction: pot W1 ZZ, speed: 2}\n", `timeline[0].strike.direction: unknown pocket "ZZ"`},
		{"unknown strike field", "timeline:\n  - strike: {side: S, direction: 0, speed: 2, spin: 3}\n", `x.yaml:2:47: timeline[0].strike: unknown field "spin"`},
		{"jump without strike", "timeline:\n  - wait: 1\n  - jump: {id: W1}\n", `x.yaml:3:5: timeline[1].jump: no strike follows`},
		{"placed twice", "arrangement:\n  positions:\n    W1: [0, 0]\n    W1: [50, 0]\ntimeline: [{wait: 1}]\n", `x.yaml:4:5: arrangement.positions.W1: W1 placed twice`},
		{"bad point", "arrangement:\n  positions:\n    W1: [0]\ntimeline: [{wait: 1}]\n", `x.yaml:3:9: arrangement.positions.W1: want a point [x, y]`},
		{"bad physics", "physics: {restitution: 1.5}\ntimeline: [{wait: 1}]\n", `x.yaml:1:10: physics: restitution must lie in [0, 1]`},
		{"place the striker", "timeline:\n  - place: {pieces: [S]}\n", `x.yaml:2:22: timeline[0].place.pieces[0]: the striker is placed by strike`},
		{"wait zero", "timeline:\n  - wait: 0\n", `x.yaml:2:11: timeline[0].wait: must be positive`},
		{"yaml syntax", "timeline:\n  - wait: [1\n", `x.yaml: yaml: line`},
		{"bad autoplay", "timeline:\n  - autoplay: {until: forever}\n", `x.yaml:2:23: timeline[0].autoplay.until: want board_end`},
		{"missing board", "board: nowhere.yaml\ntimeline: [{wait: 1}]\n", `x.yaml:1:8: board: board: open`},
	}
	for _, c := range cases {
		_, err := Parse([]byte(c.src), "x.yaml")
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\n got %v\nwant …%s…", c.name, err, c.want)
		}
	}
}

func TestRunErrorsSayWhere(t *testing.T) {
	cases := []struct {
		name, src, want string
	}{
		{"overlap", "arrangement: {positions: {W1: [0, 0], B1: [10, 0]}}\ntimeline: [{wait: 1}]\n", `x.yaml:1:14: arrangement: B1 at [10.0, 0.0] overlaps W1`},
		{"striker on a man", "arrangement: {positions: {W1: [0, 246.6]}}\ntimeline:\n  - strike: {side: S, at: 0, direction: 0, speed: 1}\n", `x.yaml:3:5: timeline[0].strike: the striker at [0.0, 246.6] would overlap W1`},
		{"aim at a pocketed man", "arrangement: {positions: {W1: [0, 0]}, pocketed: [B1]}\ntimeline:\n  - strike: {side: S, direction: at B1, speed: 1}\n", `x.yaml:3:5: timeline[0].strike: cannot aim at B1: it is pocketed`},
		{"place a man on the board", "arrangement: {positions: {W1: [0, 0]}}\ntimeline:\n  - place: {pieces: [W1]}\n", `x.yaml:3:5: timeline[0].place: W1 is on the board`},
		{"jump untouched", "arrangement: {positions: {W1: [0, 0], B1: [200, -200]}}\ntimeline:\n  - jump: {id: B1}\n  - strike: {side: S, direction: 0, speed: 1}\n", `x.yaml:4:5: timeline[1].strike: B1 was scripted to jump but nothing touched it`},
		{"nudge into a man", "arrangement: {positions: {W1: [0, 0], B1: [40, 0]}}\ntimeline:\n  - nudge: {id: W1, move: [30, 0]}\n", `x.yaml:3:5: timeline[0].nudge: nudging W1 to [30.0, 0.0] would push B1 too`},
	}
	for _, c := range cases {
		sc, err := Parse([]byte(c.src), "x.yaml")
		if err != nil {
			t.Errorf("%s: parse: %v", c.name, err)
			continue
		}
		_, err = Run(sc, Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\n got %v\nwant …%s…", c.name, err, c.want)
		}
	}
}

func TestParseKeepsRenderAndReadsEverything(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "home.yaml"), []byte("name: home board\nsurface: 720\n"), 0o644)
	src := `name: everything
seed: 77
fps: 120
board: home.yaml
breaker: E
players: 4
umpire: N
physics: {friction: 0.1, restitution: 0.9, cushion_restitution: 0.65}
render:
  camera: {height: 1200}
  knocks: [3.5]
timeline:
  - jump: {id: B2, toward: W, speed: 2.5}
  - strike: {side: E, at: -20.5, direction: -12.5, speed: 4.5, aim_time: 1.5}
  - strike: {at: left circle, direction: "pot W3 NE", speed: 2}
  - strike: {side: N, at: [10, -240], direction: toward SW, speed: 1}
  - place: {by: umpire, pieces: [{id: B2, at: centre}, W1, {id: B3, at: [10, 20]}]}
  - return_queen: {at: [0, 40]}
  - hand_over_pocket: {pocket: SW, seconds: 4, by: W}
  - nudge: {id: W5, by: S, move: [3, 4], seconds: 0.6}
  - wait: {seconds: 2}
  - autoplay: {strokes: 5, aim_noise: 2, speed_noise: 0.1}
`
	path := filepath.Join(dir, "all.yaml")
	os.WriteFile(path, []byte(src), 0o644)
	sc, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if sc.Name != "everything" || sc.Seed != 77 || sc.FPS != 120 || sc.Geometry.Surface != 720 || sc.Breaker != board.E || sc.Players != 4 || sc.Umpire != board.N {
		t.Errorf("header: %+v", sc)
	}
	if sc.Physics.Friction != 0.1 || sc.Physics.Restitution != 0.9 || sc.Physics.CushionRestitution != 0.65 || sc.Physics.MaxStep != DefaultPhysics().MaxStep {
		t.Errorf("physics %+v", sc.Physics)
	}
	if sc.Render.Kind == 0 || len(sc.Render.Content) != 4 || sc.Render.Content[0].Value != "camera" {
		t.Errorf("render node not kept: %+v", sc.Render)
	}
	if len(sc.Timeline) != 10 {
		t.Fatalf("%d actions", len(sc.Timeline))
	}
	j := sc.Timeline[0].Jump
	if j.ID != "B2" || *j.Toward != board.W || j.Speed != 2500 {
		t.Errorf("jump %+v", j)
	}
	s := sc.Timeline[1].Strike
	if *s.Side != board.E || s.At.Kind != PlaceOffset || s.At.Offset != -20.5 || s.Aim.Kind != AimDegrees || s.Aim.Degrees != -12.5 || s.Speed != 4500 || s.AimTime != 1.5 {
		t.Errorf("strike %+v", s)
	}
	s = sc.Timeline[2].Strike
	if s.Side != nil || s.At.Kind != PlaceCircle || s.At.Circle != 0 || s.Aim.Kind != AimPot || s.Aim.ID != "W3" || s.Aim.Pocket != board.NE {
		t.Errorf("strike %+v", s)
	}
	s = sc.Timeline[3].Strike
	if s.At.Kind != PlaceMM || s.At.MM != board.V(10, -240) || s.Aim.Kind != AimToward || s.Aim.Pocket != board.SW {
		t.Errorf("strike %+v", s)
	}
	p := sc.Timeline[4].Place
	if p.By != "umpire" || len(p.Pieces) != 3 || !p.Pieces[0].Centre || p.Pieces[1].ID != "W1" || *p.Pieces[2].At != board.V(10, 20) || p.Pieces[2].Line != 17 {
		t.Errorf("place %+v", p)
	}
	if q := sc.Timeline[5].ReturnQueen; *q.At != board.V(0, 40) {
		t.Errorf("return_queen %+v", q)
	}
	if h := sc.Timeline[6].HandOverPocket; h.Pocket != board.SW || h.Seconds != 4 || *h.By != board.W {
		t.Errorf("hand_over_pocket %+v", h)
	}
	if n := sc.Timeline[7].Nudge; n.ID != "W5" || *n.By != board.S || n.Move != board.V(3, 4) || n.Seconds != 0.6 {
		t.Errorf("nudge %+v", n)
	}
	if sc.Timeline[8].Wait != 2 || sc.Timeline[8].Line != 21 {
		t.Errorf("wait %+v", sc.Timeline[8])
	}
	if a := sc.Timeline[9].Autoplay; a.Strokes != 5 || a.Skill.AimNoise != 2 || a.Skill.SpeedNoise != 0.1 || a.MaxStrokes != 300 {
		t.Errorf("autoplay %+v", a)
	}
}

func TestArrangementFromAnotherScenario(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "first.yaml"), []byte(`
arrangement: {positions: {W1: [0, 0], B1: [-200, -200]}}
timeline:
  - strike: {side: S, direction: at W1, speed: 2}
`), 0o644)
	os.WriteFile(filepath.Join(dir, "second.yaml"), []byte(`
arrangement: {from: first.yaml}
timeline:
  - wait: 1
`), 0o644)
	first, err := RunFile(filepath.Join(dir, "first.yaml"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	second, err := RunFile(filepath.Join(dir, "second.yaml"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, b := first.Final(), second.At(0)
	for i := range a.Discs {
		if a.Discs[i].State != b.Discs[i].State || (a.Discs[i].State.OnBoard() && a.Discs[i].Pos != b.Discs[i].Pos) {
			t.Errorf("%s: %s at %v, then %s at %v", a.Discs[i].ID, a.Discs[i].State, a.Discs[i].Pos, b.Discs[i].State, b.Discs[i].Pos)
		}
	}
	os.WriteFile(filepath.Join(dir, "loop.yaml"), []byte("arrangement: {from: loop.yaml}\ntimeline: [{wait: 1}]\n"), 0o644)
	if _, err := RunFile(filepath.Join(dir, "loop.yaml"), Options{}); err == nil || !strings.Contains(err.Error(), "too deeply") {
		t.Errorf("a scenario arranged from itself: %v", err)
	}
}
