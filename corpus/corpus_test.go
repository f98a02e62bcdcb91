package corpus

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/render"
)

const videos = "../testdata/videos"

// Every committed spec simulates, is refereed and shows what its expect:
// section says; together they cover every situation the issue lists.
func TestCommittedSpecsShowWhatTheyExpect(t *testing.T) {
	specs, err := LoadDir(videos)
	if err != nil {
		t.Fatal(err)
	}
	if len(specs) < 21 {
		t.Errorf("%d clip specs, want at least 20 clips and the demo", len(specs))
	}
	demo := false
	for _, sp := range specs {
		demo = demo || sp.Name == "demo"
		s, err := Simulate(sp, render.BeyondFoulLine)
		if err != nil {
			t.Errorf("%s: %v", sp.Name, err)
			continue
		}
		if err := s.Verify(); err != nil {
			t.Error(err)
		}
		if sp.Name != "demo" && s.Trace.Duration > MaxSeconds {
			t.Errorf("%s runs %.1f s", sp.Name, s.Trace.Duration)
		}
	}
	if !demo {
		t.Error("no demo.yaml")
	}
	if miss := MissingTags(specs); len(miss) > 0 {
		t.Errorf("no clip covers %v", miss)
	}
}

// The demo picks up the match of demo.log (Ravi won board 1 by 6) and
// plays the end of board 2 under the rules: every decision accepted, a
// foul called, the queen covered by Asha, and Asha wins the board by 7 —
// the score visibly changes on the overlay.
func TestDemoPlaysUnderTheRules(t *testing.T) {
	sp, err := LoadSpec(filepath.Join(videos, "demo.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Simulate(sp, render.BeyondFoulLine)
	if err != nil {
		t.Fatal(err)
	}
	j := s.Judgement
	if s.Setup.Mode != ModeResume || j.Final == nil {
		t.Fatalf("mode %s, final %v", s.Setup.Mode, j.Final)
	}
	if len(j.Rejected) > 0 {
		t.Errorf("rejected: %v", j.Rejected)
	}
	if len(j.Fouls) == 0 {
		t.Error("no foul in the demo")
	}
	f := j.Final
	if f.Board != 3 || f.Teams[0].Name != "Asha" || f.Teams[0].Score != 7 || f.Teams[1].Score != 6 || len(f.Boards) != 2 ||
		f.Boards[1].Winner != 0 || !strings.Contains(f.Boards[1].Reason, "queen covered by Asha") {
		t.Errorf("final state: board %d, %s %d – %d, boards %+v", f.Board, f.Teams[0].Name, f.Teams[0].Score, f.Teams[1].Score, f.Boards)
	}
	if d := s.Trace.Duration; d < 20 || d > 40 {
		t.Errorf("the demo runs %.1f s, want 20–40", d)
	}
}

// A clip whose simulation drifts from its spec is refused: each field of
// expect: is checked.
func TestVerifyCatchesDrift(t *testing.T) {
	base, err := os.ReadFile(filepath.Join(videos, "camera-knock.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ from, to, want string }{
		{"pocketed: [W1@NW]", "pocketed: [W1@NE]", "expect.pocketed"},
		{"pocketed: [W1@NW]", "pocketed: []", "expect.pocketed"},
		{"pocketed: [W1@NW]", "pocketed: [W1@NW]\n  fouls: [cut_moon]", "expect.fouls"},
		{"pocketed: [W1@NW]", "pocketed: [W1@NW]\n  placed: [W1]", "expect.placed"},
		{"pocketed: [W1@NW]", "pocketed: [W1@NW]\n  strokes: [N]", "expect.strokes"},
		{"covers: [camera_knock, single_pocket, side_S]", "covers: [camera_knock, single_pocket, side_E]", "covers side_E"},
		{"covers: [camera_knock, single_pocket, side_S]", "covers: [lights_dimmed, single_pocket]", "covers lights_dimmed"},
		{"covers: [camera_knock, single_pocket, side_S]", "covers: [multiple_pockets]", "covers multiple_pockets"},
		{"pocketed: [W1@NW]", "pocketed: [W1@NW]\n  max_seconds: 2", "longer than 2 s"},
	}
	for _, c := range cases {
		src := strings.Replace(string(base), c.from, c.to, 1)
		if src == string(base) {
			t.Fatalf("%q not in the spec", c.from)
		}
		sp, err := ParseSpec([]byte(src), filepath.Join(videos, "camera-knock.yaml"))
		if err != nil {
			t.Fatalf("%s: %v", c.to, err)
		}
		s, err := Simulate(sp, render.BeyondFoulLine)
		if err != nil {
			t.Fatal(err)
		}
		err = s.Verify()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one about %s", c.to, err, c.want)
		}
	}
}

func TestSpecErrorsSayWhere(t *testing.T) {
	ok := "fps: 30\narrangement: {positions: {W1: [0, 0]}}\ntimeline:\n  - wait: 1\nexpect:\n  covers: [break]\n"
	if _, err := ParseSpec([]byte(ok), "x.yaml"); err != nil {
		t.Fatalf("valid spec: %v", err)
	}
	cases := []struct{ src, want string }{
		{"fps: 30\ntimeline:\n  - wait: 1\n", "x.yaml:1: no expect:"},
		{"timeline:\n  - wait: 1\nexpect: {}\n", "fps: a clip spec must give"},
		{"fps: 25\ntimeline:\n  - wait: 1\nexpect: {}\n", "x.yaml:1: fps: 25"},
		{"fps: 30\ntimeline:\n  - wait: 1\nexpect:\n  covers: [brake]\n", `x.yaml:5:12: expect.covers: unknown tag "brake"`},
		{"fps: 30\ntimeline:\n  - wait: 1\nexpect:\n  fouls: [bad_foul]\n", `x.yaml:5:11: expect.fouls: unknown foul "bad_foul"`},
		{"fps: 30\ntimeline:\n  - wait: 1\nexpect:\n  pocketed: [W1]\n", "x.yaml:5:14: expect.pocketed: want ID@POCKET"},
		{"fps: 30\ntimeline:\n  - wait: 1\nexpect:\n  colour: red\n", "x.yaml:5:3: expect.colour: unknown field"},
		{"fps: 30\ntimeline:\n  - wait: 1\nexpect:\n  context: {mode: later}\n", "expect.context.mode"},
		{"fps: 30\ntimeline:\n  - wait: 1\nrender:\n  fps: 60\nexpect: {}\n", "x.yaml:5: render.fps 60 differs"},
		{"fps: 30\ntimeline:\n  - wait: 1\nrender:\n  camera: {tilt: 40}\nexpect: {}\n", "camera.tilt"},
		// The simulator's errors keep the file's line numbers.
		{"fps: 30\nexpect:\n  covers: [break]\ntimeline:\n  - strike: {side: X, direction: 0, speed: 1}\n", "x.yaml:5"},
	}
	for _, c := range cases {
		_, err := ParseSpec([]byte(c.src), "x.yaml")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.src, err, c.want)
		}
	}
}

