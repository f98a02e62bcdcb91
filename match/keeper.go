package match

import (
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/clock"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/referee"
	"github.com/boardcam/boardcam/rules"
)

// Observation is what the analysis hands the keeper for one frame.
type Observation struct {
	Frame    int64
	Captured time.Time
	Events   []events.Event
	// Gap, when set, are frames before this one that were not analysed
	// (see referee.Gap): the referee learns them before the frame's events.
	Gap *referee.Gap
}

// pos is a position in the stream: after E events of frame F.
type pos struct {
	F int64
	E int
}

func (a pos) less(b pos) bool { return a.F < b.F || (a.F == b.F && a.E < b.E) }

var noPos = pos{F: -1}

// pending is an automatic decision put before the umpire.
type pending struct {
	ID string
	D  referee.Decision
	// Held: not applied until decided (delay, confirm); else applied and
	// listed for review, Hist being the length of the match history right
	// after it (0 for a decision whose event is empty: offered fouls only).
	Held  bool
	Hist  int
	Due   time.Time
	Frame int64
	// Queued (decisions: auto): a decision the camera is sure of, held
	// only because an uncertain one before it waits for the umpire; it
	// applies itself once everything before it is settled as decided.
	Queued bool
}

// command is an umpire command on its way to the keeper.
type command struct {
	Command
	reply chan cmdResult
}

type cmdResult struct {
	msg string
	err error
}

// state is what the keeper's goroutine owns: the referee, the match, the
// journal and the pending decisions. Nothing else touches them while Run
// runs.
type state struct {
	log     *slog.Logger
	clock   clock.Clock
	metrics Metrics
	mode    string
	delay   time.Duration

	j       *Journal
	m       *rules.Match
	ref     *referee.Referee
	pend    []*pending
	nextP   int
	last    pos // the last position observed
	from    pos // positions up to here belong to an earlier match
	stream  int
	session int
	cu      *catchUp
	pockets []time.Time
	// failed: the last commit failed.
	failed bool
	// gapNoticed: frames missed since the last decision were announced.
	gapNoticed bool
	// folds are the held decisions replaced by folded ones since the last
	// commit, as they were (put back when the commit fails).
	folds []folded
}

// catchUp re-derives the referee's state after a restart on a replayable
// source: the frames up to the journal's last position are analysed
// again and the referee observes their events against the match as it
// was then (a shadow match rebuilt from the journal), its decisions
// discarded; the journal's records stand.
type catchUp struct {
	until pos
	recs  []Record
	m     *rules.Match
	pend  []*pending
}

func (k *Keeper) newReferee() error {
	ref, err := referee.New(k.refereeConfig(k.m.Profile()))
	if err != nil {
		return err
	}
	k.ref = ref
	k.pockets = nil
	return nil
}

// projected is the state the referee reasons on: the match with the held
// decisions applied.
func projected(m *rules.Match, pend []*pending) rules.State {
	n := 0
	for _, p := range pend {
		if !p.Held {
			continue
		}
		if ev := p.D.Event(); ev != nil && m.Apply(ev) == nil {
			n++
		}
	}
	st := m.State()
	for ; n > 0; n-- {
		_ = m.Undo()
	}
	return st
}

// applyRecord applies one journal record to a match and its pending list
// (at start-up for the live match, during catch-up for the shadow).
func applyRecord(m *rules.Match, pend *[]*pending, r Record) error {
	mt := r.Meta
	if r.Event != nil {
		if err := m.Apply(r.Event); err != nil {
			return err
		}
		if mt.P != "" {
			removePending(pend, mt.P)
		}
	}
	if mt.Folded != "" && mt.Decision != nil {
		for _, p := range *pend {
			if p.ID == mt.Folded {
				p.D = *mt.Decision
			}
		}
	}
	if mt.Pending != "" && mt.Decision != nil {
		p := &pending{ID: mt.Pending, D: *mt.Decision, Held: mt.Held, Hist: mt.Hist, Queued: mt.Queued}
		if mt.Due != nil {
			p.Due = *mt.Due
		}
		if mt.F != nil {
			p.Frame = *mt.F
		}
		*pend = append(*pend, p)
	}
	for _, id := range []string{mt.Confirmed, mt.Overruled, mt.Withdrawn, mt.Corrected} {
		if id != "" {
			removePending(pend, id)
		}
	}
	for _, id := range mt.Wait {
		for _, p := range *pend {
			if p.ID == id {
				p.Queued, p.Due = false, time.Time{}
			}
		}
	}
	return nil
}

func removePending(pend *[]*pending, id string) {
	for i, p := range *pend {
		if p.ID == id {
			*pend = append((*pend)[:i], (*pend)[i+1:]...)
			return
		}
	}
}

func (k *Keeper) find(id string) (*pending, int) {
	for i, p := range k.pend {
		if p.ID == id {
			return p, i
		}
	}
	return nil, -1
}

// tagged sets the stream position on lines.
func (k *Keeper) tagged(lines []Line) []Line {
	now := k.clock.Now().UTC()
	for i := range lines {
		if lines[i].Meta.F == nil {
			f := k.last.F
			lines[i].Meta.F = &f
			lines[i].Meta.E = k.last.E
		}
		if i == len(lines)-1 {
			lines[i].Meta.T = &now
		}
	}
	return lines
}

// commit writes lines to the journal. On failure the caller undoes what it
// applied in memory.
func (k *Keeper) commit(lines []Line) error {
	if len(lines) == 0 {
		return nil
	}
	start := time.Now()
	err := k.j.Commit(k.tagged(lines))
	k.metrics.JournalCommit(time.Since(start))
	if err != nil {
		k.failed = true
		k.log.Error("journal write failed: the decision is not recorded", "journal", k.j.Path(), "err", err)
		return err
	}
	if k.failed {
		k.failed = false
		k.log.Info("journal writes again", "journal", k.j.Path())
	}
	return nil
}

