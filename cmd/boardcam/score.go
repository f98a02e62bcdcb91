package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/boardcam/boardcam/match"
	"github.com/boardcam/boardcam/rules"
	"github.com/boardcam/boardcam/sheet"
)

func init() {
	register(command{Name: "score", Summary: "replay a stroke log and print each board's result and the match result", Run: cmdScore})
}

const scoreDescription = `
Replays a stroke log (docs/stroke-log.md) with the rules engine and prints the
result of every board and of the match. FILE "-" reads the log from standard
input. Errors name the file and line.

--profile plays the log under another rule profile than its header names (or
supplies one when the header has none); --format chooses the match format
(team-3board: three-boards or points-29). --trace also prints the state after
every line. --json prints one JSON object (with --trace, one JSON object per
line first, then the scoreSummary).

--sheet FILE.pdf or FILE.csv also writes the match sheet as clubs file it:
the players, every board's points and how they were made, the fouls, the
umpire's decisions and the signature lines, then every line of the match.
Given the daemon's journal, the sheet says who decided each line (camera,
umpire, button, log).`

func cmdScore(ctx context.Context, args []string, s stdio) error {
	fs := newFlags("score", "[--profile P] [--format F] [--json] [--trace] FILE|-", scoreDescription, s)
	profile := fs.String("profile", "", "rule profile to play under (icf, team-3board, nit-delhi, jamshedpur, four-break)")
	format := fs.String("format", "", "match format (default: the header's, else the profile's first)")
	asJSON := fs.Bool("json", false, "print JSON")
	trace := fs.Bool("trace", false, "print the state after every line")
	sheetPath := fs.String("sheet", "", "also write the match sheet to FILE.pdf or FILE.csv")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *sheetPath != "" {
		if ext := strings.ToLower(filepath.Ext(*sheetPath)); ext != ".pdf" && ext != ".csv" {
			return usageError("--sheet: %s: want a .pdf or .csv file", *sheetPath)
		}
	}
	if fs.NArg() != 1 {
		return usageError("score needs one log file (or - for standard input)")
	}
	if *profile != "" {
		if _, err := rules.ProfileByName(*profile); err != nil {
			return usageError("--profile: %v", err)
		}
	}
	name := fs.Arg(0)
	var r io.Reader = s.In
	if name == "-" {
		name = "(stdin)"
	} else {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		r = f
	}
	lg, err := rules.ParseLog(r)
	if err != nil {
		return scoreLocated(name, err)
	}
	if *profile != "" {
		if lg.Header.Profile != "" && lg.Header.Profile != *profile {
			fmt.Fprintf(s.Err, "boardcam score: note: playing %s under %s, not %s as its header says\n", name, *profile, lg.Header.Profile)
			lg.Header.Format = ""
		}
		lg.Header.Profile = *profile
	}
	if *format != "" {
		lg.Header.Format = *format
	}
	if lg.Header.Profile == "" {
		return fmt.Errorf("%s: the log has no profile line; add one or use --profile", name)
	}
	var each func(rules.Entry, *rules.Match)
	if *trace {
		enc := json.NewEncoder(s.Out)
		each = func(e rules.Entry, m *rules.Match) {
			st := m.State()
			if *asJSON {
				_ = enc.Encode(struct {
					Line  int         `json:"line"`
					Event string      `json:"event"`
					State rules.State `json:"state"`
				}{e.Line, rules.FormatEvent(e.Event), st})
				return
			}
			fmt.Fprintf(s.Out, "%4d  %-22s %s\n", e.Line, rules.FormatEvent(e.Event), scoreSummary(st))
		}
	}
	m, err := lg.Play(each)
	if err != nil {
		return scoreLocated(name, err)
	}
	st := m.State()
	if *sheetPath != "" {
		if err := writeSheet(*sheetPath, fs.Arg(0), lg); err != nil {
			return err
		}
	}
	if *asJSON {
		return writeScoreJSON(s.Out, name, m, st)
	}
	writeScoreText(s.Out, name, m, st)
	return nil
}

