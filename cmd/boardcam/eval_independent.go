package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/corpus"
	"github.com/boardcam/boardcam/referee"
	"github.com/boardcam/boardcam/rules"
)

// The independent set (../shared/independent/: clips from a renderer
// written apart from ours, iNN_NAME.mp4 with iNN_NAME.json ground truth and
// an index.json) played through `boardcam run` by `eval --remove`, as the
// corpus is: each run judged right, held or wrong by its journal.
//
// Its ground truth keeps no score: it has strokes (the seat), pocketings
// (kind, pocket), pieces gone overboard and rest positions, no referee
// setup. So each clip is played as a match of two players (S and N; S
// breaks, so S plays white) resumed from a stroke log whose position is the
// clip's board: the men of each colour in its pieces, the queen on the
// board or (absent) covered, the first stroke's seat to strike (a full set
// starts a new match: a break). The truth's events in stroke-log notation
// are what each of its strokes pockets and sends overboard, with the
// placement foul our referee calls on the striker where the truth has it
// just before the stroke (the same markings, so a cut moon the other
// renderer put down is a foul here as on a real board). Fouls the truth
// cannot tell (contacts, the arm, the hand) are not in it: a run that
// applies one is wrong.

// independentGT is what eval reads of a clip's ground truth.
type independentGT struct {
	FPS     int    `json:"fps"`
	Frames  int    `json:"n_frames"`
	Style   string `json:"board_style"`
	SouthAt string `json:"s_side_image_edge"`
	Model   struct {
		Striker float64 `json:"striker_diameter"`
	} `json:"board_model"`
	Pieces []struct {
		Class string `json:"class"`
	} `json:"pieces"`
	Events []struct {
		Type  string `json:"type"`
		Frame int    `json:"frame"`
		Piece string `json:"piece"`
		Side  string `json:"side"`
	} `json:"events"`
	FrameDiscs [][]struct {
		Class string     `json:"class"`
		MM    [2]float64 `json:"mm"`
		State string     `json:"state"`
	} `json:"frames"`
}

// isIndependentSet reports whether dir holds the independent set's clips
// (an index.json and no corpus truth).
func isIndependentSet(dir string) bool {
	if _, err := os.Stat(filepath.Join(dir, "index.json")); err != nil {
		return false
	}
	t, _ := filepath.Glob(filepath.Join(dir, "*.truth.json*"))
	return len(t) == 0
}

// independentClips lists the independent set's clips of dir with the
// flags to play each and the truth to judge it by.
func independentClips(dir string) ([]clipRun, error) {
	videos, _ := filepath.Glob(filepath.Join(dir, "*.mp4"))
	sort.Strings(videos)
	var out []clipRun
	for _, v := range videos {
		name := strings.TrimSuffix(filepath.Base(v), ".mp4")
		b, err := os.ReadFile(filepath.Join(dir, name+".json"))
		if err != nil {
			continue
		}
		var gt independentGT
		if err := json.Unmarshal(b, &gt); err != nil {
			return nil, fmt.Errorf("%s.json: %w", name, err)
		}
		c, err := newIndependentRun(v, name, &gt)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out = append(out, c)
	}
	return out, nil
}

func newIndependentRun(video, name string, gt *independentGT) (clipRun, error) {
	c := clipRun{Name: name, Video: video, cleanup: func() {}}
	decisions, either, first, err := independentDecisions(gt)
	if err != nil {
		return c, err
	}
	c.Either = either
	c.Truth = &corpus.Truth{Clip: corpus.ClipInfo{Name: name, FPS: gt.FPS, Frames: gt.Frames}, Judgement: &corpus.Judgement{Decisions: decisions}}
	log, err := tempFile(name, ".log", independentLog(gt, first))
	if err != nil {
		return c, err
	}
	c.cleanup = func() { os.Remove(log) }
	c.Args = []string{"--source", video, "--resume", log}
	switch gt.SouthAt {
	case "bottom", "right", "top", "left":
		c.Args = append(c.Args, "--south-at", gt.SouthAt)
	}
	return c, nil
}

// independentLog is the stroke log the clip's match resumes from: its
// board as a position, the first stroke's seat to strike.
func independentLog(gt *independentGT, first board.Side) string {
	var men [2]int
	queen := false
	for _, p := range gt.Pieces {
		switch p.Class {
		case "white":
			men[0]++
		case "black":
			men[1]++
		case "queen":
			queen = true
		}
	}
	var b strings.Builder
	b.WriteString("profile icf\nplayer S Asha\nplayer N Ravi\nbreak S\n")
	if men[0] == board.MenPerColour && men[1] == board.MenPerColour && queen && first == board.S {
		return b.String() // the opening: a break
	}
	q := "covered:S"
	if queen {
		q = "on"
	}
	fmt.Fprintf(&b, "position turn=%s white=%d black=%d queen=%s\n", first, men[0], men[1], q)
	return b.String()
}

