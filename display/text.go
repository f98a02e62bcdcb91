package display

import (
	"github.com/boardcam/boardcam/display/segment"

	"fmt"
	"strings"

	"github.com/boardcam/boardcam/rules"
)

// TextStyle chooses what the text renderer draws.
type TextStyle uint8

// The text styles.
const (
	// StyleBoth draws the 7-segment art followed by the plain text.
	StyleBoth TextStyle = iota
	// StyleSegments draws only the 7-segment art (exactly what an LED panel
	// with the same layout shows).
	StyleSegments
	// StylePlain draws only the plain text lines.
	StylePlain
)

// ParseTextStyle reads "both", "segments" or "plain".
func ParseTextStyle(s string) (TextStyle, error) {
	switch strings.ToLower(s) {
	case "both", "":
		return StyleBoth, nil
	case "segments", "7seg":
		return StyleSegments, nil
	case "plain", "text":
		return StylePlain, nil
	}
	return 0, fmt.Errorf("unknown text style %q (want both, segments or plain)", s)
}

// RenderText draws the scoreboard as text in the given style. lit is the
// blink phase (false: blinking fields are dark in the 7-segment art).
func RenderText(sb Scoreboard, l Layout, lit bool, style TextStyle) string {
	switch style {
	case StyleSegments:
		return SegmentArt(sb.Digits(l, lit), l)
	case StylePlain:
		return PlainText(sb)
	}
	return SegmentArt(sb.Digits(l, lit), l) + "\n" + PlainText(sb)
}

// SegmentArt draws digits as three lines of ASCII 7-segment art, each digit
// three characters wide with its decimal point after it; the cells of the
// layout are separated by an extra space (pass a nil layout for none).
//
//	    _       _
//	|_| _|  q   _|
//	  ||_   .  |_
func SegmentArt(digits []segment.Digit, l Layout) string {
	gapAfter := map[int]bool{}
	if l.Digits() == len(digits) {
		n := 0
		for _, c := range l[:max(len(l)-1, 0)] {
			n += c.Width
			gapAfter[n-1] = true
		}
	}
	var rows [3]strings.Builder
	on := func(d, s segment.Digit, c byte) byte {
		if d&s != 0 {
			return c
		}
		return ' '
	}
	for i, d := range digits {
		rows[0].WriteByte(' ')
		rows[0].WriteByte(on(d, segment.A, '_'))
		rows[0].WriteString("  ")
		rows[1].Write([]byte{on(d, segment.F, '|'), on(d, segment.G, '_'), on(d, segment.B, '|'), ' '})
		rows[2].Write([]byte{on(d, segment.E, '|'), on(d, segment.D, '_'), on(d, segment.C, '|'), on(d, segment.DP, '.')})
		if gapAfter[i] {
			for r := range rows {
				rows[r].WriteByte(' ')
			}
		}
	}
	var out strings.Builder
	for r := range rows {
		out.WriteString(strings.TrimRight(rows[r].String(), " "))
		out.WriteByte('\n')
	}
	return out.String()
}

// PlainText writes the scoreboard as a few lines of plain text: board,
// queen and turn; one line per team; the fouls of the last event; the
// match result.
func PlainText(sb Scoreboard) string {
	if !sb.Active {
		return "no match\n"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "board %d  queen: %s", sb.Board, queenText(sb.QueenState))
	if !sb.MatchOver && sb.TurnTeam >= 0 {
		fmt.Fprintf(&b, "  turn: %s", sb.TurnSeat)
		if sb.TurnPlayer != "" {
			fmt.Fprintf(&b, " %s", sb.TurnPlayer)
		}
		fmt.Fprintf(&b, " (%s)", TeamLetter(sb.TurnTeam))
	}
	b.WriteByte('\n')
	w := max(len(sb.Names[0]), len(sb.Names[1]))
	for t := 0; t < 2; t++ {
		fmt.Fprintf(&b, "%s  %-*s  %3d  boards %d  men %d", TeamLetter(t), w, sb.Names[t], sb.Score[t], sb.BoardsWon[t], sb.Men[t])
		if sb.Winner == t {
			b.WriteString("  WINNER")
		}
		b.WriteByte('\n')
	}
	if len(sb.Fouls) > 0 {
		fmt.Fprintf(&b, "FOUL: %s\n", strings.Join(sb.Fouls, ", "))
	}
	if sb.MatchOver {
		if sb.Winner >= 0 {
			fmt.Fprintf(&b, "MATCH WON by %s (%s)\n", TeamLetter(sb.Winner), sb.Names[sb.Winner])
		} else {
			b.WriteString("MATCH OVER\n")
		}
	}
	return b.String()
}

func queenText(q rules.Queen) string {
	team := TeamLetter(q.Team)
	switch q.Status {
	case rules.QueenOnBoard:
		return "on the board"
	case rules.QueenAwaitingCover:
		return team + " to cover"
	case rules.QueenCovered:
		return "covered by " + team
	case rules.QueenAwaitingPlacement:
		return "to be placed back"
	case "":
		return "-"
	}
	return string(q.Status)
}