func (k *Keeper) stateChange(prev rules.State, msgs []Item, captured time.Time, pockets []time.Time) {
	st := k.m.State()
	msgs = append(msgs, Score{st})
	k.announce(Announcement{Items: msgs, State: &st, Prev: &prev, Captured: captured, Pockets: pockets})
}

func notice(level, format string, a ...any) Item {
	return Notice{Text: fmt.Sprintf(format, a...), Level: level}
}

// observe handles one analysed frame.
func (k *Keeper) observe(o Observation) {
	if g := o.Gap; g != nil && k.from.less(pos{o.Frame, 0}) {
		k.unseen(*g, o.Frame)
	}
	if len(o.Events) == 0 {
		if k.last.less(pos{o.Frame, 0}) {
			k.last = pos{o.Frame, 0}
		}
		return
	}
	var lines []Line
	var after []Announcement
	var applied int
	prev := k.m.State()
	var decidedPockets []time.Time
	completed := false
	for i, ev := range o.Events {
		p := pos{o.Frame, i + 1}
		if !k.from.less(p) {
			continue // an earlier match's part of the stream
		}
		if k.cu != nil {
			if !k.cu.until.less(p) {
				k.catchUpObserve(ev, p)
				continue
			}
			k.finishCatchUp("")
		}
		k.last = p
		if ev.Type == events.Pocketed && ev.Piece != nil {
			k.pockets = append(k.pockets, o.Captured)
			pk := ""
			if ev.Pocket != nil {
				pk = " in " + ev.Pocket.String()
			}
			n := Notice{Text: fmt.Sprintf("%s pocketed%s (frame %d)", pieceName(ev), pk, ev.Frame), Level: LevelInfo,
				Pocketed: &PocketedPiece{ID: ev.ID, Kind: *ev.Piece, Pocket: ev.Pocket, Frame: int64(ev.Frame)}}
			after = append(after, Announcement{Items: []Item{n}, Captured: o.Captured})
		}
		ds, err := k.ref.Observe(ev, projected(k.m, k.pend))
		if err != nil {
			k.log.Warn("referee: event refused", "frame", ev.Frame, "err", err)
			after = append(after, Announcement{Items: []Item{notice("warning", "%v", err)}})
			continue
		}
		for _, d := range ds {
			n, ls, as := k.decide(d, o.Frame)
			for i := range ls {
				f := p.F
				ls[i].Meta.F, ls[i].Meta.E = &f, p.E // decided after the referee saw event p
			}
			applied += n
			lines = append(lines, ls...)
			after = append(after, as...)
			if d.Kind == referee.KindStroke {
				decidedPockets = append(decidedPockets, k.pockets...)
				k.pockets = nil
			}
			if d.Kind != referee.KindInfo {
				completed = true
			}
		}
	}
	if k.last.less(pos{o.Frame, len(o.Events)}) && k.cu == nil {
		k.last = pos{o.Frame, len(o.Events)}
	}
	if len(lines) > 0 {
		if err := k.commit(lines); err != nil {
			for ; applied > 0; applied-- {
				_ = k.m.Undo()
			}
			k.pend = k.pend[:len(k.pend)-countNewPending(lines)]
			k.unfold()
			k.announce(Announcement{Items: []Item{notice("warning", "the journal cannot be written (%v): the decisions of frame %d were not recorded; enter them by hand once the disk is fixed", err, o.Frame)}})
			return
		}
		k.folds = nil
		if completed {
			k.metrics.Latency(PathJournal, FromFrame, k.clock.Now().Sub(o.Captured))
			for _, pc := range decidedPockets {
				k.metrics.Latency(PathJournal, FromPocket, k.clock.Now().Sub(pc))
			}
		}
	}
	for _, a := range after {
		k.announce(a)
	}
	if applied > 0 {
		st := k.m.State()
		k.announce(Announcement{Items: []Item{Score{st}}, State: &st, Prev: &prev, Captured: o.Captured, Pockets: decidedPockets})
	}
}

func countNewPending(lines []Line) int {
	n := 0
	for _, l := range lines {
		if l.Meta.Pending != "" {
			n++
		}
	}
	return n
}

func pieceName(e events.Event) string {
	if e.ID != "" {
		return e.ID
	}
	if e.Piece != nil {
		return e.Piece.String()
	}
	return "a piece"
}

