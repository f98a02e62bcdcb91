package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/referee"
	"github.com/boardcam/boardcam/referee/refsim"
	"github.com/boardcam/boardcam/rules"
	"github.com/boardcam/boardcam/sim"
)

func init() {
	register(command{Name: "referee", Summary: "judge physical events (fouls with evidence) and keep the score", Run: cmdReferee})
}

const refereeHelp = `
Read physical events as JSON lines (the output of 'boardcam simulate --json'
or 'boardcam analyze --json'; "-" reads standard input), judge every stroke
with the referee (fouls with their evidence: positions, frames, the rule
broken, the margin and a confidence) and apply the decisions to the rules
engine, which keeps the score.

Output, one of:
  (default)  each decision in words, with its evidence and the state after it
  --json     each decision as a JSON line, with "accepted" or "rejected"
  --log      the stroke log the rules engine accepted (docs/stroke-log.md),
             evidence as comments, so that
             boardcam simulate --json X | boardcam referee --log - | boardcam score -
             replays the match

Seating: --players S=Ravi,N=Meena (singles, opposite seats) or four seats
(doubles: partners opposite; --teams names the two pairs, the pair of the
first player listed first). Without --players the seats are read from the
sides that strike in the whole input (two opposite sides: singles; more:
doubles) and named after the sides. --breaker defaults to the side of the
first stroke.

--play SCENARIO.yaml plays a simulator scenario (docs/scenarios.md) instead
of reading events, with the rules engine deciding whose turn it is and what
goes back on the board (the simulator's own turn policy knows no fouls); the
scenario must start from the opening arrangement. Its events are then
refereed as above.

Calls closer than --tolerance mm to the boundary they depend on are
low-confidence: offered to the umpire, not applied, unless
--apply-low-confidence. Use --tolerance 0 --time-tolerance 0 for the
simulator's exact ground truth. Decisions the rules engine rejects (a
stroke out of turn, events starting in the middle of a board) are reported
and skipped; the exit status is then 1. docs/referee.md describes every
foul.
`

func cmdReferee(ctx context.Context, args []string, s stdio) error {
	r, err := parseReferee(args, s)
	if err != nil {
		return err
	}
	src, name, closeSrc, err := r.source(ctx, s)
	if err != nil {
		return err
	}
	defer closeSrc()
	ahead, err := readAhead(src, r.seating == nil, r.breaker == nil)
	if err != nil {
		return err
	}
	return r.judge(ctx, src, name, ahead, s)
}

// refereeRun is a referee command's options, read from its flags.
type refereeRun struct {
	prof             *rules.Profile
	format           string
	cfg              referee.Config
	boardFile        string // the --board given (else the ICF board, or the scenario's)
	seating          *rules.Header
	breaker          *board.Side
	play             string // a simulator scenario to play instead of reading events
	seed             int64
	events           string // the events file, - for standard input
	json, log, state bool
}

