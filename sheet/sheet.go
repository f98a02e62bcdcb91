// Package sheet is the match sheet as clubs file it: the players, every
// board with its points and how they were made, the fouls, the umpire's
// decisions and the signature lines. Build replays a match's lines (from a
// stroke log or the daemon's journal) with the rules engine; WriteCSV and
// WritePDF print it.
//
//	s, err := sheet.Build(header, lines)
//	err = sheet.WritePDF(w, s)
package sheet

import (
	"fmt"
	"sort"
	"strings"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/rules"
)

// Line is one line of the match: an event and who decided it.
type Line struct {
	// Line is the line number in its file (0 when unknown).
	Line  int
	Event rules.Event
	// By is who decided: "auto" (the camera's referee), "umpire" (the
	// console), "button", "log" (a stroke log's line), "" when unknown
	// (a stroke log scored by hand).
	By string
	// Note is the decider's note, if any.
	Note string
}

// Sheet is a match as its sheet shows it.
type Sheet struct {
	Profile string // the rule profile, e.g. "icf"
	Format  string // the match format's summary
	Doubles bool
	Teams   [2]Team
	Boards  []Board
	// Strokes are every line of the match in order; Fouls and Decisions
	// the lines with a foul and those the umpire decided.
	Strokes   []Stroke
	Fouls     []Stroke
	Decisions []Stroke
	// Result is the match's result in words ("… wins 29-11", or not
	// finished: the score so far).
	Result    string
	MatchOver bool
	// Signatures are the lines to sign.
	Signatures []string
}

// Team is one side of the match.
type Team struct {
	Name      string
	Players   []string // "Name (S)"
	Score     int
	BoardsWon int
}

// Board is one board's result and how its points were made.
type Board struct {
	Board  int
	Winner string // "" for a board replayed or cancelled
	Points int
	// Demanded are the points added on demand (ICF), on top of Points.
	Demanded int
	How      string // the rules' reason
	Rule     string // the rule applied
	Strokes  int    // lines of the match played on the board
}

// Stroke is one line of the match on the sheet.
type Stroke struct {
	Line   int
	Board  int
	Seat   board.Side // of the player, when the line names one
	Player string     // "" when the line names no player
	Event  string     // in the stroke log's notation
	Fouls  []string   // the fouls called, by code
	By     string
	Note   string
}

// Build replays the lines from the header's start and makes the sheet.
func Build(h rules.Header, lines []Line) (*Sheet, error) {
	m, err := rules.NewMatch(h)
	if err != nil {
		return nil, fmt.Errorf("sheet: %w", err)
	}
	s := &Sheet{Profile: m.State().Profile, Format: m.Format().Summary(), Doubles: m.State().Doubles}
	names := map[board.Side]string{}
	for _, p := range h.Players {
		names[p.Seat] = p.Name
	}
	boards := map[int]*Board{}
	boardOf := func(n int) *Board {
		if boards[n] == nil {
			boards[n] = &Board{Board: n}
		}
		return boards[n]
	}
	for _, l := range lines {
		before := m.State()
		if err := m.Apply(l.Event); err != nil {
			if l.Line > 0 {
				return nil, fmt.Errorf("sheet: line %d: %w", l.Line, err)
			}
			return nil, fmt.Errorf("sheet: %w", err)
		}
		after := m.State()
		st := Stroke{Line: l.Line, Board: before.Board, Event: rules.FormatEvent(l.Event), Fouls: after.Fouls, By: l.By, Note: l.Note}
		// a stroke names its player's seat first ("S ww"); other lines
		// (a placement, a demand, an undo) name nobody
		if f := strings.Fields(st.Event); len(f) > 0 && len(f[0]) == 1 && strings.ToUpper(f[0]) == f[0] {
			if seat, err := board.ParseSide(f[0]); err == nil {
				st.Seat, st.Player = seat, names[seat]
			}
		}
		s.Strokes = append(s.Strokes, st)
		if len(st.Fouls) > 0 {
			s.Fouls = append(s.Fouls, st)
		}
		if l.By == "umpire" || l.By == "button" {
			s.Decisions = append(s.Decisions, st)
		}
		boardOf(before.Board).Strokes++
	}
	st := m.State()
	for t := 0; t < 2; t++ {
		tm := Team{Name: st.Teams[t].Name, Score: st.Teams[t].Score, BoardsWon: st.Teams[t].BoardsWon}
		for _, p := range h.Players {
			if p.Team == t {
				tm.Players = append(tm.Players, fmt.Sprintf("%s (%s)", p.Name, p.Seat))
			}
		}
		s.Teams[t] = tm
	}
	for _, r := range st.Boards {
		b := boardOf(r.Board)
		if r.Winner >= 0 {
			b.Winner = st.Teams[r.Winner].Name
		}
		b.Points, b.Demanded, b.How, b.Rule = r.Points, r.Demanded, r.Reason, r.Rule
	}
	for _, b := range boards {
		s.Boards = append(s.Boards, *b)
	}
	sort.Slice(s.Boards, func(i, j int) bool { return s.Boards[i].Board < s.Boards[j].Board })
	s.MatchOver = st.MatchOver
	score := fmt.Sprintf("%s %d – %d %s (boards %d–%d)", st.Teams[0].Name, st.Teams[0].Score, st.Teams[1].Score, st.Teams[1].Name,
		st.Teams[0].BoardsWon, st.Teams[1].BoardsWon)
	switch {
	case st.MatchOver && st.MatchResult != "":
		s.Result = fmt.Sprintf("%s wins: %s; %s", st.Teams[st.Winner].Name, st.MatchResult, score)
	case st.MatchOver:
		s.Result = fmt.Sprintf("%s wins; %s", st.Teams[st.Winner].Name, score)
	default:
		s.Result = fmt.Sprintf("not finished (board %d in play): %s", st.Board, score)
	}
	s.Signatures = []string{"Umpire", s.Teams[0].Name + " (captain or player)", s.Teams[1].Name + " (captain or player)", "Referee"}
	return s, nil
}

// decidedBy says who decided a line, in words.
func decidedBy(by string) string {
	switch by {
	case "auto":
		return "camera"
	case "":
		return "log"
	}
	return by
}

func foulList(fs []string) string { return strings.Join(fs, " ") }
