package match

import (
	"strings"
	"testing"
	"time"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/clock/clocktest"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/rules"
)

// These tests drive the match component directly, frame by frame, as the
// pipeline would, with the umpire's commands in between.

// byFrame groups events into observations, as the events feed does.
func byFrame(evs []events.Event) []Observation {
	var out []Observation
	for _, e := range evs {
		if n := len(out); n > 0 && out[n-1].Frame == int64(e.Frame) {
			out[n-1].Events = append(out[n-1].Events, e)
			continue
		}
		out = append(out, Observation{Frame: int64(e.Frame), Events: []events.Event{e}})
	}
	return out
}

// playUntil observes frames until one completes a decision that has a
// camera foul call, and returns the index of the next Observation.
func playUntilFoul(t *testing.T, k *Keeper, obs []Observation, from int) int {
	t.Helper()
	for i := from; i < len(obs); i++ {
		k.observe(obs[i])
		if len(k.pend) > 0 {
			return i + 1
		}
	}
	t.Fatal("no foul in the board")
	return 0
}

func cmd(name string) command { return command{Command: Command{Name: name, By: "umpire"}} }

func lastEvent(m *rules.Match) string {
	h := m.History()
	if len(h) == 0 {
		return ""
	}
	return rules.FormatEvent(h[len(h)-1])
}

// Auto mode: a decision with a foul is applied at once and listed; the
// umpire overrules it (undo and the stroke without the foul are
// journaled), undoes an event, and the journal replays to the same state.
func TestUmpireOverruleAndUndo(t *testing.T) {
	tmp := t.TempDir()
	path, evs := boardEvents(t, tmp, "autoplay-board.yaml")
	k := keeperOn(t, testConfig(t), path, nil)
	obs := byFrame(evs)
	next := playUntilFoul(t, k, obs, 0)

	p := k.pend[0]
	applied := lastEvent(k.m)
	if !strings.Contains(applied, "!") || p.Held || p.Hist != len(k.m.History()) {
		t.Fatalf("the foul stroke %q was not applied and listed: %+v", applied, p)
	}
	var sawPending bool
	for _, m := range drain(k) {
		if wp, ok := m.(Pending); ok && wp.ID == p.ID && wp.IfOverruled != "" && wp.IfConfirmed != "" {
			sawPending = true
		}
	}
	if !sawPending {
		t.Error("no pending message announced")
	}

	msg, err := k.do(command{Command: Command{Name: CmdOverrule, Pending: p.ID, Note: "the striker crossed", By: "umpire"}})
	if err != nil {
		t.Fatal(err)
	}
	corrected := lastEvent(k.m)
	if strings.Contains(corrected, "!") || !strings.HasPrefix(applied, corrected) {
		t.Errorf("overruled %q became %q (%s)", applied, corrected, msg)
	}
	if len(k.pend) != 0 {
		t.Errorf("pending after the overrule: %+v", k.pend)
	}
	var decided bool
	for _, m := range drain(k) {
		if dm, ok := m.(Decided); ok && dm.ID == p.ID && dm.Decision == DecisionOverruled {
			decided = true
		}
	}
	if !decided {
		t.Error("no decided message")
	}
	if _, err := k.do(command{Command: Command{Name: CmdConfirm, Pending: p.ID, By: "umpire"}}); err == nil {
		t.Error("a settled decision was confirmed again")
	}

	// Play on a little, then undo the last event.
	for _, o := range obs[next : next+40] {
		k.observe(o)
	}
	before := len(k.m.History())
	last := lastEvent(k.m)
	if msg, err := k.do(cmd(CmdUndo)); err != nil || !strings.Contains(msg, last) {
		t.Fatalf("undo: %q %v", msg, err)
	}
	if len(k.m.History()) != before-1 {
		t.Errorf("history %d after undo, want %d", len(k.m.History()), before-1)
	}

	jf, err := ReadJournal(k.JournalPath(), false)
	if err != nil {
		t.Fatal(err)
	}
	m, err := jf.Replay()
	if err != nil {
		t.Fatal(err)
	}
	if g, w := fingerprintOf(m.State()), fingerprintOf(k.m.State()); g != w {
		t.Errorf("journal replays to %+v, the match is %+v", g, w)
	}
	var overruledLines int
	for _, r := range jf.Records {
		if r.Meta.P == p.ID && r.Meta.By == "umpire" {
			overruledLines++
		}
	}
	if overruledLines != 2 {
		t.Errorf("%d journal lines for the overrule, want 2 (undo and the corrected stroke)", overruledLines)
	}
}

