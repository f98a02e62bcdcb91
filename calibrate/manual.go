package calibrate

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"gocv.io/x/gocv"
)

// ParseCorners reads four corners given as "x1,y1,x2,y2,x3,y3,x4,y4" in
// pixels, in image order: top-left, top-right, bottom-right, bottom-left
// (as the surface lies in the picture). Spaces are allowed; a point may
// also be written "x1 y1" or separated by semicolons.
func ParseCorners(s string) ([4]Point, error) {
	var c [4]Point
	f := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ';' || r == ' ' || r == '\t' })
	if len(f) != 8 {
		return c, fmt.Errorf("want 8 numbers x1,y1,x2,y2,x3,y3,x4,y4 (top-left, top-right, bottom-right, bottom-left), got %d", len(f))
	}
	for i, t := range f {
		v, err := strconv.ParseFloat(t, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return c, fmt.Errorf("number %d (%q) is not a coordinate", i+1, t)
		}
		if i%2 == 0 {
			c[i/2].X = v
		} else {
			c[i/2].Y = v
		}
	}
	return c, nil
}

// FromCorners builds a calibration from four corners given by a person (on the
// command line or clicked in the web console), in image order: top-left,
// top-right, bottom-right, bottom-left of the surface as it lies in the
// frame. The frame (already undistorted, when there is a lens model) is
// used to measure how well the board's markings re-project, for the
// quality score; the corners are taken as given.
func FromCorners(img gocv.Mat, corners [4]Point, opt Options) (*Calibration, *Report, error) {
	start := time.Now()
	d, err := newDetector(img, opt, "manual")
	if err != nil {
		return nil, nil, err
	}
	defer d.close()
	cal, err := New(corners, Size{W: img.Cols(), H: img.Rows()}, d.g, d.opt.Orientation, d.opt.Now())
	if err != nil {
		return nil, nil, err
	}
	q := Quality{Method: Manual, Edges: [4]string{"manual", "manual", "manual", "manual"}}
	if err := d.measureQuality(cal, &q); err != nil {
		return nil, nil, err
	}
	cal.Quality = q
	d.rep.ImageCorners = corners
	d.rep.Elapsed = time.Since(start)
	return cal, d.rep, nil
}

// MeasureQuality measures, in a frame, how well the board's markings
// re-project through an existing calibration, for example to re-score a
// calibration loaded from a file against today's camera view. It returns
// the markings part of the quality (method and edges are copied from cal).
func MeasureQuality(img gocv.Mat, cal *Calibration, opt Options) (Quality, *Report, error) {
	if opt.Orientation == (Orientation{}) {
		opt.Orientation = cal.Orientation
	}
	d, err := newDetector(img, opt, "measure quality")
	if err != nil {
		return Quality{}, nil, err
	}
	defer d.close()
	if img.Cols() != cal.ImageSize.W || img.Rows() != cal.ImageSize.H {
		return Quality{}, nil, fmt.Errorf("calibrate: measure quality: frame is %dx%d, the calibration is for %dx%d", img.Cols(), img.Rows(), cal.ImageSize.W, cal.ImageSize.H)
	}
	q := Quality{Method: cal.Quality.Method, Edges: cal.Quality.Edges, EdgeRMSpx: cal.Quality.EdgeRMSpx}
	if err := d.measureQuality(cal, &q); err != nil {
		return Quality{}, nil, err
	}
	d.rep.ImageCorners = cal.ImageCorners()
	return q, d.rep, nil
}

// measureQuality finds the surface colour, the rear base lines and the
// pockets near where cal puts them, measures every marking through cal
// and fills q's markings, confidence and tilt (q's method and edges say
// how the corners were found), and cal's measured markings.
func (d *detector) measureQuality(cal *Calibration, q *Quality) error {
	d.surfaceColour()
	otsuT := d.distanceMap()
	d.otsu = otsuT
	d.thr = math.Max(12, math.Min(50, otsuT))
	d.rep.Threshold = d.thr
	hn, err := HomographyFrom4(unitSquare(), cal.ImageCorners())
	if err == nil {
		d.measureRearLines(hn)
		d.measurePockets(hn, [4]bool{})
	}
	return d.fillQuality(cal, q)
}
