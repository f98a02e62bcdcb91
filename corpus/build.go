package corpus

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/render"
	"github.com/boardcam/boardcam/scene"
	"github.com/boardcam/boardcam/sim"
)

// Simulation is a spec run through the simulator and refereed.
type Simulation struct {
	Spec      *Spec
	Trace     *sim.Trace
	Setup     RefereeSetup
	Judgement *Judgement
	// Lines is the geometry with the markings as the renderer draws them
	// (render.board.lines): what the truth's placements are judged by.
	Lines *board.Geometry
}

// Simulate runs the spec's scenario and referees its events (exactly, as
// ground truth). It does not render anything, but the arm over a foul line
// is judged on the outline the renderer will draw
// ([render.BeyondFoulLine]), not on the simulator's coarser hand model:
// the truth calls that foul exactly when the picture shows it.
func Simulate(sp *Spec) (*Simulation, error) {
	seed := int64(sp.Scenario.Seed)
	tr, err := sim.Run(sp.Scenario, sim.Options{ArmFoul: func(s board.Side, h scene.Hand) bool {
		return render.BeyondFoulLine(h, s, seed) > 0
	}})
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	setup, err := Setup(sp)
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	// A board whose lines are drawn away from the figures is judged by
	// its lines as drawn, as the referee judges it by the lines
	// calibration measures.
	lines := tr.Geometry
	if sp.Render.Board.Lines != (render.LineStyle{}) {
		lines = tr.Geometry.WithMarkings(render.DrawnMarkings(sp.Render.Board, tr.Geometry))
	}
	cfg, err := setup.RefereeConfig(lines, true)
	if err != nil {
		return nil, fmt.Errorf("corpus: %s: %w", sp.Path, err)
	}
	j, err := setup.Judge(tr.Events, cfg)
	if err != nil {
		return nil, fmt.Errorf("corpus: %s: %w", sp.Path, err)
	}
	return &Simulation{Spec: sp, Trace: tr, Setup: setup, Judgement: j, Lines: lines}, nil
}

// Verify checks that the simulation shows what the spec expects: the
// fouls, pockets, jumps, placements, pushes and strokes of expect:, every
// checkable tag of expect.covers, the length, and (mode match) that the
// rules engine accepted every decision. Each problem is one line of the
// error.
func (s *Simulation) Verify() error {
	sp, tr := s.Spec, s.Trace
	var probs []string
	probs = append(probs, sp.Expect.check(summarize(tr.Events, s.Judgement.Fouls))...)
	if d := tr.Duration; d > sp.Expect.MaxSeconds {
		probs = append(probs, fmt.Sprintf("the clip runs %.2f s, longer than %.0f s (expect.max_seconds)", d, sp.Expect.MaxSeconds))
	}
	for _, r := range s.Judgement.Rejected {
		probs = append(probs, "the rules engine rejected a decision: "+r)
	}
	for _, tag := range sp.Expect.Covers {
		if check, ok := tagChecks[tag]; ok {
			if msg := check(s); msg != "" {
				probs = append(probs, fmt.Sprintf("expect.covers %s: %s", tag, msg))
			}
		}
	}
	if len(probs) > 0 {
		return fmt.Errorf("corpus: %s: the clip does not show what it should:\n  %s", sp.Path, strings.Join(probs, "\n  "))
	}
	return nil
}