// parseReferee reads the referee command's flags.
func parseReferee(args []string, s stdio) (*refereeRun, error) {
	fs := newFlags("referee", "[flags] EVENTS.jsonl|- (or --play SCENARIO.yaml)", refereeHelp, s)
	profileName := fs.String("profile", "icf", "rule profile: "+strings.Join(rules.ProfileNames(), ", "))
	format := fs.String("format", "", "match format of the profile (default: the profile's first)")
	players := fs.String("players", "", "seats and names: S=Ravi,N=Meena (or four for doubles)")
	teams := fs.String("teams", "", "doubles team names: Blue,Red")
	brk := fs.String("breaker", "", "`seat` of the player who breaks the first board (default: the first stroke's side)")
	alias(fs, "break", "breaker")
	boardFile := fs.String("board", "", "board description YAML (default: the ICF board)")
	tol := fs.Float64("tolerance", referee.DefaultTolerance, "measurement noise in mm: closer calls are low-confidence")
	ttol := fs.Float64("time-tolerance", referee.DefaultTimeTolerance, "seconds within which two striker contacts count as simultaneous")
	applyLow := fs.Bool("apply-low-confidence", false, "apply low-confidence calls instead of offering them to the umpire")
	asJSON := fs.Bool("json", false, "print each decision as a JSON line")
	withState := fs.Bool("state", false, "with --json: add the match state after each decision")
	asLog := fs.Bool("log", false, "print the stroke log the rules engine accepted")
	play := fs.String("play", "", "play this simulator scenario under the rules instead of reading events")
	seed := fs.Int64("seed", -1, "with --play: replace the scenario's seed (≥ 0)")
	if err := parseFlags(fs, args); err != nil {
		return nil, err
	}
	switch {
	case *play != "" && fs.NArg() != 0:
		return nil, usageError("--play takes the place of the events file")
	case *play == "" && fs.NArg() != 1:
		return nil, usageError("referee takes one events file (or - for standard input), got %d arguments", fs.NArg())
	case *play == "" && *seed != -1:
		return nil, usageError("--seed goes with --play")
	case *seed < -1:
		return nil, usageError("--seed must not be negative")
	}
	if *asJSON && *asLog {
		return nil, usageError("--json and --log exclude each other")
	}
	r := &refereeRun{format: *format, boardFile: *boardFile, play: *play, seed: *seed, events: fs.Arg(0),
		json: *asJSON, log: *asLog, state: *withState}
	var err error
	if r.prof, err = rules.ProfileByName(*profileName); err != nil {
		return nil, usageError("--profile: %v", err)
	}
	if _, err := r.prof.Format(*format); err != nil {
		return nil, usageError("--format: %v", err)
	}
	r.cfg = referee.DefaultConfig(r.prof)
	r.cfg.Tolerance, r.cfg.TimeTolerance, r.cfg.ApplyLowConfidence = *tol, *ttol, *applyLow
	if *boardFile != "" {
		g, err := board.Load(*boardFile)
		if err != nil {
			return nil, err
		}
		r.cfg.Geometry = g
	}
	if err := r.cfg.Validate(); err != nil {
		return nil, usageError("%v", err)
	}
	r.seating, err = parsePlayers(*players, *teams)
	if errors.Is(err, rules.ErrTeamNames) {
		return nil, usageError("--teams: %v", err)
	} else if err != nil {
		return nil, usageError("--players: %v", err)
	}
	if *brk != "" {
		b, err := board.ParseSide(*brk)
		if err != nil {
			return nil, usageError("--breaker: %v", err)
		}
		r.breaker = &b
	}
	return r, nil
}

// source opens the events: the file (or standard input), or the events of
// the scenario played (which also gives the seating and the breaker).
func (r *refereeRun) source(ctx context.Context, s stdio) (src eventSource, name string, closeSrc func(), err error) {
	closeSrc = func() {}
	if r.play != "" {
		sc, err := sim.Load(r.play)
		if err != nil {
			return nil, "", nil, err
		}
		if r.boardFile == "" {
			r.cfg.Geometry = sc.Geometry // the scenario's board
		}
		played, err := playScenario(ctx, sc, r.seed, r.prof.Name, r.format, r.seating, r.breaker, r.cfg)
		if err != nil {
			return nil, "", nil, err
		}
		r.seating, r.breaker = played.header, &played.header.Break
		return played, r.play, closeSrc, nil
	}
	if r.events == "-" {
		return newEventReader(s.In, "standard input"), "standard input", closeSrc, nil
	}
	f, err := os.Open(r.events)
	if err != nil {
		return nil, "", nil, err
	}
	return newEventReader(f, r.events), r.events, func() { f.Close() }, nil
}

// readAhead reads as far as needed to infer what the flags left out: the
// whole input for the seating (every side that strikes), up to the first
// stroke for the breaker.
func readAhead(src eventSource, seating, breaker bool) ([]lineEvent, error) {
	var ahead []lineEvent
	if !seating && !breaker {
		return nil, nil
	}
	for {
		le, err := src.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		ahead = append(ahead, le)
		if seating {
			continue
		}
		if le.ev.Type == events.StrokeStart {
			break
		}
	}
	return ahead, nil
}