// Delay mode: decisions are held, the referee reasons on the state with
// them applied, and they apply themselves when their time comes.
func TestDelayedDecisions(t *testing.T) {
	tmp := t.TempDir()
	path, evs := boardEvents(t, tmp, "autoplay-board.yaml")
	clock := clocktest.New()
	cfg := testConfig(t)
	cfg.Decisions = DecideDelay
	cfg.Delay = (10 * time.Second)
	k := keeperOn(t, cfg, path, clock)
	obs := byFrame(evs)
	held := 0
	i := 0
	for ; i < len(obs) && held < 3; i++ {
		k.observe(obs[i])
		held = len(k.pend)
	}
	if len(k.m.History()) != 0 {
		t.Fatalf("held decisions were applied: %v", k.m.History())
	}
	if st := projected(k.m, k.pend); st.Strokes+len(st.Boards) == 0 && st.Turn == k.m.State().Turn {
		t.Errorf("the projected state does not include the held decisions: %+v", st)
	}
	due, ok := k.nextDue()
	if !ok || !due.Equal(clocktest.Epoch.Add(10*time.Second)) {
		t.Fatalf("next due %v %v", due, ok)
	}
	clock.Advance(10 * time.Second)
	k.applyDue(clock.Now())
	if len(k.pend) != 0 || len(k.m.History()) != 3 {
		t.Fatalf("after the delay: %d pending, %d applied", len(k.pend), len(k.m.History()))
	}
	// The journal has each held decision, then its application.
	jf, err := ReadJournal(k.JournalPath(), false)
	if err != nil {
		t.Fatal(err)
	}
	var pend, appl int
	for _, r := range jf.Records {
		if r.Meta.Pending != "" && r.Meta.Held && r.Meta.Decision != nil {
			pend++
		}
		if r.Event != nil && r.Meta.P != "" && r.Meta.By == "auto" {
			appl++
		}
	}
	if pend != 3 || appl != 3 {
		t.Errorf("journal: %d held, %d applied; want 3 and 3", pend, appl)
	}
	// The rest of the board: the referee's states stay consistent.
	for ; i < len(obs); i++ {
		k.observe(obs[i])
		clock.Advance(time.Second)
		k.applyDue(clock.Now())
	}
	clock.Advance(time.Minute)
	k.applyDue(clock.Now())
	_, want, _ := simBoard(t, "autoplay-board.yaml")
	if g, w := fingerprintOf(k.m.State()), fingerprintOf(want); g != w {
		t.Errorf("delayed board ends %+v, want %+v", g, w)
	}
}

// Confirm mode: nothing is applied until the umpire confirms, in order.
func TestConfirmMode(t *testing.T) {
	tmp := t.TempDir()
	path, evs := boardEvents(t, tmp, "autoplay-board.yaml")
	cfg := testConfig(t)
	cfg.Decisions = DecideConfirm
	k := keeperOn(t, cfg, path, nil)
	obs := byFrame(evs)
	for i := 0; i < len(obs) && len(k.pend) < 2; i++ {
		k.observe(obs[i])
	}
	if _, ok := k.nextDue(); ok {
		t.Error("confirm mode has a due time")
	}
	p1, p2 := k.pend[0].ID, k.pend[1].ID
	if _, err := k.do(command{Command: Command{Name: CmdConfirm, Pending: p2, By: "umpire"}}); err == nil || !strings.Contains(err.Error(), p1) {
		t.Errorf("confirming out of order: %v", err)
	}
	if _, err := k.do(command{Command: Command{Name: CmdOverrule, Pending: p1, By: "umpire"}}); err == nil || !strings.Contains(err.Error(), "no foul") {
		t.Errorf("overruling a decision without a foul: %v", err)
	}
	// A button confirms the oldest.
	if _, err := k.do(command{Command: Command{Name: CmdConfirm, By: "button"}}); err != nil {
		t.Fatal(err)
	}
	if len(k.m.History()) != 1 || k.pend[0].ID != p2 {
		t.Errorf("after confirming %s: history %v, pending %v", p1, k.m.History(), k.pend)
	}
}