// decide handles one decision of the referee: it applies it (auto) or
// holds it (delay, confirm), and returns how many events it applied, the
// journal lines and the announcements.
func (k *Keeper) decide(d referee.Decision, frame int64) (int, []Line, []Announcement) {
	kind := string(d.Kind)
	if d.Kind != referee.KindInfo {
		k.gapNoticed = false
	}
	if d.Kind == referee.KindInfo {
		k.metrics.Decision(kind, "info")
		return 0, nil, []Announcement{{Items: []Item{notice("info", "%s", strings.Join(d.Notes, "; "))}}}
	}
	if d.Folds != nil {
		if lines, as, ok := k.fold(d); ok {
			return 0, lines, as
		}
		d = d.Unfolded()
	}
	var msgs []Item
	ev := d.Event()
	// An uncertain decision waits for the umpire in every mode; in auto
	// mode the sure ones after it wait behind it (the match is played in
	// order), and apply themselves once it is settled.
	uncertain := d.Uncertain()
	queued := k.mode == DecideAuto && !uncertain && k.firstHeld() != nil
	if k.mode != DecideAuto || uncertain || queued {
		p := k.newPending(d, frame, true)
		p.Queued = queued
		if k.mode == DecideDelay && !uncertain {
			p.Due = k.clock.Now().Add(k.delay)
		}
		k.pend = append(k.pend, p)
		outcome := "pending"
		switch {
		case uncertain:
			outcome = "uncertain"
			k.log.Warn("uncertain decision held for the umpire", "pending", p.ID, "kind", kind, "seat", d.Seat.String(),
				"best_guess", orDash(d.Log), "why", strings.Join(d.Reasons(), "; "))
		case queued:
			outcome = "queued"
		}
		k.metrics.Decision(kind, outcome)
		meta := Meta{Pending: p.ID, Held: true, Queued: queued, Decision: &p.D, By: "auto"}
		if !p.Due.IsZero() {
			due := p.Due.UTC()
			meta.Due = &due
		}
		msgs = append(msgs, k.pendingMsg(p))
		return 0, []Line{{Meta: meta}}, []Announcement{{Items: msgs}}
	}
	// Auto: apply at once; list the decision for review when a camera
	// call may be confirmed or overruled.
	var lines []Line
	n := 0
	review := hasReviewableCalls(d)
	var id string
	if review {
		id = k.nextID()
	}
	if ev != nil {
		if err := k.m.Apply(ev); err != nil {
			k.metrics.Decision(kind, "rejected")
			k.log.Warn("rules engine refused the referee's decision", "decision", d.Log, "err", err)
			text := fmt.Sprintf("the rules engine refused %q: %v — enter the right outcome by hand", d.Log, err)
			return 0, []Line{{Meta: Meta{Rejected: d.Log, Note: err.Error(), By: "auto"}}}, []Announcement{{Items: []Item{notice("warning", "%s", text)}}}
		}
		n = 1
		lines = append(lines, Line{Event: ev, Meta: Meta{By: "auto"}})
		k.metrics.Decision(kind, "applied")
	} else {
		k.metrics.Decision(kind, "offered")
	}
	if d.Kind == referee.KindStroke {
		msgs = append(msgs, k.strokeMsg(d, id))
	}
	msgs = append(msgs, k.foulMsgs(d, id, true)...)
	if review {
		p := &pending{ID: id, D: d, Frame: frame}
		if ev != nil {
			p.Hist = len(k.m.History())
		}
		k.pend = append(k.pend, p)
		lines = append(lines, Line{Meta: Meta{Pending: id, Hist: p.Hist, Decision: &p.D, By: "auto"}})
		msgs = append(msgs, k.pendingMsg(p))
	}
	return n, lines, []Announcement{{Items: msgs}}
}

// hasReviewableCalls: a camera call the umpire may confirm or overrule.
func hasReviewableCalls(d referee.Decision) bool {
	for _, c := range d.Calls {
		if c.Source == referee.SourceCamera && (c.Status == referee.Applied || c.Status == referee.Offered) {
			return true
		}
	}
	return false
}

func (k *Keeper) nextID() string {
	k.nextP++
	return "p" + strconv.Itoa(k.nextP)
}

func (k *Keeper) newPending(d referee.Decision, frame int64, held bool) *pending {
	return &pending{ID: k.nextID(), D: d, Held: held, Frame: frame}
}

// catchUpObserve feeds the referee an event already decided before the
// restart, against the shadow match.
func (k *Keeper) catchUpObserve(ev events.Event, p pos) {
	cu := k.cu
	k.applyShadowBefore(p)
	if _, err := k.ref.Observe(ev, projected(cu.m, cu.pend)); err != nil {
		k.log.Debug("catch-up: referee refused an event", "frame", ev.Frame, "err", err)
	}
	k.applyShadowUpTo(p)
	k.last = p
}

// applyShadowBefore applies the records written before position p.
func (k *Keeper) applyShadowBefore(p pos) {
	k.applyShadow(func(t pos) bool { return t.less(p) })
}

// applyShadowUpTo applies the records written at or before position p.
func (k *Keeper) applyShadowUpTo(p pos) {
	k.applyShadow(func(t pos) bool { return !p.less(t) })
}

func (k *Keeper) applyShadow(ok func(pos) bool) {
	cu := k.cu
	for len(cu.recs) > 0 {
		r := cu.recs[0]
		f, e := r.tag()
		if !ok(pos{f, e}) {
			return
		}
		cu.recs = cu.recs[1:]
		if uf := r.Meta.UmpireFoul; uf != nil {
			if _, err := k.ref.Umpire(uf.Seat, uf.Fouls, int(f), 0, projected(cu.m, cu.pend)); err != nil {
				k.log.Warn("catch-up: umpire foul", "line", r.Line, "err", err)
			}
		}
		if err := applyRecord(cu.m, &cu.pend, r); err != nil {
			k.log.Warn("catch-up: journal record does not apply to the shadow match", "line", r.Line, "err", err)
		}
	}
}

// finishCatchUp ends the catch-up; why is set when the source ended first.
func (k *Keeper) finishCatchUp(why string) {
	cu := k.cu
	if cu == nil {
		return
	}
	k.applyShadow(func(pos) bool { return true })
	k.cu = nil
	if why != "" {
		k.log.Warn("catch-up incomplete: the journal's state is kept", "why", why)
		return
	}
	a, b := fmt.Sprintf("%+v", cu.m.State()), fmt.Sprintf("%+v", k.m.State())
	if a != b {
		k.log.Warn("catch-up: the re-derived match differs from the journal's; the journal's stands")
	}
	k.log.Info("caught up with the journal", "frame", k.last.F)
}

// pictureLost is told when the camera stalls or disconnects. A stroke in
// progress is not abandoned: when the picture returns the analysis
// reports the gap (see analyze), and the stroke is held for the umpire.
func (k *Keeper) pictureLost() {
	if k.ref != nil && k.ref.InStroke() {
		st := k.m.State()
		k.log.Warn("the picture was lost during a stroke: it will be held for the umpire", "turn", st.Turn.String())
		k.announce(Announcement{Items: []Item{notice("warning", "the camera was lost during %s's stroke: its outcome will wait for the umpire", st.Turn)}})
	}
}

// unseen hands the referee frames that were not analysed.
func (k *Keeper) unseen(g referee.Gap, frame int64) {
	k.ref.Unseen(g)
	k.metrics.Gap(g.Moved)
	if k.cu != nil {
		return
	}
	switch {
	case (g.Moved || k.ref.InStroke()) && !k.gapNoticed:
		// The first run of frames missed before a decision is told at
		// once; the decision, held, carries them all.
		k.gapNoticed = true
		k.log.Warn("frames not analysed", "after", g.After, "before", g.Before, "moved", strings.Join(g.IDs, " "), "why", g.Reason)
		k.announce(Announcement{Items: []Item{notice("warning", "%s: the decision it concerns will wait for the umpire", g.Reason)}})
	default:
		k.log.Debug("frames not analysed", "after", g.After, "before", g.Before, "moved", strings.Join(g.IDs, " "), "why", g.Reason)
	}
}