// independentDecisions turns the ground truth's events into the stroke
// decisions a daemon must apply, and gives the first stroke's seat.
func independentDecisions(gt *independentGT) ([]referee.Decision, map[int]string, board.Side, error) {
	g := board.ICF()
	r := gt.Model.Striker / 2
	if r <= 0 {
		r = g.Radius(board.Striker)
	}
	var out []referee.Decision
	var cur *referee.Decision
	var doubtful *referee.Call
	either := map[int]string{}
	first := board.S
	for _, e := range gt.Events {
		switch e.Type {
		case "stroke_start":
			s, err := board.ParseSide(e.Side)
			if err != nil {
				return nil, nil, 0, fmt.Errorf("stroke_start at frame %d: %w", e.Frame, err)
			}
			if len(out) == 0 && cur == nil {
				first = s
			}
			cur = &referee.Decision{Kind: referee.KindStroke, Seat: s, StartFrame: e.Frame, Stroke: &referee.Outcome{}}
			if c, ok := gt.strikerBefore(e.Frame); ok {
				if f, margin, ok := placementFoul(g, s, c, r); ok {
					call := referee.Call{Foul: f, Seat: s, Status: referee.Applied}
					if margin < placementDoubtMM {
						doubtful = &call
					} else {
						cur.Calls = append(cur.Calls, call)
					}
				}
			}
		case "pocketed", "overboard":
			if cur == nil {
				return nil, nil, 0, fmt.Errorf("%s at frame %d outside a stroke", e.Type, e.Frame)
			}
			o := cur.Stroke
			switch {
			case e.Type == "pocketed" && e.Piece == "white":
				o.White++
			case e.Type == "pocketed" && e.Piece == "black":
				o.Black++
			case e.Type == "pocketed" && e.Piece == "queen":
				o.Queen = true
			case e.Type == "pocketed" && e.Piece == "striker":
				o.Striker = true
			case e.Piece == "white":
				o.Overboard.White++
			case e.Piece == "black":
				o.Overboard.Black++
			case e.Piece == "queen":
				o.Overboard.Queen++
			case e.Piece == "striker":
				o.Overboard.Striker++
			default:
				return nil, nil, 0, fmt.Errorf("%s at frame %d: piece %q", e.Type, e.Frame, e.Piece)
			}
		case "stroke_end":
			if cur == nil {
				return nil, nil, 0, fmt.Errorf("stroke_end at frame %d outside a stroke", e.Frame)
			}
			cur.Frame = e.Frame
			cur.Log = rules.FormatEvent(cur.Event())
			if doubtful != nil {
				alt := *cur
				alt.Calls = append(append([]referee.Call(nil), cur.Calls...), *doubtful)
				either[len(out)] = rules.FormatEvent(alt.Event())
			}
			out = append(out, *cur)
			cur, doubtful = nil, nil
		}
	}
	if cur != nil {
		return nil, nil, 0, fmt.Errorf("the stroke from frame %d does not end", cur.StartFrame)
	}
	return out, either, first, nil
}

// strikerBefore is where the truth has the striker on the board in the
// frame before frame f.
func (gt *independentGT) strikerBefore(f int) (board.Vec, bool) {
	if f < 1 || f > len(gt.FrameDiscs) {
		return board.Vec{}, false
	}
	for _, d := range gt.FrameDiscs[f-1] {
		if d.Class == "striker" && d.State != "pocketed" && d.State != "overboard" {
			return board.Vec{X: d.MM[0], Y: d.MM[1]}, true
		}
	}
	return board.Vec{}, false
}

// placementDoubtMM: a striker placed closer than this to the marking that
// decides its placement may be read either way. The other renderer's
// markings are not ours to the millimetre (it puts the striker 1.15 mm
// short of our front base line, where it means it on the base line), and
// the camera's tolerance is 1 mm: such a placement's foul is accepted
// applied or not (clipRun.Either).
const placementDoubtMM = 3.0

// placementFoul is the foul our referee calls on a striker at c (radius r)
// for seat s, as referee.placement reads the markings, and the placement's
// margin (mm).
func placementFoul(g *board.Geometry, s board.Side, c board.Vec, r float64) (rules.Foul, float64, bool) {
	pl := g.StrikerPlacement(s, c, r)
	if pl.Proper() {
		return "", pl.Margin, false
	}
	if other, ok := g.BaseLineSide(c, r); ok && other != s {
		return rules.FoulWrongSide, pl.Margin, true
	}
	switch pl.Kind {
	case board.CutMoon:
		return rules.FoulCutMoon, pl.Margin, true
	case board.BaseCircle:
		return rules.FoulArrow, pl.Margin, true
	}
	return rules.FoulPlacement, pl.Margin, true
}
