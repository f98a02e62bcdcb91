package render

import (
	"fmt"
	"strconv"
	"strings"
)

// bgr is a colour in OpenCV's channel order, 0–255 per channel.
type bgr [3]float64

func rgb(r, g, b float64) bgr { return bgr{b, g, r} }

func (c bgr) scale(k float64) bgr { return bgr{c[0] * k, c[1] * k, c[2] * k} }

func (c bgr) mix(d bgr, t float64) bgr {
	return bgr{c[0] + (d[0]-c[0])*t, c[1] + (d[1]-c[1])*t, c[2] + (d[2]-c[2])*t}
}

func (c bgr) add(d bgr) bgr { return bgr{c[0] + d[0], c[1] + d[1], c[2] + d[2]} }

// Named colours of each style option.
var (
	woodColours = map[string]bgr{
		"birch": rgb(226, 212, 188),
		"light": rgb(222, 200, 165),
		"honey": rgb(212, 170, 112),
		"dark":  rgb(170, 120, 75),
	}
	frameColours = map[string]bgr{
		"black":    rgb(24, 22, 22),
		"brown":    rgb(62, 38, 24),
		"mahogany": rgb(92, 36, 26),
		"natural":  rgb(170, 120, 70),
	}
	whiteColours = map[string]bgr{
		"natural": rgb(214, 176, 122),
		"yellow":  rgb(228, 196, 110),
		"brown":   rgb(150, 92, 62),
	}
	blackColours = map[string]bgr{
		"worn":  rgb(52, 46, 44),
		"black": rgb(26, 25, 27),
		"brown": rgb(62, 40, 30),
	}
	queenColours = map[string]bgr{
		"red":  rgb(184, 34, 38),
		"pink": rgb(222, 92, 110),
	}
	strikerColours = map[string]bgr{
		"white":  rgb(240, 238, 232),
		"ivory":  rgb(238, 226, 196),
		"blue":   rgb(40, 96, 190),
		"green":  rgb(40, 150, 80),
		"yellow": rgb(238, 200, 40),
		"red":    rgb(200, 40, 40),
		"black":  rgb(30, 30, 34),
	}
	// netColours are the yarn colours of crocheted pocket nets.
	netColours = map[string][]bgr{
		"mixed": {rgb(180, 30, 35), rgb(230, 228, 220), rgb(30, 60, 150)},
		"red":   {rgb(170, 28, 32), rgb(120, 20, 24)},
		"green": {rgb(20, 90, 40), rgb(220, 220, 210)},
		"white": {rgb(225, 222, 212), rgb(190, 186, 176)},
		"blue":  {rgb(30, 55, 140), rgb(200, 200, 200)},
		"black": {rgb(25, 25, 25), rgb(50, 50, 50)},
	}
	skinTones = []bgr{
		rgb(232, 190, 160), rgb(214, 164, 126), rgb(196, 140, 100), rgb(168, 112, 78),
		rgb(140, 90, 62), rgb(110, 72, 50), rgb(84, 56, 42),
	}
	sleeveColours = []bgr{
		rgb(30, 40, 80), rgb(120, 120, 124), rgb(232, 232, 228), rgb(110, 28, 36),
		rgb(34, 34, 36), rgb(40, 110, 160), rgb(190, 160, 110), rgb(60, 90, 50),
	}
	inkBlack = rgb(22, 20, 20)
	inkRed   = rgb(200, 30, 36)
)

// parseColour reads a named colour from m or "#rrggbb".
func parseColour(s string, m map[string]bgr) (bgr, error) {
	if c, ok := m[s]; ok {
		return c, nil
	}
	if strings.HasPrefix(s, "#") && len(s) == 7 {
		v, err := strconv.ParseUint(s[1:], 16, 32)
		if err == nil {
			return rgb(float64(v>>16&255), float64(v>>8&255), float64(v&255)), nil
		}
	}
	return bgr{}, fmt.Errorf("%q is not one of %s or a colour #rrggbb", s, names(m))
}
