package vision

import (
	"image"
	"image/color"
	"math"
	"math/rand"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/corpus"
	"github.com/boardcam/boardcam/internal/cvio"
)

// remapRef is the reference remapInto must match byte for byte: OpenCV's
// remap of the rect's pixels, as the rectifier called it before.
func remapRef(frame gocv.Mat, dst *gocv.Mat, map1, map2 *gocv.Mat, rect image.Rectangle) {
	if rect.Empty() {
		return // (OpenCV refuses an empty table)
	}
	m1 := map1.Region(rect)
	m2 := map2.Region(rect)
	d := dst.Region(rect)
	gocv.Remap(frame, &d, &m1, &m2, gocv.InterpolationLinear, gocv.BorderConstant, color.RGBA{})
	d.Close()
	m2.Close()
	m1.Close()
}

// sameRemap runs remapInto (vector and scalar paths) and remapRef over
// rect into dst images that start with different contents, and fails on
// any byte that differs (outside rect too: nothing else may be written).
func sameRemap(t *testing.T, what string, frame gocv.Mat, map1, map2 *gocv.Mat, rect image.Rectangle) {
	t.Helper()
	n, m := map1.Cols(), map1.Rows()
	want := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(7, 8, 9, 0), m, n, gocv.MatTypeCV8UC3)
	defer want.Close()
	remapRef(frame, &want, map1, map2, rect)
	ref, _ := want.DataPtrUint8()
	defer func() { remapSIMD = true }()
	for _, simd := range []bool{true, false} {
		remapSIMD = simd
		got := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(7, 8, 9, 0), m, n, gocv.MatTypeCV8UC3)
		if err := remapInto(frame, &got, map1, map2, rect); err != nil {
			got.Close()
			t.Fatal(err)
		}
		g, _ := got.DataPtrUint8()
		for k := range g {
			if g[k] != ref[k] {
				px := k / 3
				t.Fatalf("%s, rect %v, simd %v: pixel %d,%d channel %d: %d, OpenCV %d", what, rect, simd, px%n, px/n, k%3, g[k], ref[k])
			}
		}
		got.Close()
	}
}

// sameMeans checks remapMeans (vector and scalar paths) against OpenCV's
// remap of the whole 2nb×2nb table followed by the block means as
// background.observe takes them from b.small.
func sameMeans(t *testing.T, what string, frame gocv.Mat, map1, map2 *gocv.Mat) {
	t.Helper()
	n := map1.Cols()
	nb := n / 2
	small := gocv.NewMatWithSize(n, n, gocv.MatTypeCV8UC3)
	defer small.Close()
	remapRef(frame, &small, map1, map2, image.Rect(0, 0, n, n))
	px, _ := small.DataPtrUint8()
	want := make([]float32, 3*nb*nb)
	blockMeans(px, nb, want)
	defer func() { remapSIMD = true }()
	for _, simd := range []bool{true, false} {
		remapSIMD = simd
		got := make([]float32, 3*nb*nb)
		for k := range got {
			got[k] = -1
		}
		if err := remapMeans(frame, map1, map2, nb, got); err != nil {
			t.Fatal(err)
		}
		for k := range got {
			if math.Float32bits(got[k]) != math.Float32bits(want[k]) {
				t.Fatalf("%s, simd %v: block %d channel %d: %v, from OpenCV's remap %v", what, simd, k/3, k%3, got[k], want[k])
			}
		}
	}
}