// judge feeds the events (those read ahead first) to the referee, applies
// its decisions under the rules and prints them.
func (r *refereeRun) judge(ctx context.Context, src eventSource, name string, ahead []lineEvent, s stdio) error {
	ref, err := referee.New(r.cfg)
	if err != nil {
		return usageError("%v", err)
	}
	h, err := matchHeader(r.prof.Name, r.format, r.seating, r.breaker, ahead)
	if err != nil {
		return usageError("%v", err)
	}
	m, err := rules.NewMatch(h)
	if err != nil {
		return usageError("%v", err)
	}
	out := bufio.NewWriter(s.Out)
	defer out.Flush()
	pr := &refPrinter{w: out, json: r.json, log: r.log, state: r.state, m: m}
	pr.header(h, name)
	rejected, decisions := 0, 0
	// lastAt and lastHist: the frame of the last decision applied and the
	// match history's length right after it (a folded decision replaces
	// it: referee.Decision.Folds).
	lastAt, lastHist := -1, -1
	handle := func(le lineEvent) error {
		decs, err := ref.Observe(le.ev, m.State())
		if err != nil {
			return fmt.Errorf("%s:%d: %w", name, le.line, err)
		}
		for i := range decs {
			d := &decs[i]
			decisions++
			var rej error
			if d.Folds != nil {
				// It replaces the last decision applied, or, when that is
				// another, applies nothing (the turn passes once).
				if *d.Folds == lastAt && len(m.History()) == lastHist && m.Undo() == nil {
					pr.undone(d)
				} else {
					*d = d.Unfolded()
				}
			}
			if ev := d.Event(); ev != nil {
				rej = m.Apply(ev)
				if rej != nil {
					rejected++
				} else {
					lastAt, lastHist = d.Frame, len(m.History())
				}
			}
			if err := pr.decision(d, rej); err != nil {
				return err
			}
		}
		return nil
	}
	for _, le := range ahead {
		if err := handle(le); err != nil {
			return err
		}
	}
	for n := 1; ; n++ {
		if n%1000 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		le, err := src.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		if err := handle(le); err != nil {
			return err
		}
	}
	pr.footer(ref.InStroke(), src.skippedLines())
	if err := out.Flush(); err != nil {
		return err
	}
	if rejected > 0 {
		return fmt.Errorf("the rules engine rejected %d of %d decisions (see the output)", rejected, decisions)
	}
	return nil
}

// eventSource yields events one by one, io.EOF at the end.
type eventSource interface {
	next() (lineEvent, error)
	skippedLines() int
}

// playedEvents are the events of a scenario played under the rules.
type playedEvents struct {
	evs    []lineEvent
	header *rules.Header
}

func (p *playedEvents) next() (lineEvent, error) {
	if len(p.evs) == 0 {
		return lineEvent{}, io.EOF
	}
	le := p.evs[0]
	p.evs = p.evs[1:]
	return le, nil
}

func (p *playedEvents) skippedLines() int { return 0 }

// playScenario plays a scenario with the rules engine as the simulator's
// turn policy (referee/refsim) and returns its events.
func playScenario(ctx context.Context, sc *sim.Scenario, seed int64, profile, format string, seating *rules.Header, breaker *board.Side, cfg referee.Config) (*playedEvents, error) {
	h := refsim.DefaultHeader(sc, profile)
	if seating != nil {
		h.Players, h.Teams = seating.Players, seating.Teams
	}
	if breaker != nil && *breaker != sc.Breaker {
		return nil, usageError("--breaker %s: the scenario's breaker is %s", *breaker, sc.Breaker)
	}
	h.Format = format
	if err := h.Validate(); err != nil {
		return nil, usageError("--players: %v (the scenario has %d players, %s breaking)", err, sc.Players, sc.Breaker)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var opt sim.Options
	if seed >= 0 {
		v := uint64(seed)
		opt.Seed = &v
	}
	res, err := refsim.Play(sc, h, cfg, opt)
	if err != nil {
		return nil, err
	}
	p := &playedEvents{header: &h}
	for i, e := range res.Trace.Events {
		p.evs = append(p.evs, lineEvent{line: i + 1, ev: e})
	}
	return p, nil
}

// lineEvent is one event and the input line it came from.
type lineEvent struct {
	line int
	ev   events.Event
}

// eventReader reads events from JSON lines, skipping blank lines and the
// scene lines of 'boardcam simulate --frames'.
type eventReader struct {
	sc      *bufio.Scanner
	name    string
	line    int
	skipped int
}

func newEventReader(r io.Reader, name string) *eventReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	return &eventReader{sc: sc, name: name}
}

func (er *eventReader) skippedLines() int { return er.skipped }

func (er *eventReader) next() (lineEvent, error) {
	for er.sc.Scan() {
		er.line++
		b := bytes.TrimSpace(er.sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var head struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal(b, &head); err != nil {
			return lineEvent{}, fmt.Errorf("%s:%d: not a JSON event: %v", er.name, er.line, err)
		}
		if head.Type == "scene" {
			er.skipped++
			continue
		}
		var e events.Event
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&e); err != nil {
			return lineEvent{}, fmt.Errorf("%s:%d: %s event: %v", er.name, er.line, head.Type, err)
		}
		if err := e.Validate(); err != nil {
			return lineEvent{}, fmt.Errorf("%s:%d: %v", er.name, er.line, err)
		}
		return lineEvent{line: er.line, ev: e}, nil
	}
	if err := er.sc.Err(); err != nil {
		return lineEvent{}, fmt.Errorf("%s:%d: %w", er.name, er.line+1, err)
	}
	return lineEvent{}, io.EOF
}

