// Package paint is the OpenCV side of boardcam's overlays: it paints an
// [overlay.Drawing] (made without OpenCV by the preview and the evidence
// stills) on a gocv Mat, and its [Painter] does the pixel work those
// cgo-free packages need (copy, scale, encode, decode) behind the
// [overlay.Painter] interface that cmd/boardcam hands them.
package paint

import (
	"image"
	"image/color"
	"math"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/internal/overlay"
)

// Paint draws d on dst in place.
func Paint(dst *gocv.Mat, d overlay.Drawing) {
	if dst.Empty() {
		return
	}
	for _, op := range d.Ops {
		switch op.Kind {
		case overlay.OpLine:
			if len(op.Pts) == 2 {
				gocv.Line(dst, op.Pts[0], op.Pts[1], op.Colour, max(1, op.Th))
			}
		case overlay.OpCircle:
			if len(op.Pts) == 1 {
				DrawDisc(dst, op.Pts[0], op.R, op.Colour, op.Th, op.Dashed)
			}
		case overlay.OpPolygon:
			polygon(dst, op)
		case overlay.OpText:
			if len(op.Pts) == 1 {
				gocv.PutText(dst, op.Text, op.Pts[0], gocv.FontHersheySimplex, op.Scale, op.Colour, max(1, op.Th))
			}
		case overlay.OpTextBox:
			textBox(dst, op)
		case overlay.OpLegend:
			Legend(dst, op.Entries)
		case overlay.OpCaption:
			caption(dst, op.Text, op.Detail)
		}
	}
}

// DrawDisc draws a piece's circle: solid, or dashed when partly hidden;
// th < 0 fills it.
func DrawDisc(dst *gocv.Mat, c image.Point, r int, col color.RGBA, th int, dashed bool) {
	if dashed {
		for a := 0; a < 360; a += 30 {
			gocv.Ellipse(dst, c, image.Pt(r, r), 0, float64(a), float64(a+15), col, th)
		}
		return
	}
	gocv.Circle(dst, c, r, col, th)
}

// polygon draws a closed polygon's outline, or fills it, blended with
// op.Alpha within its bounding box.
func polygon(dst *gocv.Mat, op overlay.Op) {
	if len(op.Pts) < 2 {
		return
	}
	if op.Th >= 0 {
		for i := range op.Pts {
			gocv.Line(dst, op.Pts[i], op.Pts[(i+1)%len(op.Pts)], op.Colour, max(1, op.Th))
		}
		return
	}
	bb := image.Rectangle{Min: op.Pts[0], Max: op.Pts[0]}
	for _, p := range op.Pts[1:] {
		bb = bb.Union(image.Rectangle{Min: p, Max: p.Add(image.Pt(1, 1))})
	}
	roi := bb.Inset(-1).Intersect(image.Rect(0, 0, dst.Cols(), dst.Rows()))
	if roi.Empty() {
		return
	}
	pts := make([]image.Point, len(op.Pts))
	for i, p := range op.Pts {
		pts[i] = p.Sub(roi.Min)
	}
	pv := gocv.NewPointsVectorFromPoints([][]image.Point{pts})
	defer pv.Close()
	region := dst.Region(roi)
	defer region.Close()
	if op.Alpha <= 0 || op.Alpha >= 1 {
		gocv.FillPoly(&region, pv, op.Colour)
		return
	}
	layer := region.Clone()
	defer layer.Close()
	gocv.FillPoly(&layer, pv, op.Colour)
	gocv.AddWeighted(region, 1-op.Alpha, layer, op.Alpha, 0, &region)
}

