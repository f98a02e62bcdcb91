package display

import "fmt"

// Segments is what one 7-segment digit shows: one bit per segment, in the
// usual "gfedcba" order (bit 0 is segment a, the top bar; bit 6 is g, the
// middle bar; bit 7 is the decimal point). This is also the order of the
// HT16K33 backpacks; the MAX7219 driver re-orders the bits for its chip.
//
//	 aaa
//	f   b
//	 ggg
//	e   c
//	 ddd  dp
type Segments uint8

// The segment bits.
const (
	SegA  Segments = 1 << iota // top
	SegB                       // top right
	SegC                       // bottom right
	SegD                       // bottom
	SegE                       // bottom left
	SegF                       // top left
	SegG                       // middle
	SegDP                      // decimal point
)

// Blank lights nothing.
const Blank Segments = 0

// font maps the characters a 7-segment digit can show in a readable way.
var font = map[rune]Segments{
	' ': Blank,
	'0': SegA | SegB | SegC | SegD | SegE | SegF,
	'1': SegB | SegC,
	'2': SegA | SegB | SegD | SegE | SegG,
	'3': SegA | SegB | SegC | SegD | SegG,
	'4': SegB | SegC | SegF | SegG,
	'5': SegA | SegC | SegD | SegF | SegG,
	'6': SegA | SegC | SegD | SegE | SegF | SegG,
	'7': SegA | SegB | SegC,
	'8': SegA | SegB | SegC | SegD | SegE | SegF | SegG,
	'9': SegA | SegB | SegC | SegD | SegF | SegG,
	'-': SegG,
	'_': SegD,
	'=': SegD | SegG,
	'A': SegA | SegB | SegC | SegE | SegF | SegG,
	'b': SegC | SegD | SegE | SegF | SegG,
	'C': SegA | SegD | SegE | SegF,
	'c': SegD | SegE | SegG,
	'd': SegB | SegC | SegD | SegE | SegG,
	'E': SegA | SegD | SegE | SegF | SegG,
	'F': SegA | SegE | SegF | SegG,
	'G': SegA | SegC | SegD | SegE | SegF,
	'H': SegB | SegC | SegE | SegF | SegG,
	'h': SegC | SegE | SegF | SegG,
	'J': SegB | SegC | SegD | SegE,
	'L': SegD | SegE | SegF,
	'n': SegC | SegE | SegG,
	'o': SegC | SegD | SegE | SegG,
	'P': SegA | SegB | SegE | SegF | SegG,
	'q': SegA | SegB | SegC | SegF | SegG,
	'r': SegE | SegG,
	'S': SegA | SegC | SegD | SegF | SegG,
	't': SegD | SegE | SegF | SegG,
	'U': SegB | SegC | SegD | SegE | SegF,
	'u': SegC | SegD | SegE,
	'y': SegB | SegC | SegD | SegF | SegG,
}

// Glyph returns the segments that show r, and false when a 7-segment digit
// cannot show r readably.
func Glyph(r rune) (Segments, bool) {
	s, ok := font[r]
	return s, ok
}

// Text turns s into digits, one per character; a '.' lights the decimal
// point of the digit before it. Characters without a glyph are an error.
func Text(s string) ([]Segments, error) {
	var out []Segments
	for i, r := range s {
		if r == '.' && len(out) > 0 && out[len(out)-1]&SegDP == 0 {
			out[len(out)-1] |= SegDP
			continue
		}
		g, ok := Glyph(r)
		if !ok {
			return nil, fmt.Errorf("display: %q at byte %d of %q has no 7-segment glyph", r, i, s)
		}
		out = append(out, g)
	}
	return out, nil
}

// mustText is Text for the package's own constant strings.
func mustText(s string) []Segments {
	d, err := Text(s)
	if err != nil {
		panic(err)
	}
	return d
}