// flush ends the referee's stream at the end of a video: a stroke in
// progress, or pieces moved in frames not analysed with no decision
// after, go to the umpire.
func (k *Keeper) flush() {
	if k.ref == nil {
		return
	}
	prev := k.m.State()
	var lines []Line
	var after []Announcement
	applied := 0
	for _, d := range k.ref.Flush(projected(k.m, k.pend)) {
		n, ls, as := k.decide(d, k.last.F)
		applied += n
		lines = append(lines, ls...)
		after = append(after, as...)
	}
	if len(lines) == 0 {
		return
	}
	if err := k.commit(lines); err != nil {
		for ; applied > 0; applied-- {
			_ = k.m.Undo()
		}
		k.pend = k.pend[:len(k.pend)-countNewPending(lines)]
		return
	}
	for _, a := range after {
		k.announce(a)
	}
	if applied > 0 {
		k.stateChange(prev, nil, time.Time{}, nil)
	}
}

// applyQueued applies the sure decisions queued behind uncertain ones
// once everything before them is settled (decisions: auto).
func (k *Keeper) applyQueued() {
	for {
		p := k.firstHeld()
		if p == nil || !p.Queued {
			return
		}
		if _, err := k.resolve(p, asDecided, "auto", "applied once the decisions before it were settled"); err != nil {
			k.log.Warn("queued decision", "pending", p.ID, "err", err)
			if q, _ := k.find(p.ID); q != nil {
				q.Queued = false // left to the umpire
				return
			}
		}
	}
}

// holdQueued stops the queued decisions from applying themselves: the
// umpire settled the one before them otherwise than the referee guessed,
// and they were decided on that guess.
func (k *Keeper) holdQueued(after string) {
	var ids []string
	for _, p := range k.pend {
		if p.Held && (p.Queued || !p.Due.IsZero()) {
			p.Queued, p.Due = false, time.Time{}
			ids = append(ids, p.ID)
		}
	}
	if len(ids) == 0 {
		return
	}
	why := fmt.Sprintf("decided on %s as the referee guessed it, which the umpire changed: confirm or correct", after)
	if err := k.commit([]Line{{Meta: Meta{Wait: ids, By: "auto", Note: why}}}); err != nil {
		k.log.Warn("journal: cannot record the queued decisions waiting", "err", err)
	}
	k.announce(Announcement{Items: []Item{notice("warning", "%s %s: %s", strings.Join(ids, ", "), map[bool]string{true: "wait", false: "waits"}[len(ids) > 1], why)}})
	for _, id := range ids {
		if p, _ := k.find(id); p != nil {
			k.announce(Announcement{Items: []Item{k.pendingMsg(p)}})
		}
	}
}

// applyDue applies the delayed decisions whose time has come.
func (k *Keeper) applyDue(now time.Time) {
	for len(k.pend) > 0 {
		p := k.firstHeld()
		if p == nil || p.Due.IsZero() || p.Due.After(now) {
			return
		}
		if _, err := k.resolve(p, asDecided, "auto", fmt.Sprintf("applied as decided after %s without objection", k.delay)); err != nil {
			k.log.Warn("delayed decision", "pending", p.ID, "err", err)
			removePending(&k.pend, p.ID)
		}
	}
}

func (k *Keeper) firstHeld() *pending {
	for _, p := range k.pend {
		if p.Held {
			return p
		}
	}
	return nil
}

// nextDue is the earliest time a held decision applies itself.
func (k *Keeper) nextDue() (time.Time, bool) {
	p := k.firstHeld()
	if p == nil || p.Due.IsZero() {
		return time.Time{}, false
	}
	return p.Due, true
}

// How a pending decision is settled.
const (
	overrule  = iota // the camera's calls are taken out
	confirm          // its offered calls join the event
	asDecided        // as the referee decided (a delay ran out)
)

// resolve settles pending decision p.
func (k *Keeper) resolve(p *pending, how int, by, note string) (string, error) {
	d := p.D // a copy to change
	d.Calls = append([]referee.Call(nil), p.D.Calls...)
	verdict := DecisionOverruled
	if how != overrule {
		verdict = DecisionConfirmed
	}
	for i := range d.Calls {
		c := &d.Calls[i]
		if c.Source != referee.SourceCamera || c.Status == referee.Derived {
			continue
		}
		if how == confirm && c.Status == referee.Offered {
			_ = d.Confirm(c.Foul)
		}
		if how == overrule && (c.Status == referee.Applied || c.Status == referee.Offered) {
			_ = d.Overrule(c.Foul)
		}
	}
	prev := k.m.State()
	v := verdictRun{p: p, d: &d, how: how, verdict: verdict, by: by, note: note}
	var err error
	switch {
	case p.Held:
		err = k.resolveHeld(&v)
	case p.Hist == 0:
		err = k.resolveOffered(&v)
	default:
		err = k.resolveApplied(&v)
	}
	if err != nil {
		return "", err
	}
	removePending(&k.pend, p.ID)
	if err := k.commit(v.lines); err != nil {
		k.rollback(v.lines, p.D.Event())
		k.pend = append(k.pend, p)
		sortPending(k.pend)
		return "", err
	}
	k.log.Info("pending decision settled", "pending", p.ID, "decision", verdict, "by", by, "event", d.Log)
	msgs := []Item{Decided{ID: p.ID, Decision: verdict, By: by, Note: note}}
	if v.applied > 0 {
		if d.Kind == referee.KindStroke && p.Held {
			msgs = append(msgs, k.strokeMsg(d, ""))
		}
		msgs = append(msgs, k.foulMsgs(d, "", false)...)
		k.stateChange(prev, msgs, time.Time{}, nil)
	} else {
		k.announce(Announcement{Items: msgs})
	}
	if p.Held && d.Log != p.D.Log {
		k.holdQueued(p.ID)
	}
	return v.msg, nil
}

