package rules

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/boardcam/boardcam/board"
)

// The stroke log: a plain-text notation for a whole match (docs/stroke-log.md).
//
//	# comments run from # to the end of the line
//	profile icf
//	title "Club final"
//	player S Ravi
//	player N Meena
//	break S
//
//	S w           # Ravi breaks and pockets a white man
//	S -           # nothing: the turn passes
//	N bq          # a black man and the queen
//	N b           # covered
//	N s !push     # striker pocketed by an improper stroke
//	place bb      # the two black men placed back (may be omitted)
//
// Header lines (key and values) come first; then one event per line.

// Entry is one event of a log and the line it was read from.
type Entry struct {
	Line  int
	Event Event
}

// Log is a parsed stroke log.
type Log struct {
	Header  Header
	Entries []Entry
}

// LineError is an error at a line of a log.
type LineError struct {
	Line int
	Err  error
}

func (e *LineError) Error() string {
	var ie *IllegalEventError
	if errors.As(e.Err, &ie) {
		return fmt.Sprintf("line %d: %s: %s", e.Line, ie.Event, ie.Reason)
	}
	return fmt.Sprintf("line %d: %v", e.Line, e.Err)
}

func (e *LineError) Unwrap() error { return e.Err }

func lineErr(line int, format string, a ...any) error {
	return &LineError{Line: line, Err: fmt.Errorf(format, a...)}
}

// maxLine bounds the length of one log line.
const maxLine = 64 << 10

// ParseLog reads a stroke log. Errors are *LineError. A log without a
// profile line parses (the caller may supply the profile); NewMatch
// requires one.
func ParseLog(r io.Reader) (*Log, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), maxLine)
	lg := &Log{}
	var hp headerParser
	ln := 0
	inHeader := true
	for sc.Scan() {
		ln++
		text := strings.TrimSuffix(sc.Text(), "\r")
		if !utf8.ValidString(text) {
			return nil, lineErr(ln, "not valid UTF-8")
		}
		toks, err := tokenize(text)
		if err != nil {
			return nil, &LineError{Line: ln, Err: err}
		}
		if len(toks) == 0 {
			continue
		}
		key := strings.ToLower(toks[0])
		if isHeaderKey(key) {
			if !inHeader {
				return nil, lineErr(ln, "header line %q after the first event", key)
			}
			if err := hp.line(ln, key, toks[1:]); err != nil {
				return nil, err
			}
			continue
		}
		if inHeader {
			inHeader = false
			if err := hp.finish(ln); err != nil {
				return nil, err
			}
		}
		ev, err := parseEvent(toks)
		if err != nil {
			return nil, &LineError{Line: ln, Err: err}
		}
		lg.Entries = append(lg.Entries, Entry{Line: ln, Event: ev})
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, lineErr(ln+1, "line longer than %d bytes", maxLine)
		}
		return nil, fmt.Errorf("rules: read log: %w", err)
	}
	if inHeader {
		if err := hp.finish(ln + 1); err != nil {
			return nil, err
		}
	}
	lg.Header = hp.h
	return lg, nil
}

// ParseEvent reads one event line (no header lines).
func ParseEvent(line string) (Event, error) {
	if !utf8.ValidString(line) {
		return nil, errors.New("not valid UTF-8")
	}
	toks, err := tokenize(line)
	if err != nil {
		return nil, err
	}
	if len(toks) == 0 {
		return nil, errors.New("empty line")
	}
	if isHeaderKey(strings.ToLower(toks[0])) {
		return nil, fmt.Errorf("%q is a header line, not an event", toks[0])
	}
	return parseEvent(toks)
}

// tokenize splits a line into words; "double quotes" group words (and may
// hold #); # outside quotes starts a comment.
func tokenize(line string) ([]string, error) {
	var toks []string
	var cur strings.Builder
	inTok, inQuote := false, false
	for _, r := range line {
		if r != '\t' && unicode.IsControl(r) {
			return nil, fmt.Errorf("control character %U", r)
		}
		switch {
		case inQuote:
			if r == '"' {
				inQuote = false
			} else {
				cur.WriteRune(r)
			}
		case r == '"':
			inQuote, inTok = true, true
		case r == '#':
			goto done
		case unicode.IsSpace(r):
			if inTok {
				toks = append(toks, cur.String())
				cur.Reset()
				inTok = false
			}
		default:
			cur.WriteRune(r)
			inTok = true
		}
	}
done:
	if inQuote {
		return nil, errors.New("unterminated double quote")
	}
	if inTok {
		toks = append(toks, cur.String())
	}
	return toks, nil
}