// textBox draws a line of text on a shade box in a corner.
func textBox(dst *gocv.Mat, op overlay.Op) {
	th := max(1, op.Th)
	sz := gocv.GetTextSize(op.Text, gocv.FontHersheySimplex, op.Scale, th)
	if op.Bottom {
		rows := dst.Rows()
		gocv.Rectangle(dst, image.Rect(0, rows-sz.Y-18, sz.X+16, rows), op.Shade, -1)
		gocv.PutText(dst, op.Text, image.Pt(8, rows-9), gocv.FontHersheySimplex, op.Scale, op.Colour, th)
		return
	}
	gocv.Rectangle(dst, image.Rect(0, 0, sz.X+12, sz.Y+14), op.Shade, -1)
	gocv.PutText(dst, op.Text, image.Pt(6, sz.Y+6), gocv.FontHersheySimplex, op.Scale, op.Colour, th)
}

// Legend draws the entries in a shaded box in the picture's top-right
// corner, at a size that suits the picture (scale 1 for 720 rows).
func Legend(dst *gocv.Mat, entries []overlay.Entry) {
	if dst.Empty() || len(entries) == 0 {
		return
	}
	scale := math.Max(0.6, float64(dst.Rows())/720)
	fs := 0.45 * scale
	th := int(math.Max(1, math.Round(scale)))
	lineH := int(math.Round(20 * scale))
	sw := int(math.Round(14 * scale))
	pad := int(math.Round(6 * scale))
	w := 0
	for _, e := range entries {
		sz := gocv.GetTextSize(e.Label, gocv.FontHersheySimplex, fs, th)
		if sz.X > w {
			w = sz.X
		}
	}
	boxW := pad*3 + sw + w
	boxH := pad*2 + lineH*len(entries)
	x0 := dst.Cols() - boxW - pad
	y0 := pad
	if x0 < 0 {
		x0 = 0
	}
	roi := image.Rect(x0, y0, min(dst.Cols(), x0+boxW), min(dst.Rows(), y0+boxH))
	region := dst.Region(roi)
	shade := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(0, 0, 0, 0), region.Rows(), region.Cols(), region.Type())
	gocv.AddWeighted(region, 0.35, shade, 0.65, 0, &region)
	shade.Close()
	region.Close()
	for i, e := range entries {
		cy := y0 + pad + lineH*i + lineH/2
		cx := x0 + pad + sw/2
		switch e.Swatch {
		case overlay.Disc:
			gocv.Circle(dst, image.Pt(cx, cy), sw/2, e.Colour, th)
		case overlay.Dashed:
			DrawDisc(dst, image.Pt(cx, cy), sw/2, e.Colour, th, true)
		case overlay.Line:
			gocv.Line(dst, image.Pt(cx-sw/2, cy), image.Pt(cx+sw/2, cy), e.Colour, th)
		case overlay.Fill:
			gocv.Rectangle(dst, image.Rect(cx-sw/2, cy-sw/2, cx+sw/2, cy+sw/2), e.Colour, -1)
		}
		gocv.PutText(dst, e.Label, image.Pt(x0+2*pad+sw, cy+int(5*scale)), gocv.FontHersheySimplex, fs, overlay.Text, th)
	}
}

// caption draws the title and detail in a shaded band at the bottom.
func caption(img *gocv.Mat, title, detail string) {
	if title == "" && detail == "" {
		return
	}
	scale := math.Max(0.6, float64(img.Rows())/720)
	fs := 0.8 * scale
	th := int(math.Max(1, math.Round(2*scale)))
	lineH := int(36 * scale)
	n := 1
	if detail != "" {
		n = 2
	}
	top := img.Rows() - lineH*n - int(10*scale)
	gocv.Rectangle(img, image.Rect(0, top, img.Cols(), img.Rows()), overlay.Shade, -1)
	y := top + lineH - int(8*scale)
	if title != "" {
		gocv.PutText(img, title, image.Pt(int(12*scale), y), gocv.FontHersheySimplex, fs, overlay.Foul, th)
		y += lineH
	}
	if detail != "" {
		gocv.PutText(img, detail, image.Pt(int(12*scale), y), gocv.FontHersheySimplex, fs*0.75, overlay.Text, max(1, th-1))
	}
}