// The mid-board context is a position line: the men on the board counted
// from the arrangement, the turn from the first strike, the rest from
// expect.context; the match played from it is the truth's.
func TestMidBoardContext(t *testing.T) {
	sp, err := LoadSpec(filepath.Join(videos, "dues-placed.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	rs, err := Setup(sp)
	if err != nil {
		t.Fatal(err)
	}
	if rs.Mode != ModeMidBoard {
		t.Fatalf("mode %s", rs.Mode)
	}
	const want = "position breaker=S turn=N white=1 black=2 queen=covered:N awaiting-white=2 placer=N strokes=10\n"
	if !strings.Contains(rs.Log, want) {
		t.Errorf("log\n%s\nwant the line %s", rs.Log, want)
	}
	m, err := rs.resumedMatch()
	if err != nil {
		t.Fatal(err)
	}
	st := m.State()
	if st.Teams[0].OnBoard != 1 || st.Teams[0].Pocketed != 8 || st.Teams[1].OnBoard != 2 || st.Turn != board.N ||
		st.Teams[0].AwaitingPlacement != 2 || st.Placer != "N" || st.Queen.Status != "covered" {
		t.Errorf("state %+v", st)
	}
}

func TestTruthRoundTrip(t *testing.T) {
	tr := &Truth{Version: TruthVersion, Clip: ClipInfo{Name: "x", Frames: 1, Width: 1280, Height: 720, FPS: 30},
		Cameras: []CameraTruth{{From: 0, To: 0, CornersPx: [4][2]float64{{1, 2}, {3, 4}, {5, 6}, {7, 8}}}},
		Events:  []events.Event{{Type: events.StrokeEnd, Frame: 0, T: 0.0123456789}},
		Frames: []FrameTruth{{I: 0, T: 0, Discs: []DiscTruth{
			{ID: "W1", Kind: board.White, State: "rest", MM: &[2]R3{1.23456, -0.0004}, PX: &[2]R3{640.5, 360.25}, Hand: 0.25},
			{ID: "W2", Kind: board.White, State: "pocketed", Pocket: func() *board.Pocket { p := board.NE; return &p }()},
		}}}}
	b, err := tr.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, want := range []string{`"mm":[1.235,0]`, `"px":[640.5,360.25]`, `"hand":0.25`, `"t":0.0123456789`, "\n    {\"i\":0,"} {
		if !strings.Contains(s, want) {
			t.Errorf("truth JSON lacks %s:\n%s", want, s)
		}
	}
	back, err := ParseTruth(b, "x")
	if err != nil {
		t.Fatal(err)
	}
	d := back.Frames[0].Discs[0]
	if d.Pos() != (board.Vec{X: 1.235, Y: 0}) || !d.Visible(1280, 720) || back.Frames[0].Discs[1].Visible(1280, 720) {
		t.Errorf("disc %+v", d)
	}
	b2, _ := back.Marshal()
	if string(b2) != s {
		t.Error("marshal → parse → marshal changed the bytes")
	}
	if _, err := ParseTruth([]byte(strings.Replace(s, `"version": 1`, `"version": 99`, 1)), "x"); err == nil || !strings.Contains(err.Error(), "version 99") {
		t.Errorf("version check: %v", err)
	}
	if _, err := ParseTruth([]byte(strings.Replace(s, `"frames":1,`, `"frames":2,`, 1)), "x"); err == nil {
		t.Error("a frame count that disagrees is accepted")
	}
}

// The committed truth files belong to the committed specs and videos and
// to the simulator as it is now (the trace hash: a change of physics,
// hands or judgement that alters a clip's truth must regenerate it), and
// the clips keep within the size limits (3 MB each, 60 MB in all).
func TestCommittedCorpusIsConsistent(t *testing.T) {
	specs, err := LoadDir(videos)
	if err != nil {
		t.Fatal(err)
	}
	var total int64
	for _, sp := range specs {
		p, err := FindTruth(videos, sp.Name)
		if err != nil {
			t.Error(err)
			continue
		}
		tr, err := ReadTruth(p)
		if err != nil {
			t.Error(err)
			continue
		}
		sum, size, err := FileSHA256(VideoFile(videos, sp.Name))
		if err != nil {
			t.Error(err)
			continue
		}
		if sum != tr.Clip.SHA256 || size != tr.Clip.Bytes {
			t.Errorf("%s: the video is not the one its truth describes", sp.Name)
		}
		specSum, _, _ := FileSHA256(sp.Path)
		if specSum != tr.Clip.SpecSHA256 {
			t.Errorf("%s: the spec changed since the clip was generated: run boardcam synth --only %s", sp.Name, sp.Name)
		} else if s, err := Simulate(sp, render.BeyondFoulLine); err != nil {
			t.Errorf("%s: %v", sp.Name, err)
		} else if h := s.Trace.Hash(); h != tr.Clip.TraceSHA256 {
			t.Errorf("%s: the simulator no longer makes the committed truth (trace %s…, the truth's %s…): run boardcam synth --only %s", sp.Name, h[:12], tr.Clip.TraceSHA256[:12], sp.Name)
		}
		if size > 3<<20 {
			t.Errorf("%s: %.2f MB, more than 3 MB", sp.Name, float64(size)/(1<<20))
		}
		st, _ := os.Stat(p)
		total += size + st.Size()
		if sp.Name == "demo" && (tr.Clip.Width != 1280 || tr.Clip.FPS != 30) {
			t.Errorf("demo is %dx%d at %d fps, want 720p30", tr.Clip.Width, tr.Clip.Height, tr.Clip.FPS)
		}
	}
	if total > 60<<20 {
		t.Errorf("the corpus is %.1f MB, more than 60 MB", float64(total)/(1<<20))
	}
}

// Mode resume continues a stroke log: the log's header seats the players,
// the referee plays on from its state, and a log that does not end where
// the clip starts is refused with what differs.
func TestResumeContext(t *testing.T) {
	dir := t.TempDir()
	spec := `fps: 30
arrangement:
  positions: {W1: [150, -170], B1: [-210, 60], Q: [-130, -140]}
timeline:
  - strike: {side: S, at: 60, direction: pot W1 NE, speed: 1.8, aim_time: 0.5}
expect:
  pocketed: [W1@NE]
  context: {mode: resume, log: so-far.log}
`
	head := "profile icf\nplayer S Asha\nplayer N Ravi\nbreak N\n\nN - nobreak\nN www\nN -\nS bb\nS b\nS -\nN ww\nN w\nN -\nS bbb\nS -\nN w\nN -\nS bb\nS -\n"
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	sp := func() *Spec {
		s, err := LoadSpec(write("clip.yaml", spec))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	// Board 1 under way, Ravi (white) with two men on the board and to
	// strike; the arrangement has one white and S strikes: refused.
	write("so-far.log", head)
	if _, err := Setup(sp()); err == nil || !strings.Contains(err.Error(), "does not end where the clip starts") {
		t.Errorf("mismatched log: %v", err)
	}
	// Board 2, Asha white with one man left, 8 blacks pocketed, the queen
	// on the board, Asha to strike: accepted, and judged on from there.
	write("so-far.log", "profile icf\nplayer S Asha\nplayer N Ravi\nbreak N\n\n"+
		"N - nobreak\nN 9w\nS 4w\nS 4w\nS -\nN 8b\nN -\n")
	s, err := Simulate(sp(), render.BeyondFoulLine)
	if err != nil {
		t.Fatal(err)
	}
	if s.Setup.Mode != ModeResume || s.Setup.Teams != [2]string{"Asha", "Ravi"} || s.Setup.Log == "" {
		t.Errorf("setup %+v", s.Setup)
	}
	j := s.Judgement
	if j.Final == nil || len(j.Rejected) > 0 {
		t.Fatalf("final %v rejected %v", j.Final, j.Rejected)
	}
	// Asha's last man: the board is hers.
	if j.Final.Board != 3 || j.Final.Teams[0].BoardsWon != 1 {
		t.Errorf("final %+v", j.Final)
	}
	// A syntax error in the log names its line.
	write("so-far.log", "profile icf\nplayer S Asha\nplayer N Ravi\nbreak N\n\nN wx\n")
	if _, err := Setup(sp()); err == nil || !strings.Contains(err.Error(), "line 6") {
		t.Errorf("bad log: %v", err)
	}
	// resume needs a log and only resume takes one.
	if _, err := ParseSpec([]byte(strings.Replace(spec, ", log: so-far.log", "", 1)), "x.yaml"); err == nil || !strings.Contains(err.Error(), "needs a log") {
		t.Errorf("resume without a log: %v", err)
	}
}