var headerKeys = []string{"profile", "format", "team", "player", "break", "position"}

func isHeaderKey(k string) bool {
	for _, h := range headerKeys {
		if h == k {
			return true
		}
	}
	return isMetaKey(k)
}

// headerParser collects header lines.
type headerParser struct {
	h                   Header
	profileLine         int
	formatLine, brkLine int
	posLine             int
	teams               int
	teamLine            [2]int
	seen                map[string]int
}

func (hp *headerParser) line(ln int, key string, args []string) error {
	if hp.seen == nil {
		hp.seen = map[string]int{}
	}
	switch key {
	case "profile", "format", "break", "position":
		if prev, dup := hp.seen[key]; dup {
			return lineErr(ln, "second %q line (first at line %d)", key, prev)
		}
		hp.seen[key] = ln
	}
	switch key {
	case "profile":
		if len(args) != 1 {
			return lineErr(ln, "profile: want one profile name (%s)", strings.Join(ProfileNames(), ", "))
		}
		if _, err := ProfileByName(args[0]); err != nil {
			return &LineError{Line: ln, Err: err}
		}
		hp.h.Profile, hp.profileLine = args[0], ln
	case "format":
		if len(args) != 1 {
			return lineErr(ln, "format: want one format name")
		}
		hp.h.Format, hp.formatLine = args[0], ln
	case "break":
		if len(args) != 1 {
			return lineErr(ln, "break: want the seat of the first breaker (S, E, N or W)")
		}
		s, err := parseSeat(args[0])
		if err != nil {
			return &LineError{Line: ln, Err: err}
		}
		hp.h.Break, hp.brkLine = s, ln
	case "position":
		p, err := ParsePosition(args)
		if err != nil {
			return &LineError{Line: ln, Err: err}
		}
		hp.h.Position, hp.posLine = p, ln
	case "team", "player":
		return hp.side(ln, key, args)
	default:
		if len(args) == 0 {
			return lineErr(ln, "%s: missing value", key)
		}
		v := strings.Join(args, " ")
		if err := checkName(v); err != nil {
			return lineErr(ln, "%s: %v", key, err)
		}
		hp.h.Meta = append(hp.h.Meta, Meta{Key: key, Value: v})
	}
	return nil
}

// side reads a "player SEAT NAME…" or "team NAME SEAT:PLAYER [SEAT:PLAYER]"
// line: one of the match's two sides.
func (hp *headerParser) side(ln int, key string, args []string) error {
	if hp.teams == 2 {
		return lineErr(ln, "a match has two sides: third %s line", key)
	}
	t := hp.teams
	var name string
	var seats []string
	if key == "player" {
		if len(args) < 2 {
			return lineErr(ln, "player: want a seat and a name (player S Ravi)")
		}
		name = strings.Join(args[1:], " ")
		seats = []string{args[0] + ":" + name}
	} else {
		if len(args) < 2 || len(args) > 3 {
			return lineErr(ln, "team: want a name and one or two SEAT:PLAYER (team Blue S:Ravi N:Meena)")
		}
		name, seats = args[0], args[1:]
	}
	if err := checkName(name); err != nil {
		return lineErr(ln, "%s name: %v", key, err)
	}
	for _, sp := range seats {
		i := strings.IndexByte(sp, ':')
		if i < 0 {
			return lineErr(ln, "team: %q is not SEAT:PLAYER", sp)
		}
		seat, err := parseSeat(sp[:i])
		if err != nil {
			return &LineError{Line: ln, Err: err}
		}
		pn := sp[i+1:]
		if err := checkName(pn); err != nil {
			return lineErr(ln, "player at %s: %v", seat, err)
		}
		for _, p := range hp.h.Players {
			if p.Seat == seat {
				return lineErr(ln, "two players sit at %s", seat)
			}
		}
		hp.h.Players = append(hp.h.Players, Player{Name: pn, Seat: seat, Team: t})
	}
	hp.h.Teams[t] = name
	hp.teamLine[t] = ln
	hp.teams++
	return nil
}

