package display

import (
	"fmt"
	"strconv"
	"strings"
)

// Field is one thing a segment scoreboard can show.
type Field uint8

// The fields. Team A is team 0 of rules.State, team B is team 1.
const (
	FieldBlank      Field = iota // always dark: spacing
	FieldScoreA                  // team A's match score
	FieldScoreB                  // team B's match score
	FieldBoard                   // number of the board in play
	FieldQueenA                  // the queen as seen from team A (see QueenMark)
	FieldQueenB                  // the queen as seen from team B
	FieldBoardsWonA              // boards won by team A
	FieldBoardsWonB              // boards won by team B
	FieldMenA                    // team A's carrommen still on the board
	FieldMenB                    // team B's carrommen still on the board
	numFields
)

var fieldNames = [numFields]string{
	FieldBlank:      "blank",
	FieldScoreA:     "score_a",
	FieldScoreB:     "score_b",
	FieldBoard:      "board",
	FieldQueenA:     "queen_a",
	FieldQueenB:     "queen_b",
	FieldBoardsWonA: "boards_won_a",
	FieldBoardsWonB: "boards_won_b",
	FieldMenA:       "men_a",
	FieldMenB:       "men_b",
}

// defaultWidth is the width of a field written without ":n".
var defaultWidth = [numFields]int{
	FieldBlank: 1, FieldScoreA: 2, FieldScoreB: 2, FieldBoard: 2,
	FieldQueenA: 1, FieldQueenB: 1, FieldBoardsWonA: 1, FieldBoardsWonB: 1,
	FieldMenA: 1, FieldMenB: 1,
}

func (f Field) String() string {
	if f < numFields {
		return fieldNames[f]
	}
	return fmt.Sprintf("Field(%d)", int(f))
}

// ParseField reads a field name such as "score_a".
func ParseField(s string) (Field, error) {
	for i, n := range fieldNames {
		if strings.EqualFold(s, n) {
			return Field(i), nil
		}
	}
	return 0, fmt.Errorf("unknown field %q (want one of %s)", s, strings.Join(fieldNames[:], ", "))
}

// team returns the team a field belongs to, or -1.
func (f Field) team() int {
	switch f {
	case FieldScoreA, FieldQueenA, FieldBoardsWonA, FieldMenA:
		return 0
	case FieldScoreB, FieldQueenB, FieldBoardsWonB, FieldMenB:
		return 1
	}
	return -1
}

// FieldSet is a set of fields (the ones that blink).
type FieldSet uint32

// Has reports whether f is in the set.
func (s FieldSet) Has(f Field) bool { return s&(1<<f) != 0 }

// With returns the set with f added.
func (s FieldSet) With(f ...Field) FieldSet {
	for _, x := range f {
		s |= 1 << x
	}
	return s
}

// AllFields is every field.
const AllFields FieldSet = 1<<numFields - 1

// Cell is one field and how many digits it takes.
type Cell struct {
	Field Field
	Width int
}

// Layout is a row of cells, left to right as the spectators see it.
type Layout []Cell

// DefaultLayout is the 8-digit layout of one MAX7219 module or of two
// 4-digit HT16K33 backpacks:
//
//	digit: 1 2   3   4 5   6   7 8
//	       score A queen A board queen B score B
var DefaultLayout = Layout{
	{FieldScoreA, 2}, {FieldQueenA, 1}, {FieldBoard, 2}, {FieldQueenB, 1}, {FieldScoreB, 2},
}

// ShortLayout is the 4-digit layout of a single HT16K33 backpack: the two
// scores.
var ShortLayout = Layout{{FieldScoreA, 2}, {FieldScoreB, 2}}

// maxLayoutDigits bounds a layout (eight cascaded MAX7219 chips).
const maxLayoutDigits = 64

// Digits is the number of digits the layout takes.
func (l Layout) Digits() int {
	n := 0
	for _, c := range l {
		n += c.Width
	}
	return n
}

// String writes the layout in the form ParseLayout reads.
func (l Layout) String() string {
	parts := make([]string, len(l))
	for i, c := range l {
		parts[i] = fmt.Sprintf("%s:%d", c.Field, c.Width)
	}
	return strings.Join(parts, " ")
}

// Repeat returns n copies of the layout side by side (the default for
// cascaded chips: every module shows the whole scoreboard, for spectators on
// different sides of the room).
func (l Layout) Repeat(n int) Layout {
	out := make(Layout, 0, len(l)*n)
	for i := 0; i < n; i++ {
		out = append(out, l...)
	}
	return out
}

// Fit returns a layout for a panel of the given number of digits: l itself
// when it is set and fits, or a default (DefaultLayout repeated, or
// ShortLayout for a panel smaller than 8 digits). It is an error for l to
// need more digits than the panel has; a shorter l leaves the rightmost
// digits dark.
func (l Layout) Fit(digits int) (Layout, error) {
	if len(l) == 0 {
		if digits >= DefaultLayout.Digits() {
			return DefaultLayout.Repeat(digits / DefaultLayout.Digits()), nil
		}
		if digits >= ShortLayout.Digits() {
			return ShortLayout, nil
		}
		return Layout{{FieldScoreA, digits}}, nil
	}
	if n := l.Digits(); n > digits {
		return nil, fmt.Errorf("layout %q needs %d digits, the panel has %d", l, n, digits)
	}
	return l, nil
}

// ParseLayout reads a layout written as space- or comma-separated
// "field:width" cells, e.g. "score_a:2 queen_a board:2 queen_b score_b:2";
// a cell without ":width" takes the field's usual width (2 for scores and
// the board number, 1 otherwise).
func ParseLayout(s string) (Layout, error) {
	var l Layout
	cells := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' })
	for i, cell := range cells {
		name, width, hasWidth := strings.Cut(cell, ":")
		f, err := ParseField(name)
		if err != nil {
			return nil, fmt.Errorf("layout cell %d %q: %w", i+1, cell, err)
		}
		w := defaultWidth[f]
		if hasWidth {
			w, err = strconv.Atoi(width)
			if err != nil || w < 1 || w > 8 {
				return nil, fmt.Errorf("layout cell %d %q: width %q is not a number from 1 to 8", i+1, cell, width)
			}
		}
		l = append(l, Cell{f, w})
	}
	if len(l) == 0 {
		return nil, fmt.Errorf("layout %q has no cells", s)
	}
	if n := l.Digits(); n > maxLayoutDigits {
		return nil, fmt.Errorf("layout %q needs %d digits, more than %d", s, n, maxLayoutDigits)
	}
	return l, nil
}

// UnmarshalText implements encoding.TextUnmarshaler (YAML and flags).
func (l *Layout) UnmarshalText(b []byte) error {
	v, err := ParseLayout(string(b))
	if err != nil {
		return err
	}
	*l = v
	return nil
}

// MarshalText implements encoding.TextMarshaler.
func (l Layout) MarshalText() ([]byte, error) { return []byte(l.String()), nil }