// verdictRun is one umpire's verdict on a pending decision being carried
// out: the decision as the verdict changed it (d), and what resolve's cases
// give back: the journal lines, the message, the events applied.
type verdictRun struct {
	p                 *pending
	d                 *referee.Decision
	how               int
	verdict, by, note string

	lines   []Line
	msg     string
	applied int
}

// verdictLine journals the verdict alone (nothing applied).
func (v *verdictRun) verdictLine() {
	v.lines = append(v.lines, Line{Meta: metaVerdict(v.p.ID, v.how != overrule, v.by, v.note)})
}

// eventLine journals ev applied with the verdict.
func (v *verdictRun) eventLine(ev rules.Event) {
	v.applied++
	v.lines = append(v.lines, Line{Event: ev, Meta: Meta{P: v.p.ID, By: v.by, Note: v.verdict + ": " + v.note}})
}

// resolveHeld applies a held decision (the first held only): its event,
// or withdraws it when the rules engine refuses it.
func (k *Keeper) resolveHeld(v *verdictRun) error {
	p, d := v.p, v.d
	if first := k.firstHeld(); first != p {
		return fmt.Errorf("%s is still pending before %s: decide it first", first.ID, p.ID)
	}
	if v.how == overrule && !hasReviewableCalls(p.D) {
		return fmt.Errorf("%s has no foul call to overrule: confirm it (and undo it afterwards if the outcome is wrong)", p.ID)
	}
	ev := d.Event()
	if ev == nil {
		v.verdictLine()
		v.msg = fmt.Sprintf("%s %s: nothing to apply", v.verdict, p.ID)
		return nil
	}
	if err := k.m.Apply(ev); err != nil {
		lines := []Line{{Meta: Meta{Withdrawn: p.ID, Rejected: d.Log, Note: err.Error(), By: v.by}}}
		removePending(&k.pend, p.ID)
		if cerr := k.commit(lines); cerr != nil {
			k.pend = append(k.pend, p)
			return cerr
		}
		k.announce(Announcement{Items: []Item{Decided{ID: p.ID, Decision: DecisionWithdrawn, By: v.by, Note: err.Error()},
			notice("warning", "the rules engine refused %s (%s): %v", p.ID, d.Log, err)}})
		return fmt.Errorf("the rules engine refused %s: %v", d.Log, err)
	}
	v.eventLine(ev)
	v.msg = fmt.Sprintf("%s %s: %s", v.verdict, p.ID, d.Log)
	return nil
}

// resolveOffered settles a decision that offered fouls only (nothing was
// applied): a confirmation applies its event.
func (k *Keeper) resolveOffered(v *verdictRun) error {
	p, d := v.p, v.d
	if ev := d.Event(); ev != nil && v.how == confirm {
		if err := k.m.Apply(ev); err != nil {
			return fmt.Errorf("the rules engine refuses %s: %v", d.Log, err)
		}
		v.eventLine(ev)
		v.msg = fmt.Sprintf("confirmed %s: %s", p.ID, d.Log)
		return nil
	}
	v.verdictLine()
	v.msg = fmt.Sprintf("%s %s", v.verdict, p.ID)
	return nil
}

// resolveApplied settles a decision applied already: the event is
// corrected (undone and applied again) if the verdict changes it.
func (k *Keeper) resolveApplied(v *verdictRun) error {
	p, d := v.p, v.d
	before, after := p.D.Log, d.Log
	if before == after {
		v.verdictLine()
		v.msg = fmt.Sprintf("%s %s: %s stands", v.verdict, p.ID, before)
		return nil
	}
	if h := len(k.m.History()); h != p.Hist {
		return fmt.Errorf("%s (%s) is not the last event any more (%d applied since): undo them first", p.ID, before, h-p.Hist)
	}
	if err := k.m.Undo(); err != nil {
		return err
	}
	v.lines = append(v.lines, Line{Event: rules.Undo{}, Meta: Meta{P: p.ID, By: v.by, Note: "correcting " + before}})
	if ev := d.Event(); ev != nil {
		if err := k.m.Apply(ev); err != nil {
			_ = k.m.Apply(p.D.Event())
			return fmt.Errorf("the rules engine refuses the corrected %s: %v", after, err)
		}
		v.eventLine(ev)
	} else {
		v.lines[len(v.lines)-1].Meta.Note = v.verdict + ": " + v.note
	}
	v.applied++ // the undo
	v.msg = fmt.Sprintf("%s %s: %s instead of %s", v.verdict, p.ID, orDash(after), before)
	return nil
}