// parsePlayers reads "S=Ravi,N=Meena" (and team names for doubles). It
// returns nil when no players are given.
func parsePlayers(spec, teams string) (*rules.Header, error) {
	if strings.TrimSpace(spec) == "" {
		if teams != "" {
			return nil, errors.New("--teams needs --players")
		}
		return nil, nil
	}
	var names []string
	if teams != "" {
		names = strings.Split(teams, ",")
	}
	h := &rules.Header{}
	if _, err := h.Seat(strings.Split(spec, ","), names); err != nil {
		return nil, err
	}
	return h, nil
}

// matchHeader completes the header from the events read ahead.
func matchHeader(profile, format string, seating *rules.Header, breaker *board.Side, ahead []lineEvent) (rules.Header, error) {
	var first *board.Side
	sides := map[board.Side]bool{}
	for _, le := range ahead {
		if le.ev.Type == events.StrokeStart {
			if first == nil {
				s := *le.ev.Side
				first = &s
			}
			sides[*le.ev.Side] = true
		}
	}
	var h rules.Header
	if seating != nil {
		h = *seating
	} else {
		f := board.S
		if breaker != nil {
			f = *breaker
		} else if first != nil {
			f = *first
		}
		doubles := false
		for s := range sides {
			doubles = doubles || (s != f && s != f.Opposite())
		}
		h.Players, h.Teams = rules.SeatBySide(f, doubles)
	}
	h.Profile, h.Format = profile, format
	switch {
	case breaker != nil:
		h.Break = *breaker
	case first != nil:
		h.Break = *first
	default:
		h.Break = h.Players[0].Seat
	}
	if err := h.Validate(); err != nil {
		return h, fmt.Errorf("seating: %w", err)
	}
	return h, nil
}

// refPrinter writes the decisions in the chosen form.
type refPrinter struct {
	w                *bufio.Writer
	json, log, state bool
	m                *rules.Match
}

func (p *refPrinter) header(h rules.Header, src string) {
	switch {
	case p.log:
		fmt.Fprintf(p.w, "# boardcam referee: decisions from %s\n", src)
		p.w.WriteString(rules.FormatHeader(h))
		p.w.WriteByte('\n')
	case !p.json:
		fmt.Fprintf(p.w, "%s (%s): %s\n", p.m.Profile().Title, p.m.Profile().Name, strings.Join(seatList(h), ", "))
	}
}

func seatList(h rules.Header) []string {
	var out []string
	for _, pl := range h.Players {
		s := fmt.Sprintf("%s at %s", pl.Name, pl.Seat)
		if pl.Seat == h.Break {
			s += " (breaks)"
		}
		out = append(out, s)
	}
	return out
}

// jsonDecision is a decision line of --json.
type jsonDecision struct {
	referee.Decision
	Accepted *bool        `json:"accepted,omitempty"`
	Rejected string       `json:"rejected,omitempty"`
	State    *rules.State `json:"state,omitempty"`
}

func (p *refPrinter) decision(d *referee.Decision, rej error) error {
	hasEvent := d.Event() != nil
	switch {
	case p.json:
		jd := jsonDecision{Decision: *d}
		if hasEvent {
			ok := rej == nil
			jd.Accepted = &ok
			if rej != nil {
				jd.Rejected = rej.Error()
			}
		}
		if p.state {
			st := p.m.State()
			jd.State = &st
		}
		b, err := json.Marshal(jd)
		if err != nil {
			return fmt.Errorf("referee: frame %d: %w", d.Frame, err)
		}
		p.w.Write(b)
		p.w.WriteByte('\n')
	case p.log:
		p.logLine(d, rej)
	default:
		p.text(d, rej)
	}
	return nil
}

func (p *refPrinter) logLine(d *referee.Decision, rej error) {
	var comments []string
	for _, c := range d.Calls {
		switch c.Status {
		case referee.Offered:
			comments = append(comments, fmt.Sprintf("offered to the umpire: !%s (%s)", c.Foul, callWords(c)))
		case referee.Applied, referee.Confirmed, referee.Derived:
			comments = append(comments, fmt.Sprintf("%s: %s", c.Foul, callWords(c)))
		}
	}
	for _, n := range d.Notes {
		comments = append(comments, n)
	}
	ev := d.Event()
	switch {
	case ev == nil:
		for _, c := range comments {
			fmt.Fprintf(p.w, "# frame %d: %s\n", d.Frame, oneLine(c))
		}
		return
	case rej != nil:
		fmt.Fprintf(p.w, "# rejected at frame %d: %s\n", d.Frame, oneLine(rej.Error()))
		for _, c := range comments {
			fmt.Fprintf(p.w, "#   %s\n", oneLine(c))
		}
		return
	}
	fmt.Fprintf(p.w, "%s  # frame %d\n", rules.FormatEvent(ev), d.Frame)
	for _, c := range comments {
		fmt.Fprintf(p.w, "#   %s\n", oneLine(c))
	}
}

