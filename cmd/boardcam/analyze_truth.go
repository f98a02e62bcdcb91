package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/calibrate"
	"github.com/boardcam/boardcam/corpus"
	"github.com/boardcam/boardcam/eval"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/internal/cvio"
	"github.com/boardcam/boardcam/pipeline"
	"github.com/boardcam/boardcam/pipeline/evalpipe"
	"github.com/boardcam/boardcam/rules"
	"github.com/boardcam/boardcam/tracker"
	"github.com/boardcam/boardcam/vision"
	"github.com/boardcam/boardcam/vision/analysis"
)

// The comparison with a clip's ground truth (`boardcam analyze --truth`):
// a developer's diagnostic. Every true event is matched with a reported
// one of the same type and key (as `boardcam eval` keys them: the side,
// the kinds, the pocket) within a few frames; every miss and every extra
// event is printed with the tracker's view of the frames around it — the
// pieces concerned, the striker and whatever moved, what vision detected
// near them and where the truth has them — so that the cause can be read
// off. The fouls the referee makes of the reported events are compared
// with the truth's the same way.

// truthWindow is how many frames apart a reported event may be from the
// true one it matches (as eval's default window).
const truthWindow = eval.DefaultEventWindow

// frameView is the tracker's state after one frame.
type frameView struct {
	index  int
	t      float64
	pieces []tracker.Piece
	dets   []vision.Detection
	note   string
}