// correct settles pending decision id with the events the umpire enters
// instead of the referee's (stroke-log lines, separated by newlines or
// ";"; none: nothing happened). A held decision must be the first held;
// one applied already must be the match's last event (it is undone).
func (k *Keeper) correct(id, notation, by, note string) (string, error) {
	p, _ := k.find(id)
	if p == nil {
		return "", fmt.Errorf("no pending decision %s", id)
	}
	var evs []rules.Event
	var texts []string
	for _, l := range strings.FieldsFunc(notation, func(r rune) bool { return r == '\n' || r == ';' }) {
		if strings.TrimSpace(l) == "" {
			continue
		}
		ev, err := rules.ParseEvent(l)
		if err != nil {
			return "", fmt.Errorf("%q: %v", strings.TrimSpace(l), err)
		}
		if _, ok := ev.(rules.Undo); ok {
			return "", errors.New("undo is a command of its own, not a correction")
		}
		evs = append(evs, ev)
		texts = append(texts, rules.FormatEvent(ev))
	}
	prev := k.m.State()
	var lines []Line
	applied := 0
	fail := func(err error) (string, error) {
		for ; applied > 0; applied-- {
			_ = k.m.Undo()
		}
		return "", err
	}
	if p.Held {
		if first := k.firstHeld(); first != p {
			return "", fmt.Errorf("%s is still pending before %s: decide it first", first.ID, p.ID)
		}
	} else {
		if p.Hist == 0 {
			return "", fmt.Errorf("%s applied nothing: settle it with confirm or overrule, or enter the events with a correction of a held decision", p.ID)
		}
		if h := len(k.m.History()); h != p.Hist {
			return "", fmt.Errorf("%s (%s) is not the last event any more (%d applied since): undo them first", p.ID, p.D.Log, h-p.Hist)
		}
		undone := k.m.History()[p.Hist-1]
		if err := k.m.Undo(); err != nil {
			return "", err
		}
		lines = append(lines, Line{Event: rules.Undo{}, Meta: Meta{P: p.ID, By: by, Note: "correcting " + p.D.Log}})
		fail = func(err error) (string, error) {
			for ; applied > 0; applied-- {
				_ = k.m.Undo()
			}
			_ = k.m.Apply(undone)
			return "", err
		}
	}
	for _, ev := range evs {
		if err := k.m.Apply(ev); err != nil {
			var ie *rules.IllegalEventError
			if errors.As(err, &ie) {
				err = fmt.Errorf("%s: %s", ie.Event, ie.Reason)
			}
			return fail(err)
		}
		applied++
		lines = append(lines, Line{Event: ev, Meta: Meta{P: p.ID, By: by, Note: "corrected: " + note}})
	}
	if len(evs) == 0 {
		lines = append(lines, Line{Meta: Meta{Corrected: p.ID, By: by, Note: note}})
	}
	if err := k.commit(lines); err != nil {
		return fail(err)
	}
	removePending(&k.pend, p.ID)
	what := strings.Join(texts, "; ")
	k.log.Info("pending decision corrected", "pending", p.ID, "by", by, "guess", orDash(p.D.Log), "events", orDash(what))
	msgs := []Item{Decided{ID: p.ID, Decision: DecisionCorrected, By: by, Note: strings.TrimSpace("entered: " + orDash(what) + "; " + note)}}
	if applied > 0 || !p.Held {
		k.stateChange(prev, msgs, time.Time{}, nil)
	} else {
		k.announce(Announcement{Items: msgs})
	}
	if p.Held && what != p.D.Log {
		k.holdQueued(p.ID)
	}
	return fmt.Sprintf("corrected %s: %s instead of %s", p.ID, orDash(what), orDash(p.D.Log)), nil
}

// rollback reverts in memory the events of lines that could not be
// journaled; undone is the event an undo line took back.
func (k *Keeper) rollback(lines []Line, undone rules.Event) {
	for i := len(lines) - 1; i >= 0; i-- {
		switch lines[i].Event.(type) {
		case nil:
		case rules.Undo:
			if undone != nil {
				_ = k.m.Apply(undone)
			}
		default:
			_ = k.m.Undo()
		}
	}
}

func orDash(s string) string {
	if s == "" {
		return "nothing"
	}
	return s
}

func sortPending(ps []*pending) {
	sort.SliceStable(ps, func(i, j int) bool {
		a, _ := strconv.Atoi(strings.TrimPrefix(ps[i].ID, "p"))
		b, _ := strconv.Atoi(strings.TrimPrefix(ps[j].ID, "p"))
		return a < b
	})
}

func metaVerdict(id string, confirm bool, by, note string) Meta {
	if confirm {
		return Meta{Confirmed: id, By: by, Note: note}
	}
	return Meta{Overruled: id, By: by, Note: note}
}

// do carries out an umpire command.
func (k *Keeper) do(c command) (string, error) {
	if k.cu != nil {
		return "", errors.New("boardcam is catching up with its journal after a restart; try again in a moment")
	}
	by := c.By
	note := c.Note
	switch c.Name {
	case CmdConfirm, CmdOverrule:
		if c.Pending == "" { // a hardware button: the oldest pending decision
			if len(k.pend) == 0 {
				return "", errors.New("no decision is pending")
			}
			c.Pending = k.pend[0].ID
		}
		p, _ := k.find(c.Pending)
		if p == nil {
			return "", fmt.Errorf("no pending decision %s", c.Pending)
		}
		how := overrule
		if c.Name == CmdConfirm {
			how = confirm
		}
		msg, err := k.resolve(p, how, by, note)
		if err == nil {
			k.applyQueued()
		}
		return msg, err
	case CmdCorrect:
		msg, err := k.correct(c.Pending, c.Notation, by, note)
		if err == nil {
			k.applyQueued()
		}
		return msg, err
	case CmdUndo:
		return k.undo(by, note)
	case CmdFoul:
		return k.foul(*c.Seat, rules.Foul(c.Code), by, note)
	case CmdDemand:
		st := k.m.State()
		if st.Demand == nil {
			return "", errors.New("there are no \"if demanded\" points to take now")
		}
		if st.Demand.Team != *c.Team {
			return "", fmt.Errorf("the \"if demanded\" points are %s's, not %s's", st.Teams[st.Demand.Team].Name, st.Teams[*c.Team].Name)
		}
		return k.applyUmpire(rules.DemandPoints{Points: c.Points}, by, note)
	case CmdConcede:
		st := k.m.State()
		for _, p := range st.Players {
			if p.Team == *c.Team {
				return k.applyUmpire(rules.Concede{Seat: p.Seat, Match: true}, by, note)
			}
		}
		return "", fmt.Errorf("nobody plays in team %d", *c.Team)
	case CmdReplayBoard:
		msg, err := k.applyUmpire(rules.Replay{}, by, note)
		if err == nil {
			_ = k.newReferee()
		}
		return msg, err
	case CmdNextBoard:
		st := k.m.State()
		if st.MatchOver {
			return "", errors.New("the match is over: start a new match")
		}
		if st.Strokes > 0 {
			return "", fmt.Errorf("board %d is in play (%d strokes): it ends by the rules, or by replay_board or a concession", st.Board, st.Strokes)
		}
		if err := k.commit([]Line{{Meta: Meta{By: by, Note: fmt.Sprintf("board %d set up", st.Board)}}}); err != nil {
			return "", err
		}
		_ = k.newReferee()
		k.announce(Announcement{Items: []Item{notice("info", "board %d: the pieces are set up; %s breaks", st.Board, st.Breaker)}})
		return fmt.Sprintf("board %d ready", st.Board), nil
	case CmdStartMatch:
		return k.startMatch(c.Match, by)
	case CmdCalibrate:
		if k.Calibrate == nil {
			return "", errors.New("manual calibration needs a camera source")
		}
		if len(c.CornersPx) != 4 {
			return "", errors.New("calibrate needs four corners")
		}
		var cs [4][2]float64
		copy(cs[:], c.CornersPx)
		if err := k.Calibrate(cs); err != nil {
			return "", fmt.Errorf("calibration: %v", err)
		}
		return "calibrated from the four corners", nil
	}
	return "", fmt.Errorf("unknown command %q", c.Name)
}

