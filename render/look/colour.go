package look

import (
	"fmt"
	"strconv"
	"strings"
)

// BGR is a colour in OpenCV's channel order, 0–255 per channel.
type BGR [3]float64

// RGB is the colour of red, green and blue r, g, b.
func RGB(r, g, b float64) BGR { return BGR{b, g, r} }

// The named colours of each style option (render draws with them).
var (
	WoodColours = map[string]BGR{
		"birch": RGB(226, 212, 188),
		"light": RGB(222, 200, 165),
		"honey": RGB(212, 170, 112),
		"dark":  RGB(170, 120, 75),
	}
	FrameColours = map[string]BGR{
		"black":    RGB(24, 22, 22),
		"brown":    RGB(62, 38, 24),
		"mahogany": RGB(92, 36, 26),
		"natural":  RGB(170, 120, 70),
	}
	WhiteColours = map[string]BGR{
		"natural": RGB(214, 176, 122),
		"yellow":  RGB(228, 196, 110),
		"brown":   RGB(150, 92, 62),
	}
	BlackColours = map[string]BGR{
		"worn":  RGB(52, 46, 44),
		"black": RGB(26, 25, 27),
		"brown": RGB(62, 40, 30),
	}
	QueenColours = map[string]BGR{
		"red":  RGB(184, 34, 38),
		"pink": RGB(222, 92, 110),
	}
	StrikerColours = map[string]BGR{
		"white":  RGB(240, 238, 232),
		"ivory":  RGB(238, 226, 196),
		"blue":   RGB(40, 96, 190),
		"green":  RGB(40, 150, 80),
		"yellow": RGB(238, 200, 40),
		"red":    RGB(200, 40, 40),
		"black":  RGB(30, 30, 34),
	}
	// NetColours are the yarn colours of crocheted pocket nets.
	NetColours = map[string][]BGR{
		"mixed": {RGB(180, 30, 35), RGB(230, 228, 220), RGB(30, 60, 150)},
		"red":   {RGB(170, 28, 32), RGB(120, 20, 24)},
		"green": {RGB(20, 90, 40), RGB(220, 220, 210)},
		"white": {RGB(225, 222, 212), RGB(190, 186, 176)},
		"blue":  {RGB(30, 55, 140), RGB(200, 200, 200)},
		"black": {RGB(25, 25, 25), RGB(50, 50, 50)},
	}
)

// ParseColour reads a named colour from m or "#rrggbb".
func ParseColour(s string, m map[string]BGR) (BGR, error) {
	if c, ok := m[s]; ok {
		return c, nil
	}
	if strings.HasPrefix(s, "#") && len(s) == 7 {
		v, err := strconv.ParseUint(s[1:], 16, 32)
		if err == nil {
			return RGB(float64(v>>16&255), float64(v>>8&255), float64(v&255)), nil
		}
	}
	return BGR{}, fmt.Errorf("%q is not one of %s or a colour #rrggbb", s, names(m))
}