// tagChecks check a tag of expect.covers against the simulation ("" when
// it holds). Tags that can only be checked on the rendered truth (hands
// hiding discs) are checked in Generate.
var tagChecks = map[string]func(s *Simulation) string{
	"break": func(s *Simulation) string {
		if s.Spec.Scenario.Arrangement.Kind != sim.ArrangeOpening || len(s.Trace.Strokes) == 0 {
			return "no stroke from the opening arrangement"
		}
		return ""
	},
	"single_pocket": func(s *Simulation) string {
		return strokeWith(s, func(st sim.Stroke) bool { return countMen(st) == 1 }, "no stroke pockets exactly one piece")
	},
	"multiple_pockets": func(s *Simulation) string {
		return strokeWith(s, func(st sim.Stroke) bool { return countMen(st) >= 2 }, "no stroke pockets two pieces or more")
	},
	"striker_pocketed": func(s *Simulation) string { return hasPocketed(s, "S") },
	"queen_covered": func(s *Simulation) string {
		if c, ok := queenCover(s); !ok || !c {
			return "the queen is not pocketed and covered"
		}
		return ""
	},
	"queen_not_covered": func(s *Simulation) string {
		if c, ok := queenCover(s); !ok || c {
			return "the queen is not pocketed and left uncovered"
		}
		return ""
	},
	"queen_returned": func(s *Simulation) string { return hasEvent(s, events.Placed, "Q") },
	"overboard":      func(s *Simulation) string { return hasEvent(s, events.Overboard, "") },
	"cluster": func(s *Simulation) string {
		for _, st := range s.Trace.Strokes {
			if largestCluster(s.Trace.At(st.Start), s.Trace.Geometry) >= 3 {
				return ""
			}
		}
		return "no stroke starts with three or more pieces touching"
	},
	"placement_both_lines":  placementTag(board.Baseline, false),
	"placement_one_line":    placementTag(board.OneLine, false),
	"placement_base_circle": placementTag(board.BaseCircle, false),
	"placement_cut_moon":    placementTag(board.CutMoon, false),
	"placement_arrow":       placementTag(-1, true),
	"hand_over_pocket":      actionTag(sim.ActHandOverPocket),
	"dues_placed": func(s *Simulation) string {
		for _, a := range s.Spec.Scenario.Timeline {
			if a.Kind == sim.ActPlace && a.Place.By != "umpire" {
				for _, p := range a.Place.Pieces {
					if k, _ := board.KindOfID(p.ID); k == board.White || k == board.Black {
						return ""
					}
				}
			}
		}
		return "no player places a man"
	},
	"camera_knock": func(s *Simulation) string {
		for _, k := range s.Spec.Render.Camera.Knocks {
			if k.T > 0 && k.T < s.Trace.Duration-0.5 {
				return ""
			}
		}
		return "no camera knock during the clip (render.camera.knocks)"
	},
	"lights_dimmed": func(s *Simulation) string {
		for _, d := range s.Spec.Render.Lighting.Dims {
			if d.T < s.Trace.Duration-0.5 && d.Level < 0.9 {
				return ""
			}
		}
		return "the lights do not dim during the clip (render.lighting.dims)"
	},
	"side_S":             sideTag(board.S),
	"side_E":             sideTag(board.E),
	"side_N":             sideTag(board.N),
	"side_W":             sideTag(board.W),
	"doubles":            func(s *Simulation) string { return unless(s.Spec.Scenario.Players == 4, "players is not 4") },
	"arm_over_foul_line": func(s *Simulation) string { return hasEvent(s, events.ArmOverFoulLine, "") },
	"touched_piece":      func(s *Simulation) string { return hasEvent(s, events.Moved, "") },
	"home_board": func(s *Simulation) string {
		return unless(s.Spec.Render.Board.Markings == "home", "render.board.markings is not home")
	},
	"home_set": func(s *Simulation) string {
		g, p := s.Trace.Geometry, s.Spec.Render.Pieces
		return unless(g.StrikerDiameter >= 1.8*g.ManDiameter && p.Striker != "white" && p.Striker != "ivory" && p.Whites == "natural" && p.Queen == "pink" && s.Spec.Render.Board.Wear >= 0.8 && s.Spec.Render.Lighting.Unevenness >= 0.7,
			"not a home set (a striker of another colour than white at least 1.8 times a man's size, natural-wood whites, a pink queen) on worn markings (board.wear ≥ 0.8) under uneven light (lighting.unevenness ≥ 0.7)")
	},
	"drawn_lines": func(s *Simulation) string {
		l := s.Spec.Render.Board.Lines
		return unless(math.Abs(l.Offset) >= 5 && l.Front != l.Rear && l.Cores > 0.9,
			"render.board.lines does not draw the lines 5 mm or more off the figures, of other thicknesses, with base-circle cores the size of a man")
	},
	"res_1080p": func(s *Simulation) string {
		return unless(s.Spec.Render.Width == 1920 && s.Spec.Render.Height == 1080, "the frame is not 1920×1080")
	},
	"fps_60":  func(s *Simulation) string { return unless(s.Trace.FPS == 60, "fps is not 60") },
	"fps_120": func(s *Simulation) string { return unless(s.Trace.FPS == 120, "fps is not 120") },
	"long_exposure": func(s *Simulation) string {
		return unless(s.Spec.Render.Camera.Exposure >= 0.95*1000/float64(s.Trace.FPS), "render.camera.exposure is shorter than a frame")
	},
	"small_board": func(s *Simulation) string {
		r := s.Spec.Render
		if r.Camera.FOV != 0 || r.Camera.Fill <= 0 {
			return "the board's size in the picture is not set by render.camera.fill"
		}
		g := s.Trace.Geometry
		mmPerPx := (g.Surface + 2*g.FrameWidth) / (float64(r.Height) * r.Camera.Fill)
		return unless(mmPerPx >= 1.5 && mmPerPx <= 2, fmt.Sprintf("the board is at %.2f mm per pixel, not 1.5 to 2", mmPerPx))
	},
	"glare": func(s *Simulation) string {
		return unless(s.Spec.Render.Lighting.Glare >= 0.7, "render.lighting.glare is under 0.7")
	},
	"striker_colour": func(s *Simulation) string {
		c := s.Spec.Render.Pieces.Striker
		return unless(c != "" && c != "white" && c != "ivory", "the striker is white or ivory")
	},
	"no_hand": func(s *Simulation) string {
		for _, st := range s.Trace.Strokes {
			if len(s.Trace.At(st.Start).Hands) == 0 {
				return ""
			}
		}
		return "every strike shows a hand at the flick (strike: no_hand)"
	},
}

