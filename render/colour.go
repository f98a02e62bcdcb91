package render

import "github.com/boardcam/boardcam/render/look"

// bgr is a colour in OpenCV's channel order, 0–255 per channel.
type bgr [3]float64

func rgb(r, g, b float64) bgr { return bgr{b, g, r} }

func (c bgr) scale(k float64) bgr { return bgr{c[0] * k, c[1] * k, c[2] * k} }

func (c bgr) mix(d bgr, t float64) bgr {
	return bgr{c[0] + (d[0]-c[0])*t, c[1] + (d[1]-c[1])*t, c[2] + (d[2]-c[2])*t}
}

func (c bgr) add(d bgr) bgr { return bgr{c[0] + d[0], c[1] + d[1], c[2] + d[2]} }

// Named colours of each style option (package look has them, so that the
// settings are checked without this package).
var (
	woodColours    = look.WoodColours
	frameColours   = look.FrameColours
	whiteColours   = look.WhiteColours
	blackColours   = look.BlackColours
	queenColours   = look.QueenColours
	strikerColours = look.StrikerColours
	// netColours are the yarn colours of crocheted pocket nets.
	netColours = func() map[string][]bgr {
		m := map[string][]bgr{}
		for k, cs := range look.NetColours {
			for _, c := range cs {
				m[k] = append(m[k], bgr(c))
			}
		}
		return m
	}()
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
func parseColour(s string, m map[string]look.BGR) (bgr, error) {
	c, err := look.ParseColour(s, m)
	return bgr(c), err
}