// scoreLocated puts the file name (and line) in front of a log error.
func scoreLocated(name string, err error) error {
	var le *rules.LineError
	if errors.As(err, &le) {
		msg := le.Error()
		if le.Line == 0 {
			return fmt.Errorf("%s: %s", name, strings.TrimPrefix(msg, "line 0: "))
		}
		return fmt.Errorf("%s:%d: %s", name, le.Line, strings.TrimPrefix(msg, fmt.Sprintf("line %d: ", le.Line)))
	}
	return fmt.Errorf("%s: %w", name, err)
}

// scoreSummary is one line of state for --trace.
func scoreSummary(st rules.State) string {
	var b strings.Builder
	if st.MatchOver {
		fmt.Fprintf(&b, "match over: %s wins", st.Teams[st.Winner].Name)
	} else {
		fmt.Fprintf(&b, "board %d  %s to play", st.Board, st.Turn)
		if st.Breaking {
			b.WriteString(" (break)")
		}
	}
	for _, t := range st.Teams {
		fmt.Fprintf(&b, "  %s %s %d on/%d off", t.Name, t.Colour, t.OnBoard, t.Pocketed)
		if t.AwaitingPlacement > 0 {
			fmt.Fprintf(&b, " (%d to place)", t.AwaitingPlacement)
		}
		if t.Owed > 0 {
			fmt.Fprintf(&b, " (%d owed)", t.Owed)
		}
	}
	fmt.Fprintf(&b, "  queen %s", scoreQueen(st))
	fmt.Fprintf(&b, "  score %d-%d", st.Teams[0].Score, st.Teams[1].Score)
	if len(st.Fouls) > 0 {
		fmt.Fprintf(&b, "  fouls %s", strings.Join(st.Fouls, ","))
	}
	return b.String()
}

func scoreQueen(st rules.State) string {
	q := st.Queen
	switch q.Status {
	case rules.QueenAwaitingCover:
		return "to cover by " + st.Teams[q.Team].Name
	case rules.QueenCovered:
		return "covered by " + st.Teams[q.Team].Name
	case rules.QueenAwaitingPlacement:
		return "to place"
	}
	return "on board"
}

// scoreSeating names the sides: "Ravi (S) v Meena (N)" or "Blue: Ravi (S) &
// Meena (N) v Red: …".
func scoreSeating(h rules.Header) string {
	var sides []string
	for t := 0; t < 2; t++ {
		var ps []string
		for _, p := range h.Players {
			if p.Team == t {
				ps = append(ps, fmt.Sprintf("%s (%s)", p.Name, p.Seat))
			}
		}
		side := strings.Join(ps, " & ")
		if len(ps) != 1 || !strings.HasPrefix(ps[0], h.Teams[t]+" (") {
			side = h.Teams[t] + ": " + side
		}
		sides = append(sides, side)
	}
	return strings.Join(sides, " v ")
}