func unless(ok bool, msg string) string {
	if ok {
		return ""
	}
	return msg
}

func countMen(st sim.Stroke) int {
	n := 0
	for _, p := range st.Pocketed {
		if p.ID != "S" {
			n++
		}
	}
	return n
}

func strokeWith(s *Simulation, f func(sim.Stroke) bool, msg string) string {
	for _, st := range s.Trace.Strokes {
		if f(st) {
			return ""
		}
	}
	return msg
}

func hasPocketed(s *Simulation, id string) string { return hasEvent(s, events.Pocketed, id) }

func hasEvent(s *Simulation, t events.Type, id string) string {
	for _, e := range s.Trace.Events {
		if e.Type == t && (id == "" || e.ID == id) {
			return ""
		}
	}
	if id != "" {
		return fmt.Sprintf("no %s event for %s", t, id)
	}
	return fmt.Sprintf("no %s event", t)
}

func foulTag(code string) func(s *Simulation) string {
	return func(s *Simulation) string {
		for _, f := range s.Judgement.Fouls {
			if string(f.Foul) == code {
				return ""
			}
		}
		return "the referee calls no " + code
	}
}

func actionTag(k sim.ActionKind) func(s *Simulation) string {
	return func(s *Simulation) string {
		for _, a := range s.Spec.Scenario.Timeline {
			if a.Kind == k {
				return ""
			}
		}
		return fmt.Sprintf("no %s action in the timeline", k)
	}
}

func sideTag(side board.Side) func(s *Simulation) string {
	return func(s *Simulation) string {
		return strokeWith(s, func(st sim.Stroke) bool { return st.Side == side }, "no stroke from side "+side.String())
	}
}

// placementTag holds when a stroke's striker placement reads as kind (or,
// with arrow, touches an arrow).
func placementTag(kind board.PlacementKind, arrow bool) func(s *Simulation) string {
	return func(s *Simulation) string {
		g := s.Lines
		for _, e := range s.Trace.Events {
			if e.Type != events.StrokeStart {
				continue
			}
			pl := g.StrikerPlacement(*e.Side, e.StrikerMM.Vec(), g.Radius(board.Striker))
			if arrow && pl.TouchesArrow {
				return ""
			}
			if !arrow && pl.Kind == kind && !pl.TouchesArrow {
				return ""
			}
		}
		if arrow {
			return "no striker placement touches an arrow"
		}
		return "no striker placement reads as " + kind.String()
	}
}

