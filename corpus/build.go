package corpus

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/render/look"
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

// HandReach is how far, in mm, hand h as the renderer draws it in a clip
// of the given seed reaches beyond the foul lines that bound side s's
// quarter (negative: inside by that much). render.BeyondFoulLine is the
// one: the renderer's hand outline, which needs no OpenCV but lives with
// the drawing, is given to Simulate rather than imported.
type HandReach func(h scene.Hand, s board.Side, seed int64) float64

// Simulate runs the spec's scenario and referees its events (exactly, as
// ground truth). It does not render anything, but the arm over a foul line
// is judged on the outline the renderer will draw (reach:
// render.BeyondFoulLine), not on the simulator's coarser hand model: the
// truth calls that foul exactly when the picture shows it.
func Simulate(sp *Spec, reach HandReach) (*Simulation, error) {
	if reach == nil {
		return nil, fmt.Errorf("corpus: %s: no hand outline to judge the arm over the foul line by (render.BeyondFoulLine)", sp.Path)
	}
	seed := int64(sp.Scenario.Seed)
	tr, err := sim.Run(sp.Scenario, sim.Options{ArmFoul: func(s board.Side, h scene.Hand) bool {
		return reach(h, s, seed) > 0
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
	if sp.Render.Board.Lines != (look.LineStyle{}) {
		lines = tr.Geometry.WithMarkings(look.DrawnMarkings(sp.Render.Board, tr.Geometry))
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
// hiding discs) are checked in render/synth.Generate.
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
	"plain_print": func(s *Simulation) string {
		b := s.Spec.Render.Board
		if !b.PlainCentre || b.Lines.Cores < 0.95 {
			return "render.board does not print a plain centre circle (plain_centre) and bare red base circles (lines.cores ≥ 0.95)"
		}
		// No queen on the board, and the printed centre circle in plain
		// view, at every stroke's start and end.
		cc := s.Trace.Geometry.CentreCircle()
		for _, st := range s.Trace.Strokes {
			for _, t := range []float64{st.Start, st.End} {
				for _, d := range s.Trace.At(t).Discs {
					if !d.State.OnBoard() {
						continue
					}
					if d.Kind == board.Queen {
						return fmt.Sprintf("the queen is on the board at %.2f s", t)
					}
					if d.Pos.Dist(cc.C) < cc.R+s.Trace.Geometry.Radius(d.Kind) {
						return fmt.Sprintf("%s covers the centre circle at %.2f s", d.ID, t)
					}
				}
			}
		}
		return strokeWith(s, func(sim.Stroke) bool { return true }, "no stroke")
	},
	"queen_off_plain_print": func(s *Simulation) string {
		if !s.Spec.Render.Board.PlainCentre {
			return "render.board.plain_centre is not set"
		}
		if len(s.Trace.Strokes) == 0 {
			return "no stroke"
		}
		for _, d := range s.Trace.At(s.Trace.Strokes[0].Start).Discs {
			if d.ID == "Q" && d.State.OnBoard() && d.Pos.Len() < 2 {
				return hasPocketed(s, "Q")
			}
		}
		return "the queen does not lie on the centre circle at the first stroke"
	},
	"small_striker": func(s *Simulation) string {
		d := s.Trace.Geometry.StrikerDiameter
		return unless(d >= 38 && d <= 40, fmt.Sprintf("the striker is %.1f mm, not 38 to 40", d))
	},
	"striker_by_frame": func(s *Simulation) string {
		if c := s.Spec.Render.Pieces.Striker; c != "" && c != "white" && c != "ivory" {
			return "the striker is not white or ivory (its printed rings show on a light face)"
		}
		g := s.Trace.Geometry
		for _, st := range s.Trace.Strokes {
			for _, d := range s.Trace.At(st.End).Discs {
				if d.ID == "S" && d.State.OnBoard() && g.Half()-math.Max(math.Abs(d.Pos.X), math.Abs(d.Pos.Y))+g.StrikerDiameter/2 < g.BaseLineOffset {
					return ""
				}
			}
		}
		return "the striker comes to rest between a base line and the frame after no stroke"
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
	if sp.Render.Board.Lines == (look.LineStyle{}) {
		return nil, nil
	}
	return look.DrawnMarkings(sp.Render.Board, g), nil
}
