// Package segment is the seven-segment alphabet: the bits of one digit and
// the glyphs of the characters a digit can show. It is a leaf (it imports
// only the standard library), so the panel drivers (hardware/max7219,
// hardware/ht16k33) speak digits without depending on the scoreboard
// model of package display or on the rules behind it.
package segment

import "fmt"

// Digit is what one 7-segment digit shows: one bit per segment, in the
// usual "gfedcba" order (bit 0 is segment a, the top bar; bit 6 is g, the
// middle bar; bit 7 is the decimal point). This is also the order of the
// HT16K33 backpacks; the MAX7219 driver re-orders the bits for its chip.
//
//	 aaa
//	f   b
//	 ggg
//	e   c
//	 ddd  dp
type Digit uint8

// The segment bits.
const (
	A  Digit = 1 << iota // top
	B                    // top right
	C                    // bottom right
	D                    // bottom
	E                    // bottom left
	F                    // top left
	G                    // middle
	DP                   // decimal point
)

// Blank lights nothing.
const Blank Digit = 0

// font maps the characters a 7-segment digit can show in a readable way.
var font = map[rune]Digit{
	' ': Blank,
	'0': A | B | C | D | E | F,
	'1': B | C,
	'2': A | B | D | E | G,
	'3': A | B | C | D | G,
	'4': B | C | F | G,
	'5': A | C | D | F | G,
	'6': A | C | D | E | F | G,
	'7': A | B | C,
	'8': A | B | C | D | E | F | G,
	'9': A | B | C | D | F | G,
	'-': G,
	'_': D,
	'=': D | G,
	'A': A | B | C | E | F | G,
	'b': C | D | E | F | G,
	'C': A | D | E | F,
	'c': D | E | G,
	'd': B | C | D | E | G,
	'E': A | D | E | F | G,
	'F': A | E | F | G,
	'G': A | C | D | E | F,
	'H': B | C | E | F | G,
	'h': C | E | F | G,
	'J': B | C | D | E,
	'L': D | E | F,
	'n': C | E | G,
	'o': C | D | E | G,
	'P': A | B | E | F | G,
	'q': A | B | C | F | G,
	'r': E | G,
	'S': A | C | D | F | G,
	't': D | E | F | G,
	'U': B | C | D | E | F,
	'u': C | D | E,
	'y': B | C | D | F | G,
}

// Glyph returns the segments that show r, and false when a 7-segment digit
// cannot show r readably.
func Glyph(r rune) (Digit, bool) {
	s, ok := font[r]
	return s, ok
}

// Text turns s into digits, one per character; a '.' lights the decimal
// point of the digit before it. Characters without a glyph are an error.
func Text(s string) ([]Digit, error) {
	var out []Digit
	for i, r := range s {
		if r == '.' && len(out) > 0 && out[len(out)-1]&DP == 0 {
			out[len(out)-1] |= DP
			continue
		}
		g, ok := Glyph(r)
		if !ok {
			return nil, fmt.Errorf("segment: %q at byte %d of %q has no 7-segment glyph", r, i, s)
		}
		out = append(out, g)
	}
	return out, nil
}

// MustText is Text for constant strings known to have glyphs; it panics
// otherwise.
func MustText(s string) []Digit {
	d, err := Text(s)
	if err != nil {
		panic(err)
	}
	return d
}