// TestRemapMatchesOpenCV: random pictures and tables with every one of
// the 1024 fractions, positions inside, on each border (one or more taps
// outside) and far outside.
func TestRemapMatchesOpenCV(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, sz := range []image.Point{{97, 61}, {2, 2}, {1, 5}} {
		w, h := sz.X, sz.Y
		src := gocv.NewMatWithSize(h, w, gocv.MatTypeCV8UC3)
		px, _ := src.DataPtrUint8()
		for k := range px {
			px[k] = uint8(rng.Intn(256))
			if k%7 == 0 {
				px[k] = 255 // the extremes
			} else if k%11 == 0 {
				px[k] = 0
			}
		}
		const n, m = 64, 48
		map1 := gocv.NewMatWithSize(m, n, gocv.MatTypeCV16SC2)
		map2 := gocv.NewMatWithSize(m, n, gocv.MatTypeCV16UC1)
		m1, _ := map1.DataPtrInt16()
		m2, _ := map2.DataPtrUint16()
		for k := 0; k < n*m; k++ {
			var x, y int
			switch k % 5 {
			case 0, 1: // inside
				x, y = rng.Intn(w), rng.Intn(h)
			case 2: // on a border
				x, y = []int{-2, -1, 0, w - 2, w - 1, w}[rng.Intn(6)], rng.Intn(h+4)-2
			case 3:
				x, y = rng.Intn(w+4)-2, []int{-2, -1, 0, h - 2, h - 1, h}[rng.Intn(6)]
			case 4: // far outside
				x, y = rng.Intn(60001)-30000, rng.Intn(60001)-30000
			}
			m1[2*k], m1[2*k+1] = int16(x), int16(y)
			m2[k] = uint16(k % 1024) // every fraction
			if k%13 == 0 {
				m2[k] |= 0xfc00 // high bits are ignored
			}
		}
		for _, r := range []image.Rectangle{image.Rect(0, 0, n, m), image.Rect(5, 7, 40, 30), image.Rect(63, 0, 64, 48), image.Rect(10, 10, 10, 20)} {
			sameRemap(t, "random", src, &map1, &map2, r)
		}
		sq1, sq2 := map1.Region(image.Rect(0, 0, m, m)), map2.Region(image.Rect(0, 0, m, m))
		s1, s2 := sq1.Clone(), sq2.Clone()
		sameMeans(t, "random", src, &s1, &s2)
		s2.Close()
		s1.Close()
		sq2.Close()
		sq1.Close()
		map2.Close()
		map1.Close()
		src.Close()
	}
}

// TestRemapFourAtATime: tables whose pixels lie mostly inside, so that
// most groups of four take the vector path's shared address test
// (bc_fast4), with now and then one pixel that must not: on the last
// column or row (a tap outside), just outside, or low enough that an
// 8-byte load at its bottom tap would pass the image's end. A source
// wider than 16-bit strides allow takes the other path throughout.
func TestRemapFourAtATime(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for _, sz := range []image.Point{{97, 61}, {5, 3}, {2, 2}, {10923, 3}} {
		w, h := sz.X, sz.Y
		src := gocv.NewMatWithSize(h, w, gocv.MatTypeCV8UC3)
		px, _ := src.DataPtrUint8()
		for k := range px {
			px[k] = uint8(rng.Intn(256))
		}
		const n = 64
		map1 := gocv.NewMatWithSize(n, n, gocv.MatTypeCV16SC2)
		map2 := gocv.NewMatWithSize(n, n, gocv.MatTypeCV16UC1)
		m1, _ := map1.DataPtrInt16()
		m2, _ := map2.DataPtrUint16()
		odd := 0
		for k := 0; k < n*n; k++ {
			x, y := rng.Intn(max(w-1, 1)), rng.Intn(max(h-1, 1)) // all four taps inside
			if rng.Intn(20) == 0 {
				odd++
				switch rng.Intn(6) {
				case 0:
					x = w - 1
				case 1:
					y = h - 1
				case 2:
					x = -1
				case 3:
					y = -1
				default: // the bottom row of taps, near the right: no 8-byte loads
					x, y = max(w-2-rng.Intn(3), 0), max(h-2, 0)
				}
			}
			m1[2*k], m1[2*k+1] = int16(x), int16(y)
			m2[k] = uint16(rng.Intn(1 << 16)) // high bits are ignored
		}
		if odd == 0 {
			t.Fatal("no pixel off the vector path")
		}
		for _, r := range []image.Rectangle{image.Rect(0, 0, n, n), image.Rect(3, 5, 61, 40), image.Rect(1, 0, 6, 64)} {
			sameRemap(t, "four at a time", src, &map1, &map2, r)
		}
		sameMeans(t, "four at a time", src, &map1, &map2)
		map2.Close()
		map1.Close()
		src.Close()
	}
}