// applyUmpire applies and journals an umpire's event.
func (k *Keeper) applyUmpire(ev rules.Event, by, note string) (string, error) {
	prev := k.m.State()
	if err := k.m.Apply(ev); err != nil {
		var ie *rules.IllegalEventError
		if errors.As(err, &ie) {
			return "", fmt.Errorf("%s: %s", ie.Event, ie.Reason)
		}
		return "", err
	}
	if err := k.commit([]Line{{Event: ev, Meta: Meta{By: by, Note: note}}}); err != nil {
		_ = k.m.Undo()
		return "", err
	}
	text := rules.FormatEvent(ev)
	k.log.Info("umpire", "event", text, "by", by)
	k.stateChange(prev, []Item{notice("info", "umpire: %s", text)}, time.Time{}, nil)
	return text, nil
}

func (k *Keeper) undo(by, note string) (string, error) {
	h := k.m.History()
	if len(h) == 0 {
		return "", errors.New("nothing to undo")
	}
	last := rules.FormatEvent(h[len(h)-1])
	prev := k.m.State()
	if err := k.m.Undo(); err != nil {
		return "", err
	}
	lines := []Line{{Event: rules.Undo{}, Meta: Meta{By: by, Note: note}}}
	var withdrawn []*pending
	for _, p := range k.pend {
		if !p.Held && p.Hist > len(h)-1 {
			withdrawn = append(withdrawn, p)
			lines = append(lines, Line{Meta: Meta{Withdrawn: p.ID, By: by, Note: "its event was undone"}})
		}
	}
	if err := k.commit(lines); err != nil {
		_ = k.m.Apply(h[len(h)-1])
		return "", err
	}
	msgs := []Item{notice("info", "undo: %s", last)}
	for _, p := range withdrawn {
		removePending(&k.pend, p.ID)
		msgs = append(msgs, Decided{ID: p.ID, Decision: DecisionWithdrawn, By: by, Note: "its event was undone"})
	}
	k.log.Info("umpire undo", "event", last, "by", by)
	k.stateChange(prev, msgs, time.Time{}, nil)
	return "undone: " + last, nil
}

// foul declares a foul: against the striker during a stroke it joins the
// stroke's decision; otherwise it is applied at once.
func (k *Keeper) foul(seat board.Side, f rules.Foul, by, note string) (string, error) {
	ds, err := k.ref.Umpire(seat, []rules.Foul{f}, int(k.last.F), 0, projected(k.m, k.pend))
	if err != nil {
		return "", errors.New(strings.TrimPrefix(err.Error(), "referee: umpire: "))
	}
	if len(ds) == 0 {
		if err := k.commit([]Line{{Meta: Meta{UmpireFoul: &UmpireFoul{Seat: seat, Fouls: []rules.Foul{f}}, By: by, Note: note}}}); err != nil {
			return "", err
		}
		k.announce(Announcement{Items: []Item{notice("info", "umpire: foul %s against %s, part of the stroke in progress", f, seat)}})
		return fmt.Sprintf("%s against %s joins the stroke in progress", f, seat), nil
	}
	var out []string
	for _, d := range ds {
		ev := d.Event()
		if ev == nil {
			continue
		}
		msg, err := k.applyUmpire(ev, by, note)
		if err != nil {
			return "", err
		}
		out = append(out, msg)
	}
	return strings.Join(out, "; "), nil
}

// startMatch closes the journal and starts a new match.
func (k *Keeper) startMatch(ms *Setup, by string) (string, error) {
	h := rules.Header{Profile: ms.Profile, Break: ms.Breaker, Players: append([]rules.Player(nil), ms.Players...)}
	h.Teams = rules.TeamsOf(h.Players)
	if err := h.Validate(); err != nil {
		return "", err
	}
	m, err := rules.NewMatch(h)
	if err != nil {
		return "", err
	}
	if err := k.commit([]Line{{Meta: Meta{Closed: "a new match was started", By: by}}}); err != nil {
		return "", err
	}
	j, err := CreateJournal(k.Config.Dir, h, k.clock.Now())
	if err != nil {
		return "", err
	}
	old := k.j
	k.j = j
	old.Close()
	k.m = m
	k.pend = nil
	k.nextP = 0
	k.from = k.last
	k.stream, k.session = 1, 1
	f := k.last.F
	if err := k.commit([]Line{{Meta: Meta{Session: 1, Source: k.Config.Source, Replayable: k.Config.Source != "", Stream: 1, From: &f, FromE: k.last.E}}}); err != nil {
		return "", err
	}
	_ = k.newReferee()
	k.log.Info("new match", "journal", j.Path(), "profile", h.Profile, "teams", h.Teams[0]+" v "+h.Teams[1], "by", by)
	k.announceNewMatch()
	return fmt.Sprintf("new match: %s v %s (%s)", h.Teams[0], h.Teams[1], h.Profile), nil
}