// finish checks the complete header; ln is the first line after it.
func (hp *headerParser) finish(ln int) error {
	h := hp.h
	if hp.teams < 2 {
		return lineErr(ln, "the header needs two sides: two \"player SEAT NAME\" lines (singles) or two \"team NAME SEAT:PLAYER SEAT:PLAYER\" lines (doubles)")
	}
	if hp.brkLine == 0 {
		return lineErr(ln, "the header needs a \"break SEAT\" line (who breaks the first board)")
	}
	if h.Profile != "" {
		p, _ := ProfileByName(h.Profile)
		if _, err := p.Format(h.Format); err != nil {
			return &LineError{Line: hp.formatLine, Err: err}
		}
	}
	if err := h.validateSeating(); err != nil {
		at := hp.teamLine[1]
		if strings.HasPrefix(err.Error(), "break") {
			at = hp.brkLine
		}
		return &LineError{Line: at, Err: err}
	}
	if h.Position != nil {
		if err := h.Position.validate(h); err != nil {
			return &LineError{Line: hp.posLine, Err: err}
		}
	}
	return nil
}

func parseSeat(s string) (board.Side, error) {
	switch strings.ToUpper(s) {
	case "S":
		return board.S, nil
	case "E":
		return board.E, nil
	case "N":
		return board.N, nil
	case "W":
		return board.W, nil
	}
	return 0, fmt.Errorf("%q is not a seat (S, E, N or W)", s)
}

// parsePieces reads a piece group such as "wwq", "3w", "2wbs": w white, b
// black, q queen, s striker, each optionally preceded by a count.
func parsePieces(tok string) ([4]int, error) {
	var n [4]int
	if tok == "" {
		return n, errors.New("empty piece list")
	}
	count := -1
	for i := 0; i < len(tok); i++ {
		ch := tok[i]
		switch {
		case ch >= '0' && ch <= '9':
			if count >= 0 {
				return n, fmt.Errorf("%q: one digit per count", tok)
			}
			count = int(ch - '0')
			if count == 0 {
				return n, fmt.Errorf("%q: a count of 0", tok)
			}
		default:
			var k board.Kind
			switch ch | 0x20 {
			case 'w':
				k = board.White
			case 'b':
				k = board.Black
			case 'q':
				k = board.Queen
			case 's':
				k = board.Striker
			default:
				return n, fmt.Errorf("%q: %q is not a piece (w white, b black, q queen, s striker)", tok, ch)
			}
			if count < 0 {
				count = 1
			}
			n[k] += count
			count = -1
		}
	}
	if count >= 0 {
		return n, fmt.Errorf("%q: a count without a piece", tok)
	}
	if n[board.White] > board.MenPerColour || n[board.Black] > board.MenPerColour {
		return n, fmt.Errorf("%q: more than %d men of a colour", tok, board.MenPerColour)
	}
	if n[board.Queen] > 1 || n[board.Striker] > 1 {
		return n, fmt.Errorf("%q: there is one queen and one striker", tok)
	}
	return n, nil
}

func isPieceToken(t string) bool {
	if t == "" {
		return false
	}
	for i := 0; i < len(t); i++ {
		c := t[i] | 0x20
		if !(t[i] >= '0' && t[i] <= '9') && c != 'w' && c != 'b' && c != 'q' && c != 's' {
			return false
		}
	}
	return true
}

func parseFoul(t string) (Foul, error) {
	f := Foul(strings.TrimPrefix(t, "!"))
	if !f.Known() {
		return "", fmt.Errorf("unknown foul %q (see boardcam profiles)", string(f))
	}
	return f, nil
}

// parseFouls reads "!code" words.
func parseFouls(toks []string) ([]Foul, error) {
	var out []Foul
	for _, t := range toks {
		if !strings.HasPrefix(t, "!") {
			return nil, fmt.Errorf("unexpected %q (fouls are written !code)", t)
		}
		f, err := parseFoul(t)
		if err != nil {
			return nil, err
		}
		for _, g := range out {
			if g == f {
				return nil, fmt.Errorf("foul %s written twice", f)
			}
		}
		out = append(out, f)
	}
	return out, nil
}