// queenCover reports whether the queen was pocketed (ok) and then covered:
// the side that pocketed it pocketed a man of its colour in the same
// stroke or its next one.
func queenCover(s *Simulation) (covered, ok bool) {
	strokes := s.Trace.Strokes
	for i, st := range strokes {
		q := false
		for _, p := range st.Pocketed {
			q = q || p.ID == "Q"
		}
		if !q {
			continue
		}
		colour := colourOf(s.Setup, st.Side)
		own := func(st sim.Stroke) bool {
			for _, p := range st.Pocketed {
				if k, _ := board.KindOfID(p.ID); k == colour {
					return true
				}
			}
			return false
		}
		if own(st) {
			return true, true
		}
		if i+1 < len(strokes) && strokes[i+1].Side == st.Side && own(strokes[i+1]) {
			return true, true
		}
		return false, true
	}
	return false, false
}

// colourOf is the colour the seat plays: the breaker's team white.
func colourOf(rs RefereeSetup, seat board.Side) board.Kind {
	for _, p := range rs.Players {
		if p.Seat == seat && p.Team == 1 {
			return board.Black
		}
	}
	return board.White
}

// largestCluster is the size of the largest group of pieces on the board
// touching each other (within 0.5 mm), the striker left out.
func largestCluster(sc scene.Scene, g *board.Geometry) int {
	var ds []scene.Disc
	for _, d := range sc.Discs {
		if d.State.OnBoard() && d.Kind != board.Striker {
			ds = append(ds, d)
		}
	}
	parent := make([]int, len(ds))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			i = parent[i]
		}
		return i
	}
	for i := range ds {
		for j := i + 1; j < len(ds); j++ {
			if ds[i].Pos.Dist(ds[j].Pos) <= g.Radius(ds[i].Kind)+g.Radius(ds[j].Kind)+0.5 {
				parent[find(i)] = find(j)
			}
		}
	}
	size := map[int]int{}
	best := 0
	for i := range ds {
		r := find(i)
		size[r]++
		best = max(best, size[r])
	}
	return best
}

// Options tune Generate.
type Options struct {
	// Progress, when set, is called every few frames with the clip's name,
	// the frames done and the total.
	Progress func(name string, done, total int)
	// Context cancels a long generation.
	Context context.Context
}

