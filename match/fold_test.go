package match

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/referee"
	"github.com/boardcam/boardcam/rules"
)

// foldScene is h10 at 8x slower as the keeper sees it: frames missing
// while W1 moved, a stroke_end whose start was not seen (held: p1), then
// more frames missing and the tracker's word that the striker came to
// rest mid-board with no stroke seen: the same stroke, said twice.
func foldScene(t *testing.T, dir string) (string, []Observation) {
	t.Helper()
	unseen := func(frame, from, to int, id, why string) events.Event {
		return events.Event{Type: events.StrokeEnd, Frame: frame, T: float64(frame) / 30,
			Pieces: []events.PieceAt{{Piece: board.Striker, ID: "S", MM: events.MM{-187, 194}}},
			Doubts: []events.Doubt{{Kind: events.DoubtStartUnseen, Frames: [2]int{from, to}, IDs: []string{id}, Reason: why}}}
	}
	e1 := unseen(94, 59, 61, "W1", "frames 59–61 were not analysed and no stroke was seen, but the board changed: W1 moved")
	e2 := unseen(126, 114, 118, "S", "S was seen from frame 114 and came to rest at (-187, 194) mm at frame 118, off every base line, while no stroke was seen: a stroke may have been missed")
	path := filepath.Join(dir, "fold.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for _, e := range []events.Event{e1, e2} {
		b, _ := e.Marshal()
		w.Write(append(b, '\n'))
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	g1 := referee.Gap{After: 58, Before: 62, Missing: 3, Moved: true, IDs: []string{"W1"}, Reason: "frames 59–61 were not analysed (2 dropped: the analysis fell behind) while W1 was moving"}
	g2 := referee.Gap{After: 111, Before: 114, Missing: 2, Moved: true, IDs: []string{"S", "W1"}, Reason: "frames 112–113 were not analysed (1 dropped: the analysis fell behind) while S was moving"}
	return path, []Observation{{Frame: 62, Gap: &g1}, {Frame: 94, Events: []events.Event{e1}}, {Frame: 114, Gap: &g2}, {Frame: 126, Events: []events.Event{e2}}}
}

func foldConfig(t *testing.T) Config {
	cfg := testConfig(t)
	cfg.Header = func() (rules.Header, error) {
		lg, err := rules.ParseLog(strings.NewReader("profile icf\nplayer S South\nplayer N North\nbreak S\nposition breaker=S turn=S white=1 black=2 queen=covered:N strokes=10\n"))
		if err != nil {
			return rules.Header{}, err
		}
		return lg.Header, nil
	}
	return cfg
}

// A second held decision for the same stroke (the referee folds it:
// referee.Decision.Folds) takes the first one's place: one pending
// decision, p1, with both reasons and one best guess, sent to the console
// again under its id; the journal says so, a restart and a replay bring
// back the same one question, and confirming it passes the turn once.
func TestFoldedDecisionReplacesHeld(t *testing.T) {
	tmp := t.TempDir()
	path, obs := foldScene(t, tmp)
	k := keeperOn(t, foldConfig(t), path, nil)
	for _, o := range obs {
		k.observe(o)
	}
	check := func(when string, pend []*pending) {
		t.Helper()
		if len(pend) != 1 {
			for _, p := range pend {
				t.Logf("%s %q: %q", p.ID, p.D.Log, p.D.Reasons())
			}
			t.Fatalf("%s: %d pending decisions, want one", when, len(pend))
		}
		p := pend[0]
		why := strings.Join(p.D.Reasons(), "; ")
		if p.ID != "p1" || !p.Held || p.D.Seat != board.S || p.D.Log != "S -" || p.D.Folds == nil || *p.D.Folds != 94 ||
			!strings.Contains(why, "W1 moved") || !strings.Contains(why, "a stroke may have been missed") {
			t.Fatalf("%s: %s %q held %v seat %s folds %v: %s", when, p.ID, p.D.Log, p.Held, p.D.Seat, p.D.Folds, why)
		}
	}
	check("live", k.pend)
	var sent []Pending
	for _, m := range drain(k) {
		if p, ok := m.(Pending); ok {
			sent = append(sent, p)
		}
	}
	if len(sent) != 2 || sent[0].ID != "p1" || sent[1].ID != "p1" || len(sent[1].Doubts) <= len(sent[0].Doubts) {
		t.Errorf("console: %+v, want p1 and then p1 again with more reasons", sent)
	}
	jf, err := ReadJournal(k.j.Path(), false)
	if err != nil {
		t.Fatal(err)
	}
	open, err := jf.Open()
	if err != nil {
		t.Fatal(err)
	}
	var ps []*pending
	for _, o := range open {
		ps = append(ps, &pending{ID: o.ID, D: o.Decision, Held: o.Held})
	}
	check("journal read back", ps)
	// A restart on the same video: caught up from the journal, the
	// referee re-derived from the events, then the umpire confirms.
	k.Close()
	cfg := foldConfig(t)
	cfg.Dir = k.Config.Dir
	k2 := keeperOn(t, cfg, path, nil)
	check("after a restart", k2.pend)
	caughtUp(k2, obs)
	check("after the catch-up", k2.pend)
	if _, err := k2.do(command{Command: Command{Name: CmdConfirm, Pending: "p1", By: "umpire"}}); err != nil {
		t.Fatal(err)
	}
	if h := k2.m.History(); len(h) != 1 || rules.FormatEvent(h[0]) != "S -" || k2.m.State().Turn != board.N || len(k2.pend) != 0 {
		t.Errorf("after confirming: history %v, turn %s, pending %d; want S - once, N to strike", h, k2.m.State().Turn, len(k2.pend))
	}
}

// When the umpire settled the first decision before the later evidence
// came, the folded decision cannot take its place: it is held on its own,
// with every reason and nothing to apply, so the turn is not passed twice.
func TestFoldedAfterSettledAppliesNothing(t *testing.T) {
	tmp := t.TempDir()
	path, obs := foldScene(t, tmp)
	k := keeperOn(t, foldConfig(t), path, nil)
	k.observe(obs[0])
	k.observe(obs[1])
	if _, err := k.do(command{Command: Command{Name: CmdConfirm, Pending: "p1", By: "umpire"}}); err != nil {
		t.Fatal(err)
	}
	k.observe(obs[2])
	k.observe(obs[3])
	if len(k.pend) != 1 {
		t.Fatalf("%d pending, want 1", len(k.pend))
	}
	p := k.pend[0]
	if p.ID != "p2" || !p.D.Uncertain() || p.D.Event() != nil || !strings.Contains(strings.Join(p.D.Notes, " "), "settled already") ||
		!strings.Contains(strings.Join(p.D.Reasons(), " "), "a stroke may have been missed") {
		t.Fatalf("%s %q uncertain %v: notes %q reasons %q", p.ID, p.D.Log, p.D.Uncertain(), p.D.Notes, p.D.Reasons())
	}
	if _, err := k.do(command{Command: Command{Name: CmdConfirm, Pending: "p2", By: "umpire"}}); err != nil {
		t.Fatal(err)
	}
	if h := k.m.History(); len(h) != 1 || k.m.State().Turn != board.N {
		t.Errorf("history %v turn %s: want one stroke, N to strike", h, k.m.State().Turn)
	}
}

// A restart between the two: the referee, re-derived from the video's
// events, folds the later evidence into the decision the journal held.
func TestFoldAfterRestart(t *testing.T) {
	tmp := t.TempDir()
	path, obs := foldScene(t, tmp)
	k := keeperOn(t, foldConfig(t), path, nil)
	k.observe(obs[0])
	k.observe(obs[1])
	k.Close()
	cfg := foldConfig(t)
	cfg.Dir = k.Config.Dir
	k2 := keeperOn(t, cfg, path, nil)
	for _, o := range obs {
		k2.observe(o) // the first two caught up with, the rest live
	}
	if len(k2.pend) != 1 || k2.pend[0].ID != "p1" || k2.pend[0].D.Folds == nil || k2.pend[0].D.Log != "S -" ||
		!strings.Contains(strings.Join(k2.pend[0].D.Reasons(), " "), "a stroke may have been missed") {
		for _, p := range k2.pend {
			t.Logf("%s %q folds %v: %q", p.ID, p.D.Log, p.D.Folds, p.D.Reasons())
		}
		t.Fatalf("after a restart between the two: %d pending, want p1 folded", len(k2.pend))
	}
}