// closeAtEnd marks the journal finished when the video ended.
func (k *Keeper) closeAtEnd(why string) {
	if err := k.commit([]Line{{Meta: Meta{End: "eof", Closed: why}}}); err != nil {
		k.log.Warn("journal: cannot mark the end of the video", "err", err)
	}
}

// The items of decisions.

func (k *Keeper) playerName(seat board.Side) string {
	if p, ok := k.m.Header().PlayerAt(seat); ok {
		return p.Name
	}
	return seat.String()
}

func (k *Keeper) strokeMsg(d referee.Decision, pendingID string) Item {
	s := Stroke{Seat: d.Seat, Player: k.playerName(d.Seat), Frame: int64(d.Frame), Notation: d.Log, Pending: pendingID}
	if o := d.Stroke; o != nil {
		s.Pocketed = Pocketed{White: o.White, Black: o.Black, Queen: o.Queen, Striker: o.Striker}
		for _, j := range o.Jumped {
			id := j.ID
			if id == "" {
				id = j.Piece.String()
			}
			s.Overboard = append(s.Overboard, id)
		}
	}
	for _, c := range d.Calls {
		if c.Status == referee.Applied || c.Status == referee.Confirmed || c.Status == referee.Derived {
			s.Fouls = append(s.Fouls, string(c.Foul))
		}
	}
	return s
}

// foulMsgs are the decision's calls in force (and, when offered is set,
// those offered to the umpire too).
func (k *Keeper) foulMsgs(d referee.Decision, pendingID string, offered bool) []Item {
	var out []Item
	for _, c := range d.Calls {
		in := c.Status == referee.Applied || c.Status == referee.Confirmed || c.Status == referee.Derived
		if !in && !(offered && c.Status == referee.Offered) {
			continue
		}
		out = append(out, foulOf(c, pendingID))
	}
	return out
}

func foulOf(c referee.Call, pendingID string) Foul {
	src := SourceAuto
	if c.Source == referee.SourceUmpire {
		src = SourceUmpire
	}
	f := Foul{Code: string(c.Foul), Rule: c.Rule, Text: c.Summary, Seat: c.Seat, Frame: int64(c.Frame), Source: src, Pending: pendingID}
	note := c.Reason
	if c.Status == referee.Offered {
		note += fmt.Sprintf(" (offered to the umpire: confidence %.2f)", c.Confidence)
	}
	f.Evidence.Note = note
	ev := c.Evidence
	if ev.Striker != nil {
		f.Evidence.Positions = append(f.Evidence.Positions, Position{ID: "S", Kind: board.Striker, MM: [2]float64(*ev.Striker)})
	}
	if ev.PieceMM != nil && ev.Piece != "" {
		kind, _ := board.KindOfID(ev.Piece)
		f.Evidence.Positions = append(f.Evidence.Positions, Position{ID: ev.Piece, Kind: kind, MM: [2]float64(*ev.PieceMM)})
	}
	if ev.PieceMM != nil && ev.Piece == "" && c.Foul == rules.FoulHandOverFoulLine {
		h := [2]float64(*ev.PieceMM)
		f.Evidence.HandMM = &h
	}
	f.Evidence.Marking, f.Evidence.MarginMM = ev.Marking, c.Margin
	f.Evidence.Confidence, f.Evidence.LowConfidence = c.Confidence, c.LowConfidence
	f.Evidence.Contacts = ev.Contacts
	for _, fr := range ev.Frames {
		f.Evidence.Frames = append(f.Evidence.Frames, int64(fr))
	}
	return f
}

func (k *Keeper) pendingMsg(p *pending) Pending {
	d := p.D
	wp := Pending{ID: p.ID, Frame: int64(d.Frame)}
	if d.Kind == referee.KindStroke {
		s := k.strokeMsg(d, p.ID).(Stroke)
		wp.Stroke = &s
	}
	for _, m := range k.foulMsgs(d, p.ID, true) {
		wp.Fouls = append(wp.Fouls, m.(Foul))
	}
	conf, over := d, d
	conf.Calls = append([]referee.Call(nil), d.Calls...)
	over.Calls = append([]referee.Call(nil), d.Calls...)
	var offered, applied []string
	for _, c := range d.Calls {
		if c.Source != referee.SourceCamera {
			continue
		}
		switch c.Status {
		case referee.Offered:
			offered = append(offered, string(c.Foul))
			_ = conf.Confirm(c.Foul)
			_ = over.Overrule(c.Foul)
		case referee.Applied:
			applied = append(applied, string(c.Foul))
			_ = over.Overrule(c.Foul)
		}
	}
	what := orDash(d.Log)
	for _, x := range d.Doubts {
		wp.Doubts = append(wp.Doubts, Doubt{Kind: string(x.Kind), Reason: x.Reason, Frames: x.Frames, IDs: x.IDs})
	}
	wp.Queued = p.Queued
	switch {
	case d.Uncertain():
		wp.Guess = d.Log
		wp.Summary = fmt.Sprintf("%s %s: not sure — best guess %s; waiting for the umpire: %s", d.Kind, d.Seat, what, strings.Join(d.Reasons(), "; "))
	case p.Queued:
		wp.Summary = fmt.Sprintf("%s %s: %s — applies itself once the decisions before it are settled", d.Kind, d.Seat, what)
	case p.Held:
		wp.Summary = fmt.Sprintf("%s %s: %s — waiting for the umpire", d.Kind, d.Seat, what)
	default:
		wp.Summary = fmt.Sprintf("%s %s: %s applied", d.Kind, d.Seat, what)
	}
	if len(applied) > 0 {
		wp.Summary += "; foul " + strings.Join(applied, ", ")
	}
	if len(offered) > 0 {
		wp.Summary += "; possible foul " + strings.Join(offered, ", ") + " (low confidence, not applied)"
	}
	wp.IfConfirmed = "the match records " + orDash(conf.Log)
	wp.IfOverruled = "the match records " + orDash(over.Log)
	if p.Held && p.Due.After(time.Time{}) {
		wp.Summary += fmt.Sprintf("; applies itself at %s", p.Due.Format("15:04:05"))
	}
	return wp
}