// Generate renders the spec's clip into dir: NAME.mp4 and its truth
// (NAME.truth.json, or NAME.truth.json.gz when large; the other form is
// removed). It verifies the spec first and refuses a clip that does not
// show what its spec expects. Files are written under temporary names and
// renamed at the end, so an interrupted run leaves the old clip intact.
func Generate(sp *Spec, dir string, opt Options) (*Truth, error) {
	ctx := opt.Context
	if ctx == nil {
		ctx = context.Background()
	}
	s, err := Simulate(sp)
	if err != nil {
		return nil, err
	}
	if err := s.Verify(); err != nil {
		return nil, err
	}
	tr := s.Trace
	set := sp.Render
	rd, err := render.New(set, tr.Geometry, int64(tr.Seed))
	if err != nil {
		return nil, fmt.Errorf("corpus: %s: %w", sp.Path, err)
	}
	defer rd.Close()
	video := VideoFile(dir, sp.Name)
	tmpVideo := filepath.Join(dir, "."+sp.Name+".tmp.mp4")
	enc, err := render.NewEncoder(tmpVideo, set.Width, set.Height, render.EncoderOptions{FPS: tr.FPS, Video: set.Video})
	if err != nil {
		return nil, fmt.Errorf("corpus: %s: %w", sp.Name, err)
	}
	ok := false
	defer func() {
		if !ok {
			enc.Abort()
			os.Remove(tmpVideo)
		}
	}()
	g := tr.Geometry
	truth := &Truth{Version: TruthVersion, Referee: s.Setup, Judgement: s.Judgement, Expect: sp.Expect, Events: tr.Events}
	if truth.Events == nil {
		truth.Events = []events.Event{}
	}
	frame := gocv.NewMat()
	defer frame.Close()
	at := func(t float64) *scene.Scene { sc := tr.At(t); return &sc }
	n := tr.NumFrames()
	hiddenSeen := map[string]bool{}
	frames := sha256.New()
	for i := 0; i < n; i++ {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("corpus: %s: %w", sp.Name, err)
		}
		sc := tr.Frame(i)
		if err := rd.RenderSampled(&sc, at, &frame); err != nil {
			return nil, fmt.Errorf("corpus: %s: frame %d: %w", sp.Name, i, err)
		}
		if err := hashFrame(frames, frame); err != nil {
			return nil, fmt.Errorf("corpus: %s: frame %d: %w", sp.Name, i, err)
		}
		if err := enc.Write(frame); err != nil {
			return nil, fmt.Errorf("corpus: %s: %w", sp.Name, err)
		}
		cam := rd.CameraAt(sc.T)
		addCamera(truth, i, cam, g)
		ft := frameTruth(i, sc, rd, cam, g, set.Pieces.Thickness)
		for _, d := range ft.Discs {
			if d.State.OnBoard() && d.Hand >= 0.5 {
				hiddenSeen[d.ID] = true
			}
		}
		truth.Frames = append(truth.Frames, ft)
		if opt.Progress != nil && (i%15 == 14 || i == n-1) {
			opt.Progress(sp.Name, i+1, n)
		}
	}
	var missing []string
	for _, id := range sp.Expect.Hidden {
		if !hiddenSeen[id] {
			missing = append(missing, id)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("corpus: %s: expect.hidden: no hand hides %s in any frame", sp.Path, strings.Join(missing, ", "))
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("corpus: %s: %w", sp.Name, err)
	}
	sum, size, err := fileSHA256(tmpVideo)
	if err != nil {
		return nil, err
	}
	specSum := sha256.Sum256(sp.Source)
	boardFile := sp.Scenario.BoardFile
	truth.Clip = ClipInfo{
		Name: sp.Name, Spec: filepath.Base(sp.Path), SpecSHA256: hex.EncodeToString(specSum[:]),
		Video: filepath.Base(video), SHA256: sum, Bytes: size, Seed: tr.Seed, FPS: tr.FPS,
		Width: set.Width, Height: set.Height, Frames: n,
		Board: g.Name, BoardFile: boardFile, Markings: set.Board.Markings,
		ManRadius: g.Radius(board.White), StrikerRadius: g.Radius(board.Striker), Thickness: set.Pieces.Thickness,
		TraceSHA256: tr.Hash(), FramesSHA256: hex.EncodeToString(frames.Sum(nil)),
	}
	truth.Clip.Duration = math.Round(tr.Duration*1000) / 1000
	data, gz, err := truth.Encode()
	if err != nil {
		return nil, err
	}
	truthPath, other := TruthFile(dir, sp.Name), TruthFileGz(dir, sp.Name)
	if gz {
		truthPath, other = other, truthPath
	}
	tmpTruth := filepath.Join(dir, "."+sp.Name+".tmp.truth")
	if err := os.WriteFile(tmpTruth, data, 0o644); err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	if err := os.Rename(tmpVideo, video); err != nil {
		os.Remove(tmpTruth)
		return nil, fmt.Errorf("corpus: %w", err)
	}
	ok = true
	if err := os.Rename(tmpTruth, truthPath); err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	if err := os.Remove(other); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	return truth, nil
}

// addCamera records frame i's camera, extending the last segment when the
// pose is the same.
func addCamera(t *Truth, i int, cam *render.Camera, g *board.Geometry) {
	c := CameraTruth{From: i, To: i, CornersPx: cam.Corners(g), Homography: cam.Homography(),
		CameraMatrix: cam.CameraMatrix(), DistCoeffs: cam.DistCoeffs(), PxPerMM: cam.Scale()}
	if n := len(t.Cameras); n > 0 {
		last := &t.Cameras[n-1]
		if last.To == i-1 && last.CornersPx == c.CornersPx && last.Homography == c.Homography &&
			last.CameraMatrix == c.CameraMatrix && last.DistCoeffs == c.DistCoeffs {
			last.To = i
			return
		}
	}
	t.Cameras = append(t.Cameras, c)
}