// TestRemapMatchesOpenCVOnCorpus: the detector's two tables (the board and
// the low-resolution background samples) over the first frames of corpus
// clips, whole and in rectangles.
func TestRemapMatchesOpenCVOnCorpus(t *testing.T) {
	files := corpusTruthFiles(t)
	checked := 0
	for _, f := range files {
		tr, err := corpus.ReadTruth(f)
		if err != nil {
			t.Fatal(err)
		}
		// a few clips of different cameras and lenses
		if tr.Clip.Name != "break" && tr.Clip.Name != "arm-foul" && tr.Clip.Name != "camera-knock" && tr.Clip.Name != "home-set" {
			continue
		}
		vc, err := cvio.OpenVideo(filepath.Join(filepath.Dir(f), tr.Clip.Video))
		if err != nil {
			t.Fatal(err)
		}
		frame := gocv.NewMat()
		for i := 0; i < 20 && vc.Read(&frame); i++ {
		}
		vc.Close()
		if frame.Empty() {
			frame.Close()
			t.Fatalf("%s: no frame", tr.Clip.Name)
		}
		det, err := New(calFromTruth(t, tr, tr.Camera(0)), Config{})
		if err != nil {
			t.Fatal(err)
		}
		n := det.rect.map1.Cols()
		for _, r := range []image.Rectangle{image.Rect(0, 0, n, n), image.Rect(0, 0, n/3, n/2), image.Rect(n/3, n/4, n, n/2+7)} {
			sameRemap(t, tr.Clip.Name, frame, &det.rect.map1, &det.rect.map2, r)
		}
		l := det.low.map1.Cols()
		sameRemap(t, tr.Clip.Name+" low", frame, &det.low.map1, &det.low.map2, image.Rect(0, 0, l, l))
		sameMeans(t, tr.Clip.Name+" means", frame, &det.low.map1, &det.low.map2)
		// and through the detector: observeFrame's means are observe's
		if err := det.low.apply(frame, &det.bg.small); err != nil {
			t.Fatal(err)
		}
		if err := det.bg.observe(); err != nil {
			t.Fatal(err)
		}
		want := append([]float32(nil), det.bg.cur...)
		if err := det.bg.observeFrame(frame, det.low); err != nil {
			t.Fatal(err)
		}
		for k := range want {
			if math.Float32bits(det.bg.cur[k]) != math.Float32bits(want[k]) {
				t.Fatalf("%s: observeFrame block %d channel %d: %v, observe %v", tr.Clip.Name, k/3, k%3, det.bg.cur[k], want[k])
			}
		}
		det.Close()
		frame.Close()
		checked++
	}
	if checked == 0 {
		t.Fatal("no corpus clip checked")
	}
	t.Logf("%d clips", checked)
}