// A foul the umpire declares against the striker during a stroke joins
// the stroke; after a crash, the catch-up re-declares it at the same
// point, and the match goes on exactly as without the crash.
func TestUmpireCommandsSurviveRestart(t *testing.T) {
	tmp := t.TempDir()
	path, evs := boardEvents(t, tmp, "autoplay-board.yaml")
	obs := byFrame(evs)
	// Where the 5th stroke starts.
	starts := 0
	at := -1
	for i, o := range obs {
		for _, e := range o.Events {
			if e.Type == events.StrokeStart {
				starts++
				if starts == 5 {
					at = i
				}
			}
		}
		if at >= 0 {
			break
		}
	}
	// The script: every frame, the push declared during the 5th stroke,
	// every listed decision overruled. A decision with no foul call to
	// overrule (held because the board the camera sees no longer agrees
	// with the match the overrules made: the queen back at the centre
	// while the match has her awaiting cover) is corrected to its pieces
	// struck by the seat whose turn it is. Commands before from are left
	// out (they are in the journal already).
	script := func(k *Keeper, from, upTo int) {
		for i, o := range obs[:upTo] {
			k.observe(o)
			if i < from {
				continue
			}
			if i == at {
				seat := *o.Events[0].Side
				msg, err := k.do(command{Command: Command{Name: CmdFoul, Seat: &seat, Code: string(rules.FoulPush), By: "umpire"}})
				if err != nil || !strings.Contains(msg, "joins") {
					t.Fatalf("foul during the stroke: %q %v", msg, err)
				}
			}
			if len(k.pend) > 0 {
				c := cmd(CmdOverrule)
				if p := k.pend[0]; len(p.D.Calls) == 0 {
					_, pieces, _ := strings.Cut(p.D.Log, " ")
					c.Pending = p.ID
					c.Notation = k.m.State().Turn.String() + " " + pieces
					c.Name = CmdCorrect
				}
				if _, err := k.do(c); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	// The reference: no restart.
	ref := keeperOn(t, testConfig(t), path, nil)
	script(ref, 0, len(obs))
	var push, overruled bool
	for _, e := range ref.m.History() {
		push = push || strings.Contains(rules.FormatEvent(e), "!push")
	}
	rj, err := ReadJournal(ref.JournalPath(), false)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rj.Records {
		overruled = overruled || (r.Meta.P != "" && r.Meta.By == "umpire")
	}
	if !push || !overruled {
		t.Fatalf("the reference has no push (%v) or no overrule (%v)", push, overruled)
	}

	// Crash at several points (the journal is left as it is), restart,
	// catch up, play on with the rest of the script.
	for _, cut := range []int{at + 1, len(obs) / 2, len(obs) - 3} {
		cfg := testConfig(t)
		a := keeperOn(t, cfg, path, nil)
		script(a, 0, cut)
		a.j.Close() // a crash: nothing more is written
		a.j = nil
		a.Close()

		b := keeperOn(t, a.Config, path, nil)
		if b.cu == nil || b.CatchUpUntil() < 0 {
			t.Fatalf("cut %d: no catch-up planned (until frame %d)", cut, b.CatchUpUntil())
		}
		script(b, cut, len(obs))
		if b.cu != nil {
			t.Fatalf("cut %d: still catching up at the end", cut)
		}
		if g, w := fingerprintOf(b.m.State()), fingerprintOf(ref.m.State()); g != w {
			t.Fatalf("cut %d: after the restart the match ends %+v, without it %+v", cut, g, w)
		}
		bj, err := ReadJournal(b.JournalPath(), false)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := strings.Join(eventLines(bj), "|"), strings.Join(eventLines(rj), "|"); g != w {
			t.Fatalf("cut %d: journal events\n%s\nwant\n%s", cut, g, w)
		}
	}
}

// Two daemons never write the journals of one directory.
func TestJournalDirLock(t *testing.T) {
	dir := t.TempDir()
	a, err := LockDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := LockDir(dir); err == nil || !strings.Contains(err.Error(), "another boardcam") {
		t.Errorf("second lock: %v", err)
		if b != nil {
			b.Close()
		}
	}
	a.Close()
	c, err := LockDir(dir)
	if err != nil {
		t.Errorf("after the first closed: %v", err)
	} else {
		c.Close()
	}
}

// Commands that make no sense are refused with a reason.
func TestUmpireRefusals(t *testing.T) {
	tmp := t.TempDir()
	path, _ := boardEvents(t, tmp, "autoplay-board.yaml")
	k := keeperOn(t, testConfig(t), path, nil)
	seat := board.S
	team := 1
	cases := []struct {
		c    Command
		want string
	}{
		{Command{Name: CmdUndo}, "nothing to undo"},
		{Command{Name: CmdConfirm, Pending: "p9"}, "no pending decision p9"},
		{Command{Name: CmdOverrule}, "no decision is pending"},
		{Command{Name: CmdDemand, Team: &team, Points: 1}, "no \"if demanded\" points"},
		{Command{Name: CmdFoul, Seat: &seat, Code: "striker_pocketed"}, "striker_pocketed"},
		{Command{Name: CmdFoul, Seat: &seat, Code: "nonsense"}, "does not recognise"},
	}
	for _, c := range cases {
		c.c.By = "umpire"
		if _, err := k.do(command{Command: c.c}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.c.Name, err, c.want)
		}
	}
	// A foul outside a stroke is applied at once; next_board is refused
	// once the board is in play.
	if msg, err := k.do(command{Command: Command{Name: CmdFoul, Seat: &seat, Code: string(rules.FoulTalking), By: "umpire"}}); err != nil || !strings.Contains(msg, "foul S") {
		t.Fatalf("foul: %q %v", msg, err)
	}
	if _, err := k.do(cmd(CmdNextBoard)); err != nil {
		t.Errorf("next board before any stroke: %v", err)
	}
	if _, err := k.do(command{Command: Command{Name: CmdConcede, Team: &team, By: "umpire"}}); err != nil {
		t.Fatal(err)
	}
	if st := k.m.State(); !st.MatchOver || st.Winner != 0 {
		t.Errorf("after the concession: %+v", st)
	}
	// A new match closes the journal and starts another.
	old := k.JournalPath()
	ms := &Setup{Profile: "nit-delhi", Breaker: board.E, Players: []rules.Player{{Name: "Ann", Seat: board.E, Team: 0}, {Name: "Bo", Seat: board.W, Team: 1}}}
	if _, err := k.do(command{Command: Command{Name: CmdStartMatch, Match: ms, By: "umpire"}}); err != nil {
		t.Fatal(err)
	}
	if k.JournalPath() == old || k.m.State().Profile != "nit-delhi" {
		t.Errorf("no new match: %s %s", k.JournalPath(), k.m.State().Profile)
	}
	jf, err := ReadJournal(old, false)
	if err != nil {
		t.Fatal(err)
	}
	if closed, _ := jf.Closed(); !closed {
		t.Error("the old journal is not closed")
	}
}

// Auto mode with the camera's measurement tolerance: a call within it is
// offered, not applied (the benefit of the doubt); the umpire confirms it
// and the stroke is corrected to include the foul.
func TestUmpireConfirmOffered(t *testing.T) {
	tmp := t.TempDir()
	path, evs := boardEvents(t, tmp, "autoplay-board.yaml")
	cfg := testConfig(t)
	cfg.Referee = refereeWith(1)
	k := keeperOn(t, cfg, path, nil)
	obs := byFrame(evs)
	playUntilFoul(t, k, obs, 0)
	p := k.pend[0]
	applied := lastEvent(k.m)
	if strings.Contains(applied, "!") || !p.D.Pending() {
		t.Fatalf("an offered call was applied: %q %+v", applied, p.D.Calls)
	}
	var offered Foul
	for _, m := range drain(k) {
		if f, ok := m.(Foul); ok && f.Pending == p.ID {
			offered = f
		}
	}
	if offered.Code == "" || !strings.Contains(offered.Evidence.Note, "offered") {
		t.Errorf("the offered foul was not published with its evidence: %+v", offered)
	}
	if _, err := k.do(command{Command: Command{Name: CmdConfirm, Pending: p.ID, By: "umpire"}}); err != nil {
		t.Fatal(err)
	}
	if got := lastEvent(k.m); got != applied+" !"+string(offered.Code) {
		t.Errorf("confirmed: %q, want %q", got, applied+" !"+offered.Code)
	}
	if st := k.m.State(); len(st.Fouls) == 0 {
		t.Errorf("no foul in the state after the confirmation")
	}
}

// A decision is tagged with the event that completed it, not the frame's
// last event: the catch-up after a restart applies it at the same point,
// before the referee sees the frame's later events (here the next stroke's
// start, whose context is the state after the decision).
func TestDecisionTaggedWithItsEvent(t *testing.T) {
	tmp := t.TempDir()
	path, evs := boardEvents(t, tmp, "autoplay-board.yaml")
	obs := byFrame(evs)
	// Move the second stroke_start into the frame of the first stroke_end.
	var end, start = -1, -1
	for i, o := range obs {
		for _, e := range o.Events {
			if e.Type == events.StrokeEnd && end < 0 {
				end = i
			}
			if e.Type == events.StrokeStart && end >= 0 && start < 0 && i > end {
				start = i
			}
		}
	}
	merged := obs[end]
	merged.Events = append(append([]events.Event(nil), merged.Events...), obs[start].Events...)
	k := keeperOn(t, testConfig(t), path, nil)
	for _, o := range obs[:end] {
		k.observe(o)
	}
	k.observe(merged)
	jf, err := ReadJournal(k.JournalPath(), false)
	if err != nil {
		t.Fatal(err)
	}
	r := jf.Records[len(jf.Records)-1]
	if r.Event == nil || r.Meta.F == nil || *r.Meta.F != merged.Frame || r.Meta.E != len(obs[end].Events) {
		t.Errorf("the first stroke is tagged f=%v e=%d, want f=%d e=%d (the stroke_end, not the frame's last event %d)",
			r.Meta.F, r.Meta.E, merged.Frame, len(obs[end].Events), len(merged.Events))
	}
}