// frameTruth is frame i's discs and hands. The hidden fractions come from
// the renderer's visibility with and without the hands: Outside is what
// lies outside the image, Hand what the hands hide of the rest.
func frameTruth(i int, sc scene.Scene, rd *render.Renderer, cam *render.Camera, g *board.Geometry, thickness float64) FrameTruth {
	ft := FrameTruth{I: i, T: r3(sc.T)}
	vis := rd.Visible(&sc)
	bare := sc
	bare.Hands = nil
	inImg := rd.Visible(&bare)
	for _, d := range sc.Discs {
		dt := DiscTruth{ID: d.ID, Kind: d.Kind, State: d.State, Pocket: d.Pocket}
		switch d.State {
		case scene.Rest, scene.Moving, scene.Held, scene.Overboard:
			mm := vec2(d.Pos)
			dt.MM = &mm
			dt.Z = r3(d.Z)
		}
		if v, ok := vis[d.ID]; ok {
			z := math.Max(d.Z, 0) + thickness
			if d.Kind == board.Striker {
				z++
			}
			if x, y, ok := cam.Project(d.Pos, z); ok {
				dt.PX = &[2]R3{R3(x), R3(y)}
			}
			in := inImg[d.ID]
			dt.Outside = r3(1 - in)
			if in > 0 {
				dt.Hand = r3(math.Max(0, in-v) / in)
			}
		}
		ft.Discs = append(ft.Discs, dt)
	}
	for _, h := range sc.Hands {
		ft.Hands = append(ft.Hands, HandTruth{Owner: h.Owner, Elbow: vec2(h.Elbow), Wrist: vec2(h.Wrist), Fingertip: vec2(h.Fingertip),
			ArmWidth: r3(h.ArmWidth), HandWidth: r3(h.HandWidth), Z: r3(h.Z), Holding: h.Holding})
	}
	return ft
}

// hashFrame adds an 8-bit BGR frame's pixels, row by row, to h.
func hashFrame(h io.Writer, m gocv.Mat) error {
	if m.Type() != gocv.MatTypeCV8UC3 {
		return fmt.Errorf("frame type %v, want 8-bit BGR", m.Type())
	}
	if m.IsContinuous() {
		b, err := m.DataPtrUint8()
		if err != nil {
			return err
		}
		h.Write(b[:m.Rows()*m.Cols()*3])
		return nil
	}
	b := m.ToBytes()
	h.Write(b)
	return nil
}