func writeScoreText(w io.Writer, name string, m *rules.Match, st rules.State) {
	h, f := m.Header(), m.Format()
	kind := "singles"
	if st.Doubles {
		kind = "doubles"
	}
	fmt.Fprintf(w, "%s: %s, %s, %s\n", name, st.Profile, kind, f.Summary())
	fmt.Fprintf(w, "  %s\n", scoreSeating(h))
	if p := h.Position; p != nil {
		fmt.Fprintf(w, "from     position %s\n", p)
	}
	for _, b := range st.Boards {
		if b.Winner < 0 {
			fmt.Fprintf(w, "board %-2d %s  [%s]\n", b.Board, b.Reason, b.Rule)
			continue
		}
		pts := fmt.Sprintf("%d", b.Points)
		if b.Demanded > 0 {
			pts += fmt.Sprintf(" +%d demanded", b.Demanded)
		} else if b.Demandable > 0 {
			pts += fmt.Sprintf(" (%d more could be demanded)", b.Demandable)
		}
		fmt.Fprintf(w, "board %-2d %s wins %s: %s  [%s]\n", b.Board, st.Teams[b.Winner].Name, pts, b.Reason, b.Rule)
	}
	score := fmt.Sprintf("%d-%d", st.Teams[0].Score, st.Teams[1].Score)
	boards := fmt.Sprintf("boards %d-%d", st.Teams[0].BoardsWon, st.Teams[1].BoardsWon)
	switch {
	case st.MatchOver && st.MatchResult != "":
		fmt.Fprintf(w, "match    %s wins: %s (%s %s, %s)\n", st.Teams[st.Winner].Name, st.MatchResult, st.Teams[0].Name, score, boards)
	case st.MatchOver:
		fmt.Fprintf(w, "match    %s wins %s-%s (%s v %s, %s)\n", st.Teams[st.Winner].Name,
			fmt.Sprint(st.Teams[st.Winner].Score), fmt.Sprint(st.Teams[1-st.Winner].Score), st.Teams[0].Name, st.Teams[1].Name, boards)
	default:
		fmt.Fprintf(w, "match    not finished: %s %s %s (%s); board %d in play, %s to strike\n", st.Teams[0].Name, score, st.Teams[1].Name, boards, st.Board, st.Turn)
	}
}

func writeScoreJSON(w io.Writer, name string, m *rules.Match, st rules.State) error {
	type team struct {
		Name      string   `json:"name"`
		Players   []string `json:"players"`
		Score     int      `json:"score"`
		BoardsWon int      `json:"boards_won"`
	}
	out := struct {
		File      string              `json:"file"`
		Profile   string              `json:"profile"`
		Format    string              `json:"format"`
		Doubles   bool                `json:"doubles"`
		Teams     [2]team             `json:"teams"`
		Boards    []rules.BoardResult `json:"boards"`
		MatchOver bool                `json:"match_over"`
		Winner    *string             `json:"winner"`
		State     rules.State         `json:"state"`
	}{File: name, Profile: st.Profile, Format: m.Format().Name, Doubles: st.Doubles, Boards: st.Boards, MatchOver: st.MatchOver, State: st}
	for t := 0; t < 2; t++ {
		out.Teams[t] = team{Name: st.Teams[t].Name, Players: st.Teams[t].Players, Score: st.Teams[t].Score, BoardsWon: st.Teams[t].BoardsWon}
	}
	if st.MatchOver {
		out.Winner = &st.Teams[st.Winner].Name
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// writeSheet writes the match sheet of the log lg (read from file, "-"
// for standard input) to path (.pdf or .csv). A journal of the daemon
// gives each line who decided it.
func writeSheet(path, file string, lg *rules.Log) error {
	var lines []sheet.Line
	journal := false
	if file != "-" {
		if jf, err := match.ReadJournal(file, false); err == nil {
			for _, r := range jf.Records {
				if r.Meta.Journal > 0 {
					journal = true
				}
				if r.Event != nil {
					lines = append(lines, sheet.Line{Line: r.Line, Event: r.Event, By: r.Meta.By, Note: r.Meta.Note})
				}
			}
			if !journal && len(jf.Records) > 0 && jf.Records[0].Meta.Session > 0 {
				journal = true
			}
		}
	}
	if !journal {
		lines = lines[:0]
		for _, e := range lg.Entries {
			lines = append(lines, sheet.Line{Line: e.Line, Event: e.Event})
		}
	}
	sh, err := sheet.Build(lg.Header, lines)
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if strings.EqualFold(filepath.Ext(path), ".csv") {
		err = sheet.WriteCSV(f, sh)
	} else {
		err = sheet.WritePDF(f, sh)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return fmt.Errorf("--sheet: %w", err)
	}
	return nil
}