func noArgs(kw string, args []string) error {
	if len(args) > 0 {
		return fmt.Errorf("%s takes nothing after it, not %q", kw, args[0])
	}
	return nil
}

func parseEvent(toks []string) (Event, error) {
	kw, args := strings.ToLower(toks[0]), toks[1:]
	if seat, err := parseSeat(toks[0]); err == nil {
		return parseStroke(seat, args)
	}
	if parse, ok := eventParsers[kw]; ok {
		return parse(args)
	}
	return nil, fmt.Errorf("unknown line %q: an event starts with a seat (S, E, N, W) or place, forfeit, defer, foul, demand, concede, disqualify, replay, time, cover, noticed or undo", toks[0])
}

// eventParsers reads the events other than strokes, by their keyword.
var eventParsers = map[string]func(args []string) (Event, error){
	"place":      parsePlace,
	"forfeit":    bare("forfeit", Forfeit{}),
	"defer":      bare("defer", Defer{}),
	"time":       bare("time", CallTime{}),
	"cover":      bare("cover", CoverQueen{}),
	"noticed":    bare("noticed", Noticed{}),
	"undo":       bare("undo", Undo{}),
	"foul":       parseFoulCall,
	"demand":     parseDemand,
	"concede":    parseConcede,
	"disqualify": parseDisqualify,
	"replay":     parseReplay,
}

// bare reads an event written as its keyword alone.
func bare(kw string, e Event) func([]string) (Event, error) {
	return func(args []string) (Event, error) { return e, noArgs(kw, args) }
}

func parsePlace(args []string) (Event, error) {
	if len(args) == 0 {
		return nil, errors.New("place: what? (place w, place bb, place q)")
	}
	n, err := parsePieces(args[0])
	if err != nil {
		return nil, fmt.Errorf("place: %w", err)
	}
	if n[board.Striker] > 0 {
		return nil, errors.New("place: the striker is not placed")
	}
	pl := Place{White: n[board.White], Black: n[board.Black], Queen: n[board.Queen] > 0}
	rest := args[1:]
	if len(rest) > 0 && strings.ToLower(rest[0]) == "unnoticed" {
		pl.Unnoticed, rest = true, rest[1:]
	}
	fs, err := parseFouls(rest)
	if err != nil {
		return nil, fmt.Errorf("place: %w", err)
	}
	pl.Fouls = fs
	return pl, nil
}

func parseFoulCall(args []string) (Event, error) {
	if len(args) < 2 {
		return nil, errors.New("foul: want a seat and foul codes (foul N talking)")
	}
	seat, err := parseSeat(args[0])
	if err != nil {
		return nil, fmt.Errorf("foul: %w", err)
	}
	var fs []Foul
	for _, t := range args[1:] {
		f, err := parseFoul(t)
		if err != nil {
			return nil, fmt.Errorf("foul: %w", err)
		}
		for _, g := range fs {
			if g == f {
				return nil, fmt.Errorf("foul: %s written twice", f)
			}
		}
		fs = append(fs, f)
	}
	return FoulCall{Seat: seat, Fouls: fs}, nil
}

func parseDemand(args []string) (Event, error) {
	switch len(args) {
	case 0:
		return DemandPoints{}, nil
	case 1:
		n, err := strconv.Atoi(args[0])
		if err != nil || n < 1 || n > 9 {
			return nil, fmt.Errorf("demand: %q is not a number of points (1-9)", args[0])
		}
		return DemandPoints{Points: n}, nil
	}
	return nil, errors.New("demand: at most one number")
}

func parseConcede(args []string) (Event, error) {
	if len(args) < 1 || len(args) > 2 {
		return nil, errors.New("concede: want a seat and optionally board or match (concede N match)")
	}
	seat, err := parseSeat(args[0])
	if err != nil {
		return nil, fmt.Errorf("concede: %w", err)
	}
	c := Concede{Seat: seat}
	if len(args) == 2 {
		switch strings.ToLower(args[1]) {
		case "board":
		case "match":
			c.Match = true
		default:
			return nil, fmt.Errorf("concede: %q (want board or match)", args[1])
		}
	}
	return c, nil
}