func fileSHA256(path string) (string, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", 0, fmt.Errorf("corpus: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", 0, fmt.Errorf("corpus: %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

// CheckResult is what Check found.
type CheckResult struct {
	// Diffs are the ways the committed clip differs from what its spec
	// and the code make now (none: it regenerates bit for bit).
	Diffs []string
	// Notes are differences that are not the clip's: this machine's
	// encoder wrote other video bytes from the very same frames.
	Notes []string
}

// Check regenerates the spec's clip into the scratch directory tmp and
// compares it with the one committed in dir.
//
// The frames are what the spec and the code determine: when the committed
// truth records their hash (Clip.FramesSHA256), Check compares the frames'
// hash and the truth file byte for byte (the video's recorded SHA-256 and
// size aside), and checks that the committed video is the one its truth
// describes. The video's bytes are the machine's x264's: another CPU
// writes other bytes from the same frames (x264's macroblock-tree rate
// control rounds with the CPU's approximate reciprocal, which differs
// between processors), so a video that differs from identical frames is a
// note, not a difference. A truth made before frames were hashed is
// compared as before: video and truth byte for byte.
func Check(sp *Spec, dir, tmp string, opt Options) (CheckResult, error) {
	var res CheckResult
	fresh, err := Generate(sp, tmp, opt)
	if err != nil {
		return res, err
	}
	diff := func(format string, a ...any) { res.Diffs = append(res.Diffs, fmt.Sprintf(format, a...)) }
	video := filepath.Base(VideoFile(dir, sp.Name))
	committedPath, err := FindTruth(dir, sp.Name)
	if err != nil {
		diff("truth: %s is missing", filepath.Base(TruthFile(dir, sp.Name)))
		return res, nil
	}
	truthName := filepath.Base(committedPath)
	committed, err := ReadTruth(committedPath)
	if err != nil {
		diff("truth: %v", err)
		return res, nil
	}
	vsum, vsize, err := fileSHA256(VideoFile(dir, sp.Name))
	if err != nil {
		diff("video: %s is missing", video)
		vsum = ""
	}
	short := func(s string) string {
		if len(s) > 12 {
			return s[:12] + "…"
		}
		return s
	}
	want := *fresh
	if committed.Clip.FramesSHA256 == "" {
		// Only the video's bytes can show that its frames are the same.
		if vsum != "" && vsum != fresh.Clip.SHA256 {
			diff("video: %s differs (committed sha256 %s, regenerated %s)", video, short(vsum), short(fresh.Clip.SHA256))
		}
	} else {
		if vsum != "" && (vsum != committed.Clip.SHA256 || vsize != committed.Clip.Bytes) {
			diff("video: %s differs from the video its truth describes (sha256 %s, the truth records %s)", video, short(vsum), short(committed.Clip.SHA256))
		}
		switch {
		case fresh.Clip.FramesSHA256 != committed.Clip.FramesSHA256:
			diff("frames: the rendered frames differ (committed frames_sha256 %s, regenerated %s)", short(committed.Clip.FramesSHA256), short(fresh.Clip.FramesSHA256))
		case fresh.Clip.SHA256 != committed.Clip.SHA256:
			res.Notes = append(res.Notes, fmt.Sprintf("video: %s is encoded differently on this machine from identical frames (committed sha256 %s, here %s): its ffmpeg/x264 or CPU differs from the one that made it; the committed video stands",
				video, short(committed.Clip.SHA256), short(fresh.Clip.SHA256)))
		}
		want.Clip.SHA256, want.Clip.Bytes = committed.Clip.SHA256, committed.Clip.Bytes
	}
	// The frames' hash is compared above (or absent from an older truth).
	want.Clip.FramesSHA256 = committed.Clip.FramesSHA256
	data, _, err := want.Encode()
	if err != nil {
		return res, err
	}
	old, err := os.ReadFile(committedPath)
	if err != nil {
		return res, fmt.Errorf("corpus: %w", err)
	}
	if freshPath, err := FindTruth(tmp, sp.Name); err == nil && filepath.Base(freshPath) != truthName {
		diff("truth: committed as %s, regenerated as %s", truthName, filepath.Base(freshPath))
	} else if !bytes.Equal(data, old) {
		a, b := sha256.Sum256(old), sha256.Sum256(data)
		diff("truth: %s differs (committed sha256 %s, regenerated %s)", truthName, short(hex.EncodeToString(a[:])), short(hex.EncodeToString(b[:])))
	}
	return res, nil
}

// DrawnMarkings returns the markings of the truth's clip as its spec
// (in dir, the truth file's folder) has them drawn, when they are drawn
// away from the geometry's figures (render.board.lines), else (or
// without the spec) nil: the
// true markings a true calibration carries, as a calibration carries the
// markings it measured.
func (t *Truth) DrawnMarkings(dir string, g *board.Geometry) (*board.Markings, error) {
	path := filepath.Join(dir, t.Clip.Spec)
	if _, err := os.Stat(path); t.Clip.Spec == "" || errors.Is(err, os.ErrNotExist) {
		return nil, nil // a truth file without its spec: the figures
	}
	sp, err := LoadSpec(path)
	if err != nil {
		return nil, fmt.Errorf("corpus: %s: %w", t.Clip.Name, err)
	}
	if sp.Render.Board.Lines == (render.LineStyle{}) {
		return nil, nil
	}
	return render.DrawnMarkings(sp.Render.Board, g), nil
}
