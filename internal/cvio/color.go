package cvio

import "image/color"

// imageNRGBA is c's non-premultiplied 8-bit samples.
func imageNRGBA(c color.Color) [4]uint8 {
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	return [4]uint8{n.R, n.G, n.B, n.A}
}