func parseDisqualify(args []string) (Event, error) {
	if len(args) != 2 {
		return nil, fmt.Errorf("disqualify: want a seat and a reason (%s)", lossList())
	}
	seat, err := parseSeat(args[0])
	if err != nil {
		return nil, fmt.Errorf("disqualify: %w", err)
	}
	r := MatchLoss(strings.ToLower(args[1]))
	if r.Rule() == 0 {
		return nil, fmt.Errorf("disqualify: unknown reason %q (want %s)", args[1], lossList())
	}
	return Disqualify{Seat: seat, Reason: r}, nil
}

func parseReplay(args []string) (Event, error) {
	switch len(args) {
	case 0:
		return Replay{}, nil
	case 1:
		r := ReplayReason(strings.ToLower(args[0]))
		for _, x := range ReplayReasons {
			if x == r {
				return Replay{Reason: r}, nil
			}
		}
		return nil, fmt.Errorf("replay: unknown reason %q (want unforeseen, no_space or passes)", args[0])
	}
	return nil, errors.New("replay: at most one reason")
}

func lossList() string {
	s := make([]string, len(MatchLosses))
	for i, l := range MatchLosses {
		s[i] = string(l)
	}
	return strings.Join(s, ", ")
}

// parseStroke reads the words after the seat of a stroke line.
func parseStroke(seat board.Side, args []string) (Event, error) {
	if len(args) == 1 && strings.ToLower(args[0]) == "pass" {
		return Pass{Seat: seat}, nil
	}
	s := Stroke{Seat: seat}
	var pocket [4]int
	sawPocket, sawNone, sawOff := false, false, false
	for _, t := range args {
		lt := strings.ToLower(t)
		switch {
		case t == "-":
			if sawNone || sawPocket {
				return nil, errors.New("\"-\" (nothing pocketed) with pocketed pieces")
			}
			sawNone = true
		case lt == "nobreak":
			if s.NoBreak {
				return nil, errors.New("nobreak written twice")
			}
			s.NoBreak = true
		case lt == "pass":
			return nil, errors.New("pass stands alone: \"S pass\"")
		case lt == "unnoticed":
			if s.Unnoticed {
				return nil, errors.New("unnoticed written twice")
			}
			s.Unnoticed = true
		case strings.HasPrefix(lt, "off:"):
			if sawOff {
				return nil, errors.New("write the overboard pieces in one off: group")
			}
			sawOff = true
			n, err := parsePieces(t[4:])
			if err != nil {
				return nil, fmt.Errorf("off: %w", err)
			}
			s.Overboard = n
		case strings.HasPrefix(t, "!"):
			f, err := parseFoul(t)
			if err != nil {
				return nil, err
			}
			for _, g := range s.Fouls {
				if g == f {
					return nil, fmt.Errorf("foul %s written twice", f)
				}
			}
			s.Fouls = append(s.Fouls, f)
		case isPieceToken(t):
			if sawNone {
				return nil, errors.New("\"-\" (nothing pocketed) with pocketed pieces")
			}
			n, err := parsePieces(t)
			if err != nil {
				return nil, err
			}
			for k := range pocket {
				pocket[k] += n[k]
			}
			sawPocket = true
		default:
			return nil, fmt.Errorf("unexpected %q in a stroke (pieces like wwq, -, off:b, !foul, nobreak, unnoticed)", t)
		}
	}
	if pocket[board.White] > board.MenPerColour || pocket[board.Black] > board.MenPerColour {
		return nil, fmt.Errorf("more than %d men of a colour", board.MenPerColour)
	}
	if pocket[board.Queen] > 1 || pocket[board.Striker] > 1 {
		return nil, errors.New("there is one queen and one striker")
	}
	s.White, s.Black = pocket[board.White], pocket[board.Black]
	s.Queen, s.Striker = pocket[board.Queen] > 0, pocket[board.Striker] > 0
	return s, nil
}

// piecesString writes counts as a piece group ("wwq", "4wb").
func piecesString(n [4]int) string {
	var b strings.Builder
	for _, k := range []board.Kind{board.White, board.Black, board.Queen, board.Striker} {
		letter := "wbqs"[k]
		switch c := n[k]; {
		case c >= 4:
			b.WriteString(strconv.Itoa(c))
			b.WriteByte(letter)
		default:
			for i := 0; i < c; i++ {
				b.WriteByte(letter)
			}
		}
	}
	return b.String()
}

func foulWords(fs []Foul) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString(" !")
		b.WriteString(string(f))
	}
	return b.String()
}