// sameEdges runs the voter's two paths over roi (with margin) of img: the
// one-pass edge planes (edgePlanes, its channel choice in SSE2 and in
// plain C, then votes or bc_votes in SSE2 or plain C) and OpenCV's Sobel
// with edgeRow (gradients, then edgeVotes), and fails on any bit that
// differs in the edge planes or the vote maps.
func sameEdges(t *testing.T, what string, img gocv.Mat, roi image.Rectangle, margin int, thr float64) {
	t.Helper()
	n := img.Cols()
	b := newVoter(n, 10.4, 12.7)
	defer b.close()
	b.thr = thr
	src := roi.Inset(-margin).Intersect(image.Rect(0, 0, n, n))
	b.gradients(img, src)
	if err := b.edgeVotes(roi, src); err != nil {
		t.Fatal(err)
	}
	defer func() { edgesSIMD, votesSIMD = true, true }()
	// the channel choice in SSE2 and plain C; the votes by votes (Go),
	// bc_votes in SSE2 and bc_votes in plain C
	for v := 0; v < 6; v++ {
		simd, vote := v%2 == 0, v/2
		edgesSIMD, votesSIMD = simd, vote == 1
		a := newVoter(n, 10.4, 12.7)
		a.thr = thr
		if err := a.edgePlanes(img, src, a.thr2()); err != nil {
			t.Fatal(err)
		}
		ends := a.rowEnds
		if vote > 0 {
			if err := a.edgeVotesC(roi, src); err != nil {
				t.Fatal(err)
			}
		} else if err := a.votes(roi, src, func(y int) []int32 {
			j := y - src.Min.Y
			start := int32(0)
			if j > 0 {
				start = ends[j-1]
			}
			return a.rowCols[start:ends[j]]
		}); err != nil {
			t.Fatal(err)
		}
		same := func(plane string, x, y []float32) {
			t.Helper()
			for k := range x {
				if math.Float32bits(x[k]) != math.Float32bits(y[k]) {
					t.Fatalf("%s roi %v margin %d simd %v votes %d: %s at %d,%d: %v, with OpenCV's Sobel %v", what, roi, margin, simd, vote, plane, k%n, k/n, x[k], y[k])
				}
			}
		}
		same("edge", a.edge, b.edge)
		same("ex", a.ex, b.ex)
		same("ey", a.ey, b.ey)
		for i := range a.acc {
			x, _ := a.acc[i].DataPtrFloat32()
			y, _ := b.acc[i].DataPtrFloat32()
			same("votes", x, y)
		}
		a.close()
	}
}

// TestEdgePlanesMatchSobel: the one-pass edge planes are OpenCV's Sobel
// and edgeRow bit for bit, on the synthetic board (regions on the image's
// edges and corners, one and two pixels wide) and on rectified corpus
// frames (the regions the detector searched).
func TestEdgePlanesMatchSobel(t *testing.T) {
	const n = 160
	img := syntheticBoard(t, n)
	for _, roi := range []image.Rectangle{image.Rect(0, 0, n, n), image.Rect(24, 48, 96, 120), image.Rect(0, 72, 48, 160), image.Rect(130, 0, 160, 20),
		image.Rect(50, 50, 53, 90), image.Rect(70, 70, 71, 71), image.Rect(0, 0, 1, 1), image.Rect(159, 10, 160, 30), image.Rect(158, 158, 160, 160), image.Rect(1, 1, 2, 159),
		// widths 3 to 9 (the vector channel choice's 4 pixels and the rest)
		image.Rect(60, 30, 63, 110), image.Rect(61, 30, 65, 110), image.Rect(62, 30, 67, 110), image.Rect(63, 30, 69, 110),
		image.Rect(64, 30, 71, 110), image.Rect(65, 30, 73, 110), image.Rect(66, 30, 75, 110)} {
		for _, margin := range []int{0, 3, 20} {
			for _, thr := range []float64{28, 19.6, 0} {
				sameEdges(t, "synthetic", img, roi, margin, thr)
			}
		}
	}
	img.Close()
	checked := 0
	detectCorpusFrames(t, []string{"break", "lights-dimmed"}, 40, func(det *Detector, clip string, i int) {
		if i%8 != 0 && i > 2 {
			return
		}
		for _, r := range det.grid.rects {
			sameEdges(t, clip, det.img, r, 0, det.vt.thr)
			checked++
		}
	})
	if checked == 0 {
		t.Fatal("no corpus region checked")
	}
	t.Logf("%d corpus regions", checked)
}