// clipLens is the clip's lens file, as eval gives it to the pipeline (nil
// when the corpus has none for it).
func clipLens(dir string, t *corpus.Truth) (*calibrate.Lens, error) {
	ix, err := corpus.ReadLensIndex(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	e, ok := ix.Clips[t.Clip.Name]
	if !ok || len(t.Cameras) == 0 {
		return nil, nil
	}
	c := t.Cameras[0]
	if fp := corpus.CameraFingerprint(t.Clip.Width, t.Clip.Height, c.CameraMatrix, c.DistCoeffs); fp != e.Camera {
		return nil, fmt.Errorf("the lens file %s was made for camera %s, the clip's camera is now %s", e.File, e.Camera, fp)
	}
	return calibrate.LoadLens(filepath.Join(dir, corpus.LensDir, e.File))
}

// cameraIndex is the index of the truth's camera entry of frame i (-1:
// none).
func cameraIndex(t *corpus.Truth, i int) int {
	for k := range t.Cameras {
		if c := &t.Cameras[k]; i >= c.From && i <= c.To {
			return k
		}
	}
	return -1
}

// clipGeometry is the board of a clip (its board file, else ICF).
func clipGeometry(t *corpus.Truth, truthPath string) (*board.Geometry, error) {
	if t.Clip.BoardFile == "" {
		return board.ICF(), nil
	}
	return board.Load(filepath.Join(filepath.Dir(truthPath), t.Clip.BoardFile))
}

// eventKeyOf is what must agree for two events of a type to match (as
// `boardcam eval` compares them).
func eventKeyOf(e events.Event) string {
	side := "?"
	if e.Side != nil {
		side = e.Side.String()
	}
	kind := "?"
	if e.Piece != nil {
		kind = e.Piece.String()
	} else if k, err := board.KindOfID(e.ID); err == nil {
		kind = k.String()
	}
	switch e.Type {
	case events.StrokeStart, events.FrontLineCrossed, events.ArmOverFoulLine:
		return side
	case events.Contact:
		name := func(id string) string {
			if k, err := board.KindOfID(id); err == nil {
				return k.String()
			}
			return strings.ToLower(id)
		}
		ab := []string{name(e.A), name(e.B)}
		sort.Strings(ab)
		return ab[0] + "+" + ab[1]
	case events.Pocketed:
		pk := "?"
		if e.Pocket != nil {
			pk = e.Pocket.String()
		}
		return kind + "@" + pk
	case events.Overboard, events.Placed, events.Moved:
		return kind
	}
	return ""
}

// matchGreedy pairs true and reported items (same type and key) nearest
// in frames first, within window(i) frames of true item i. It returns,
// for each side, the index of the partner or -1.
func matchGreedy(tf, rf []int, tk, rk []string, window func(i int) int) ([]int, []int) {
	mt, mr := make([]int, len(tf)), make([]int, len(rf))
	for i := range mt {
		mt[i] = -1
	}
	for j := range mr {
		mr[j] = -1
	}
	type pair struct{ i, j, d int }
	var ps []pair
	for i := range tf {
		for j := range rf {
			if tk[i] != rk[j] {
				continue
			}
			d := rf[j] - tf[i]
			if d < 0 {
				d = -d
			}
			if d <= window(i) {
				ps = append(ps, pair{i, j, d})
			}
		}
	}
	sort.SliceStable(ps, func(a, b int) bool { return ps[a].d < ps[b].d })
	for _, p := range ps {
		if mt[p.i] < 0 && mr[p.j] < 0 {
			mt[p.i], mr[p.j] = p.j, p.i
		}
	}
	return mt, mr
}

// compareTruth prints the comparison of the reported events (and the
// fouls the referee makes of them) with the truth.
func compareTruth(w io.Writer, t *corpus.Truth, g *board.Geometry, got []events.Event, views []frameView) error {
	scored := func(e events.Event) bool {
		switch e.Type {
		case events.Calibrated, events.Recalibrated:
			return false
		}
		return true
	}
	var te, re []events.Event
	for _, e := range t.Events {
		if scored(e) {
			te = append(te, e)
		}
	}
	for _, e := range got {
		if scored(e) {
			re = append(re, e)
		}
	}
	tf, rf := make([]int, len(te)), make([]int, len(re))
	tk, rk := make([]string, len(te)), make([]string, len(re))
	for i, e := range te {
		tf[i], tk[i] = e.Frame, string(e.Type)+" "+eventKeyOf(e)
	}
	for j, e := range re {
		rf[j], rk[j] = e.Frame, string(e.Type)+" "+eventKeyOf(e)
	}
	// (placed and moved within half a second, as eval matches them: the
	// truth stamps the moment the hand lets go, the camera sees the disc
	// once the hand has gone)
	hand := max(truthWindow, int(math.Round(eval.HandEventWindow*float64(t.Clip.FPS))))
	mt, mr := matchGreedy(tf, rf, tk, rk, func(i int) int {
		if te[i].Type == events.Placed || te[i].Type == events.Moved {
			return hand
		}
		return truthWindow
	})

	// The table by type.
	type row struct{ truth, rep, match, match2 int }
	rows := map[events.Type]*row{}
	get := func(typ events.Type) *row {
		if rows[typ] == nil {
			rows[typ] = &row{}
		}
		return rows[typ]
	}
	for i, e := range te {
		r := get(e.Type)
		r.truth++
		if j := mt[i]; j >= 0 {
			r.match++
			if d := rf[j] - tf[i]; d >= -2 && d <= 2 {
				r.match2++
			}
		}
	}
	for _, e := range re {
		get(e.Type).rep++
	}
	var types []string
	for typ := range rows {
		types = append(types, string(typ))
	}
	sort.Strings(types)
	fmt.Fprintf(w, "%s: %d frames, %d true events, %d reported\n\n", t.Clip.Name, t.Clip.Frames, len(te), len(re))
	fmt.Fprintf(w, "%-20s %6s %9s %8s %9s\n", "event", "truth", "reported", "matched", "within 2")
	for _, typ := range types {
		r := rows[events.Type(typ)]
		fmt.Fprintf(w, "%-20s %6d %9d %8d %9d\n", typ, r.truth, r.rep, r.match, r.match2)
	}

	// Every event in time order, marked.
	type line struct {
		frame int
		t     float64
		mark  string
		text  string
		extra bool
		miss  bool
		e     events.Event
	}
	var lines []line
	for i, e := range te {
		switch j := mt[i]; {
		case j < 0:
			lines = append(lines, line{e.Frame, e.T, "- MISSED", describeEvent(e), false, true, e})
		case rf[j] != tf[i]:
			lines = append(lines, line{e.Frame, e.T, fmt.Sprintf("~ %+d fr ", rf[j]-tf[i]), describeEvent(e), false, false, e})
		default:
			lines = append(lines, line{e.Frame, e.T, "= ", describeEvent(e), false, false, e})
		}
	}
	for j, e := range re {
		if mr[j] < 0 {
			lines = append(lines, line{e.Frame, e.T, "+ EXTRA ", describeEvent(e), true, false, e})
		}
	}
	sort.SliceStable(lines, func(a, b int) bool { return lines[a].t < lines[b].t })
	fmt.Fprintf(w, "\nevents (= matched, ~ matched off by frames, - true event missed, + reported, not true):\n")
	for _, l := range lines {
		fmt.Fprintf(w, "%-9s %s\n", l.mark, l.text)
	}

	// Fouls.
	if err := compareFouls(w, t, g, got); err != nil {
		fmt.Fprintf(w, "\nfouls: %v\n", err)
	}

	// The tracker's view around each miss and extra.
	for _, l := range lines {
		if !l.miss && !l.extra {
			continue
		}
		what := "missed"
		if l.extra {
			what = "extra"
		}
		fmt.Fprintf(w, "\n── %s: %s\n", what, l.text)
		printViews(w, t, g, views, l.e, l.extra)
	}
	return nil
}

// compareFouls referees the reported events as eval does and compares the
// fouls with the truth's.
func compareFouls(w io.Writer, t *corpus.Truth, g *board.Geometry, got []events.Event) error {
	cfg, err := t.Referee.RefereeConfig(g, false)
	if err != nil {
		return err
	}
	var valid []events.Event
	for _, e := range got {
		if e.Validate() == nil {
			valid = append(valid, e)
		}
	}
	j, err := t.Referee.Judge(valid, cfg)
	if err != nil {
		return err
	}
	var truth []corpus.Foul
	if t.Judgement != nil {
		truth = t.Judgement.Fouls
	}
	key := func(f corpus.Foul) string { return string(f.Foul) + " " + f.Seat.String() }
	tf, rf := make([]int, len(truth)), make([]int, len(j.Fouls))
	tk, rk := make([]string, len(truth)), make([]string, len(j.Fouls))
	for i, f := range truth {
		tf[i], tk[i] = f.Frame, key(f)
	}
	for i, f := range j.Fouls {
		rf[i], rk[i] = f.Frame, key(f)
	}
	window := max(truthWindow, int(math.Round(eval.DefaultFoulWindow*float64(t.Clip.FPS))))
	mt, mr := matchGreedy(tf, rf, tk, rk, func(int) int { return window })
	fmt.Fprintf(w, "\nfouls (%d true, %d called):\n", len(truth), len(j.Fouls))
	for i, f := range truth {
		mark := "= "
		if mt[i] < 0 {
			mark = "- MISSED"
		}
		fmt.Fprintf(w, "%-9s frame %6d  %-22s %s  %s %s\n", mark, f.Frame, f.Foul, f.Seat, f.Status, f.Reason)
	}
	for i, f := range j.Fouls {
		if mr[i] < 0 {
			fmt.Fprintf(w, "%-9s frame %6d  %-22s %s  %s %s\n", "+ EXTRA", f.Frame, f.Foul, f.Seat, f.Status, f.Reason)
		}
	}
	if j.Final != nil && t.Judgement != nil && t.Judgement.Final != nil {
		fmt.Fprintf(w, "final: %s\ntruth: %s\n", stateLine(*j.Final), stateLine(*t.Judgement.Final))
	}
	return nil
}

// printViews prints the tracker's view of the frames around event e.
func printViews(w io.Writer, t *corpus.Truth, g *board.Geometry, views []frameView, e events.Event, reported bool) {
	// The pieces of interest: the event's own (for a true event, the
	// tracked disc of its kind nearest to where the truth has it).
	ids := map[string]bool{"S": true}
	var kinds []board.Kind
	if e.Piece != nil {
		kinds = append(kinds, *e.Piece)
	}
	for _, id := range []string{e.ID, e.A, e.B} {
		if id == "" || id == events.Frame {
			continue
		}
		if reported {
			ids[id] = true
		} else if k, err := board.KindOfID(id); err == nil {
			kinds = append(kinds, k)
			if f := e.Frame; f >= 0 && f < len(t.Frames) {
				if tp, ok := truthPos(t, f, id); ok {
					if p, ok := nearestPiece(views, f, k, tp); ok {
						ids[p] = true
					}
				}
			}
		}
	}
	var extra []string
	if !reported {
		extra = []string{e.ID, e.A, e.B}
	}
	_ = kinds
	printFramesIDs(w, t, views, e.Frame-6, e.Frame+4, ids, extra)
}

// printFrames prints the tracker's view of frames lo…hi: the striker and
// whatever moves.
func printFrames(w io.Writer, t *corpus.Truth, views []frameView, lo, hi int, ids map[string]bool) {
	only := ids != nil
	if ids == nil {
		ids = map[string]bool{"S": true}
	}
	printFramesOf(w, t, views, lo, hi, ids, nil, only)
}

// printFramesIDs prints frames lo…hi: the pieces ids, those moving, the
// detections near them and the truth's discs truthIDs.
func printFramesIDs(w io.Writer, t *corpus.Truth, views []frameView, lo, hi int, ids map[string]bool, truthIDs []string) {
	printFramesOf(w, t, views, lo, hi, ids, truthIDs, false)
}

// printFramesOf prints frames lo…hi: the pieces ids (and, unless only,
// those moving), the detections near them and the truth's discs truthIDs.
func printFramesOf(w io.Writer, t *corpus.Truth, views []frameView, lo, hi int, ids map[string]bool, truthIDs []string, only bool) {
	for f := lo; f <= hi; f++ {
		if f < 0 || f >= len(views) {
			continue
		}
		v := views[f]
		fmt.Fprintf(w, "  frame %d  %.3f s", v.index, v.t)
		if v.note != "" {
			fmt.Fprintf(w, "  (%s)", v.note)
		}
		fmt.Fprintln(w)
		var near []board.Vec
		for _, p := range v.pieces {
			if !ids[p.ID] && (only || p.State != tracker.Moving) {
				continue
			}
			near = append(near, p.MM)
			seen := " "
			if p.Seen {
				seen = "*"
			}
			tr := ""
			if f < len(t.Frames) {
				if tp, ok := nearestTruth(t, f, p.Kind, p.MM); ok {
					tr = fmt.Sprintf("  truth %s", tp)
				}
			}
			fmt.Fprintf(w, "    %-3s %-9s%s (%7.1f, %7.1f) v %5.0f%s\n", p.ID, p.State, seen, p.MM.X, p.MM.Y, p.Vel.Len(), tr)
		}
		if f < len(t.Frames) {
			// The truth's discs of the event.
			for _, d := range t.Frames[f].Discs {
				for _, id := range truthIDs {
					if id != "" && d.ID == id {
						near = append(near, d.Pos())
					}
				}
			}
		}
		for _, d := range v.dets {
			for _, q := range near {
				if d.MM.Dist(q) < 80 {
					part := ""
					if d.Partial {
						part = " partial"
					}
					fmt.Fprintf(w, "      det %-7s (%7.1f, %7.1f) class %.2f%s\n", d.Kind, d.MM.X, d.MM.Y, d.ClassScore, part)
					break
				}
			}
		}
	}
}

// truthPos is where the truth has disc id in frame f.
func truthPos(t *corpus.Truth, f int, id string) (board.Vec, bool) {
	for _, d := range t.Frames[f].Discs {
		if d.ID == id && d.MM != nil {
			return d.Pos(), true
		}
	}
	return board.Vec{}, false
}

// nearestPiece is the tracked piece of kind k nearest to p in frame f.
func nearestPiece(views []frameView, f int, k board.Kind, p board.Vec) (string, bool) {
	if f >= len(views) {
		return "", false
	}
	best, bd := "", math.Inf(1)
	for _, q := range views[f].pieces {
		if q.Kind == k && q.MM.Dist(p) < bd {
			best, bd = q.ID, q.MM.Dist(p)
		}
	}
	return best, best != ""
}

// nearestTruth describes the true disc of kind k nearest to p in frame f.
func nearestTruth(t *corpus.Truth, f int, k board.Kind, p board.Vec) (string, bool) {
	var best *corpus.DiscTruth
	bd := math.Inf(1)
	for i := range t.Frames[f].Discs {
		d := &t.Frames[f].Discs[i]
		if d.Kind != k || d.MM == nil {
			continue
		}
		if dist := d.Pos().Dist(p); dist < bd {
			best, bd = d, dist
		}
	}
	if best == nil {
		return "", false
	}
	s := fmt.Sprintf("%s %s (%.1f, %.1f) off %.1f", best.ID, best.State, best.Pos().X, best.Pos().Y, bd)
	if best.Hand > 0 {
		s += fmt.Sprintf(" hand %.2f", float64(best.Hand))
	}
	return s, true
}

// stateLine summarises a match state: board, turn, each team's men and
// score, the queen.
func stateLine(s rules.State) string {
	var b strings.Builder
	fmt.Fprintf(&b, "board %d, %s to strike, strokes %d; ", s.Board, s.Turn, s.Strokes)
	for i, tm := range s.Teams {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s (%s) score %d, %d on board, %d pocketed, %d owed", tm.Name, tm.Colour, tm.Score, tm.OnBoard, tm.Pocketed, tm.Owed)
	}
	fmt.Fprintf(&b, "; queen %s", s.Queen.Status)
	return b.String()
}

// cmdAnalyzeTruth runs the pipeline over a corpus clip configured as
// `boardcam eval` configures it and compares what it says with the truth.
func cmdAnalyzeTruth(ctx context.Context, t *corpus.Truth, truthPath, video, calArg, view string, every int, late bool, s stdio) error {
	if every < 1 || (every > 1 && t.Clip.FPS%every != 0) {
		return usageError("--every %d: want a divisor of the clip's %d fps", every, t.Clip.FPS)
	}
	if late && every < 2 {
		return usageError("--late: want --every K with K ≥ 2")
	}
	// phase: the first frame the slower camera films.
	phase := 0
	if late {
		phase = every / 2
	}
	vlo, vhi := -1, -2
	var vids map[string]bool
	if view != "" {
		fr, list, _ := strings.Cut(view, ":")
		if _, err := fmt.Sscanf(fr, "%d-%d", &vlo, &vhi); err != nil {
			return usageError("--view %q: want frames A-B[:ID,ID…]", view)
		}
		if list != "" {
			vids = map[string]bool{}
			for _, id := range strings.Split(list, ",") {
				vids[strings.TrimSpace(id)] = true
			}
		}
	}
	g, err := clipGeometry(t, truthPath)
	if err != nil {
		return err
	}
	// What eval tells the pipeline about the clip (eval's defaults: the
	// installed orientation, the clip's lens file), configured as
	// evalpipe configures it.
	clip := eval.Clip{Name: t.Clip.Name, Video: video, FPS: t.Clip.FPS, Width: t.Clip.Width, Height: t.Clip.Height,
		Frames: t.Clip.Frames, Geometry: g, Referee: t.Referee, Calibration: eval.CalibrationAuto}
	if every > 1 {
		clip.FPS /= every
		clip.Frames = (clip.Frames - phase + every - 1) / every
	}
	if len(t.Cameras) > 0 {
		if d, ok := eval.SouthAtOf(&t.Cameras[0], g); ok {
			clip.SouthAt = d
		}
	}
	var base pipeline.Config
	var cams []*calibrate.Calibration // the true calibration of each camera entry (--calibration truth)
	switch calArg {
	case "":
		if clip.Lens, err = clipLens(filepath.Dir(truthPath), t); err != nil {
			return fmt.Errorf("analyze: %s: %w", truthPath, err)
		}
	case "truth":
		clip.Calibration = eval.CalibrationTruth
		o := calibrate.Orientation{SouthAt: calibrate.Bottom, Breaker: t.Referee.Break, BreakerSource: "config"}
		for k := range t.Cameras {
			c, err := eval.TrueCalibration(&t.Cameras[k], t.Clip.Width, t.Clip.Height, g, o)
			if err != nil {
				return fmt.Errorf("analyze: %s: camera %d: %w", truthPath, k, err)
			}
			cams = append(cams, c)
		}
		if k := cameraIndex(t, 0); k >= 0 {
			clip.TrueCalibration = cams[k]
		}
	default:
		if base.Calibration, err = calibrate.Load(calArg); err != nil {
			return err
		}
	}
	cfg, err := evalpipe.Configure(base, clip)
	if err != nil {
		return fmt.Errorf("analyze: %w", err)
	}
	cal := clip.TrueCalibration
	vc, err := cvio.OpenVideo(video)
	if err != nil {
		return fmt.Errorf("analyze: %s: cannot open the video: %w", video, err)
	}
	defer vc.Close()
	a, err := analysis.New(cfg)
	if err != nil {
		return err
	}
	defer a.Close()
	img := gocv.NewMat()
	defer img.Close()
	var got []events.Event
	var views []frameView
	for i := 0; ; i++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		if !vc.Read(&img) || img.Empty() {
			if err := vc.Err(); err != nil {
				return fmt.Errorf("analyze: %s: %w", video, err)
			}
			break
		}
		if k := cameraIndex(t, i); cams != nil && k >= 0 && cams[k] != cal {
			// The true camera moved (as eval hands it over).
			if err := a.SetCalibration(cams[k]); err != nil {
				return fmt.Errorf("analyze: %s: frame %d: %w", video, i, err)
			}
			cal = cams[k]
		}
		if i%every != phase {
			// not filmed by the slower camera: the tracker's view stays
			v := frameView{index: i, t: float64(i) / float64(t.Clip.FPS), note: "not filmed"}
			if len(views) > 0 {
				v.pieces = views[len(views)-1].pieces
			}
			views = append(views, v)
			continue
		}
		res, err := a.Process(&img, i/every, float64(i)/float64(t.Clip.FPS))
		if err != nil {
			return fmt.Errorf("analyze: %s: %w", video, err)
		}
		for _, e := range res.Events {
			e.Frame = e.Frame*every + phase
			got = append(got, e)
		}
		v := frameView{index: i, t: res.T, note: res.Note,
			pieces: append([]tracker.Piece(nil), a.Tracker().Pieces()...),
			dets:   append([]vision.Detection(nil), res.Detections...)}
		views = append(views, v)
	}
	for _, e := range a.Finish() {
		e.Frame = e.Frame*every + phase
		got = append(got, e)
	}
	if err := compareTruth(s.Out, t, g, got, views); err != nil {
		return err
	}
	if vlo <= vhi {
		fmt.Fprintf(s.Out, "\n── frames %d-%d\n", vlo, vhi)
		printFrames(s.Out, t, views, vlo, vhi, vids)
	}
	return nil
}