// FormatEvent writes an event as one log line (without a newline).
// ParseEvent(FormatEvent(e)) gives e back.
func FormatEvent(e Event) string {
	switch ev := e.(type) {
	case Stroke:
		p := piecesString([4]int{ev.White, ev.Black, b2i(ev.Queen), b2i(ev.Striker)})
		if p == "" {
			p = "-"
		}
		s := ev.Seat.String() + " " + p
		if off := piecesString(ev.Overboard); off != "" {
			s += " off:" + off
		}
		s += foulWords(ev.Fouls)
		if ev.NoBreak {
			s += " nobreak"
		}
		if ev.Unnoticed {
			s += " unnoticed"
		}
		return s
	case Pass:
		return ev.Seat.String() + " pass"
	case Place:
		p := piecesString([4]int{ev.White, ev.Black, b2i(ev.Queen), 0})
		if ev.Unnoticed {
			p += " unnoticed"
		}
		return "place " + p + foulWords(ev.Fouls)
	case Forfeit:
		return "forfeit"
	case Defer:
		return "defer"
	case FoulCall:
		return "foul " + ev.Seat.String() + foulWords(ev.Fouls)
	case DemandPoints:
		if ev.Points == 0 {
			return "demand"
		}
		return "demand " + strconv.Itoa(ev.Points)
	case Concede:
		if ev.Match {
			return "concede " + ev.Seat.String() + " match"
		}
		return "concede " + ev.Seat.String() + " board"
	case Disqualify:
		return "disqualify " + ev.Seat.String() + " " + string(ev.Reason)
	case Replay:
		if ev.Reason == "" {
			return "replay"
		}
		return "replay " + string(ev.Reason)
	case CallTime:
		return "time"
	case CoverQueen:
		return "cover"
	case Noticed:
		return "noticed"
	case Undo:
		return "undo"
	}
	return fmt.Sprintf("# unknown event %T", e)
}

// quote writes a value so that the tokenizer reads it back whole.
func quote(s string) string {
	if s == "" || strings.ContainsAny(s, " \t#") {
		return `"` + s + `"`
	}
	return s
}

// FormatHeader writes the header lines of a log, each ending in a newline.
func FormatHeader(h Header) string {
	var b strings.Builder
	if h.Profile != "" {
		fmt.Fprintf(&b, "profile %s\n", h.Profile)
	}
	if h.Format != "" {
		fmt.Fprintf(&b, "format %s\n", quote(h.Format))
	}
	for _, m := range h.Meta {
		fmt.Fprintf(&b, "%s %s\n", m.Key, quote(m.Value))
	}
	for t := 0; t < 2; t++ {
		var ps []Player
		for _, p := range h.Players {
			if p.Team == t {
				ps = append(ps, p)
			}
		}
		if len(ps) == 1 && ps[0].Name == h.Teams[t] {
			fmt.Fprintf(&b, "player %s %s\n", ps[0].Seat, quote(ps[0].Name))
			continue
		}
		fmt.Fprintf(&b, "team %s", quote(h.Teams[t]))
		for _, p := range ps {
			fmt.Fprintf(&b, " %s:%s", p.Seat, quote(p.Name))
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "break %s\n", h.Break)
	if h.Position != nil {
		fmt.Fprintf(&b, "position %s\n", h.Position)
	}
	return b.String()
}

// Format writes the whole log: the header, a blank line, one event per
// line.
func (l *Log) Format() string {
	var b strings.Builder
	b.WriteString(FormatHeader(l.Header))
	b.WriteByte('\n')
	for _, e := range l.Entries {
		b.WriteString(FormatEvent(e.Event))
		b.WriteByte('\n')
	}
	return b.String()
}

// Play replays the log on a new match. each, if not nil, is called after
// every entry with the match as it stands. Errors are *LineError (line 0
// for the header).
func (l *Log) Play(each func(Entry, *Match)) (*Match, error) {
	m, err := NewMatch(l.Header)
	if err != nil {
		return nil, &LineError{Line: 0, Err: err}
	}
	for _, e := range l.Entries {
		if err := m.Apply(e.Event); err != nil {
			return m, &LineError{Line: e.Line, Err: err}
		}
		if each != nil {
			each(e, m)
		}
	}
	return m, nil
}