// undone says that the decision before d was taken back: d, folded into
// it, replaces it.
func (p *refPrinter) undone(d *referee.Decision) {
	why := fmt.Sprintf("the decision of frame %d is replaced by the next one: later evidence of the same stroke (frame %d) folded into it", *d.Folds, d.Frame)
	switch {
	case p.json:
	case p.log:
		fmt.Fprintf(p.w, "%s  # %s\n", rules.FormatEvent(rules.Undo{}), why)
	default:
		fmt.Fprintf(p.w, "    undone: %s\n", why)
	}
}

func oneLine(s string) string { return strings.ReplaceAll(s, "\n", " ") }

func callWords(c referee.Call) string {
	s := c.Reason
	if c.Margin != nil {
		s += fmt.Sprintf("; margin %.2f mm", *c.Margin)
	}
	s += fmt.Sprintf("; confidence %.2f", c.Confidence)
	if c.LowConfidence {
		s += " (low)"
	}
	return s + "; " + c.Rule
}

func (p *refPrinter) text(d *referee.Decision, rej error) {
	ev := d.Event()
	what := string(d.Kind)
	if ev != nil {
		what += ": " + rules.FormatEvent(ev)
	}
	status := ""
	switch {
	case ev == nil:
	case rej != nil:
		status = "  REJECTED: " + rej.Error()
	default:
		status = "  accepted"
	}
	fmt.Fprintf(p.w, "board %d, frame %d (%.2f s)  %s%s\n", d.Board, d.Frame, d.T, what, status)
	for _, c := range d.Calls {
		fmt.Fprintf(p.w, "    foul %s against %s [%s]: %s\n", c.Foul, c.Seat, c.Status, callWords(c))
	}
	for _, n := range d.Notes {
		fmt.Fprintf(p.w, "    note: %s\n", n)
	}
	if ev != nil && rej == nil {
		st := p.m.State()
		fmt.Fprintf(p.w, "    → %s\n", stateWords(st))
	}
}

func stateWords(st rules.State) string {
	if st.MatchOver {
		return fmt.Sprintf("match over: %s wins, %d–%d", st.Teams[st.Winner].Name, st.Teams[0].Score, st.Teams[1].Score)
	}
	var parts []string
	parts = append(parts, fmt.Sprintf("board %d, %s to strike", st.Board, st.Turn))
	for _, t := range st.Teams {
		s := fmt.Sprintf("%s (%s) %d on the board", t.Name, t.Colour, t.OnBoard)
		if t.AwaitingPlacement > 0 {
			s += fmt.Sprintf(", %d to place", t.AwaitingPlacement)
		}
		if t.Owed > 0 {
			s += fmt.Sprintf(", %d owed", t.Owed)
		}
		parts = append(parts, s)
	}
	parts = append(parts, "queen "+strings.ReplaceAll(string(st.Queen.Status), "_", " "))
	parts = append(parts, fmt.Sprintf("score %d–%d", st.Teams[0].Score, st.Teams[1].Score))
	return strings.Join(parts, "; ")
}

func (p *refPrinter) footer(inStroke bool, skipped int) {
	st := p.m.State()
	var lines []string
	if inStroke {
		lines = append(lines, "the input ended during a stroke (no stroke_end): that stroke is not judged")
	}
	for _, b := range st.Boards {
		w := "nobody (replayed)"
		if b.Winner >= 0 {
			w = st.Teams[b.Winner].Name
		}
		lines = append(lines, fmt.Sprintf("board %d: %s won %d points: %s (%s)", b.Board, w, b.Points, b.Reason, b.Rule))
	}
	lines = append(lines, "final: "+stateWords(st))
	switch {
	case p.json:
		// The decisions say it all; the state is the last line's.
	case p.log:
		for _, l := range lines {
			fmt.Fprintf(p.w, "# %s\n", oneLine(l))
		}
	default:
		fmt.Fprintln(p.w)
		for _, l := range lines {
			fmt.Fprintln(p.w, l)
		}
		if skipped > 0 {
			fmt.Fprintf(p.w, "(%d scene lines skipped)\n", skipped)
		}
	}
}
