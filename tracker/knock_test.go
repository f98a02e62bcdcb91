package tracker

import (
	"math"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/sim"
	"github.com/boardcam/boardcam/tracker/trackertest"
)

// A knocked camera moves every disc in the picture alike. Until the
// calibration is made again the tracker must not take that for pieces
// moving — no moved, no placed, no identity lost — whether the pipeline
// recalibrates (the detections come back to the board's frame, and
// Recalibrated is called) or not (after a second the new view is taken as
// it is).
func TestKnockedCamera(t *testing.T) {
	tr, err := sim.RunFile(scenarioPath(t, "dues-placed.yaml"), sim.Options{FPS: 30})
	if err != nil {
		t.Fatal(err)
	}
	const knock, fixed = 1.0, 1.4 // s
	turn := 0.8 * math.Pi / 180
	c, s := math.Cos(turn), math.Sin(turn)
	moveCam := func(p board.Vec) board.Vec { return board.V(c*p.X-s*p.Y+7, s*p.X+c*p.Y-4) }
	for _, recal := range []bool{true, false} {
		tk, err := New(Config{Geometry: tr.Geometry})
		if err != nil {
			t.Fatal(err)
		}
		syn := trackertest.NewSynth(tr, trackertest.Realistic)
		var got []events.Event
		told := false
		ids := map[string]board.Vec{}
		for i := range tr.NumFrames() {
			f, _ := syn.Frame(i)
			if f.T >= knock && (!recal || f.T < fixed) {
				for k := range f.Detections {
					f.Detections[k].MM = moveCam(f.Detections[k].MM)
				}
			}
			if recal && f.T >= fixed && !told {
				tk.Recalibrated()
				told = true
			}
			u := tk.Update(f)
			got = append(got, u.Events...)
			if f.T >= knock && f.T < knock+1.5 {
				for _, p := range u.Pieces {
					if _, ok := ids[p.ID]; ok && p.State == Moving {
						t.Errorf("recalibrated %v: %.2f s: %s seems to move when the camera did", recal, f.T, p.ID)
					}
				}
			}
			if f.T > 0.9 && f.T < knock {
				for _, p := range u.Pieces {
					if p.State == Rest {
						ids[p.ID] = p.MM
					}
				}
			}
		}
		got = append(got, tk.Flush()...)
		// No moved or placed but the truth's (one placed at 2.1 s).
		st := matchEvents(tr.Events, got, tolerance{events.StrokeStart: 3, events.StrokeEnd: 3, events.FrontLineCrossed: 3,
			events.Moved: tr.FPS / 2, events.Placed: tr.FPS / 2})
		// The discs at rest before the knock that the stroke did not move
		// keep their identities and places (in the frame of the
		// calibration in force).
		final := tr.Final()
		start := tr.Frame(int(0.95 * float64(tr.FPS)))
		for _, p := range tk.Pieces() {
			want, ok := ids[p.ID]
			if !ok {
				continue
			}
			still := false
			for k, d := range start.Discs {
				if d.State.OnBoard() && d.Pos.Dist(want) < 5 && final.Discs[k].Pos.Dist(d.Pos) < 0.5 {
					still = true
				}
			}
			if !still {
				continue
			}
			if !recal {
				want = moveCam(want)
			}
			if d := p.MM.Dist(want); p.State != Rest || d > 4 {
				t.Errorf("recalibrated %v: %s ends %s at %v, %.1f mm from where it lay", recal, p.ID, p.State, p.MM, d)
			}
		}
		for typ, s := range st {
			if s.fn > 0 || s.fp > 0 {
				t.Errorf("recalibrated %v: %s: %d missed, %d extra\n%s", recal, typ, s.fn, s.fp, statsReport(st))
			}
		}
	}
}
