package tracker

import (
	"strings"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/scene"
	"github.com/boardcam/boardcam/sight"
	"github.com/boardcam/boardcam/tracker/trackertest"
)

// carryScene: the striker lies at S's place, seen, until a hand reaching
// from E takes it (frame 30) and carries it wholly hidden under the palm
// to from, 30 mm in front of E's base line; the palm lifts at frame 60,
// and the striker is seen moving along dir from there: at a steady speed
// (mm/s) for shown frames (a fingertip behind it that the mask misses),
// then set down where it is (it lies still there from the next frame);
// or, with decel set, flicked from under the palm at speed and sliding
// at that friction to its natural stop.
type carryScene struct {
	fps       float64
	shown     int
	speed     float64
	decel     float64
	from, dir board.Vec
}

func (sc carryScene) play(t *testing.T) []events.Event {
	t.Helper()
	g := board.ICF()
	place := board.V(100, g.BaseCircleY())
	const take, lift = 30, 60
	return playFrames(t, lift+int(2*sc.fps), sc.fps, func(i int, f *sight.Frame) {
		f.Detections = append(f.Detections,
			sight.Detection{Kind: board.Black, MM: board.V(-120, 150), Score: 1, ClassScore: 0.9},
			sight.Detection{Kind: board.White, MM: board.V(-150, -100), Score: 1, ClassScore: 0.9})
		switch {
		case i < take:
			f.Detections = append(f.Detections, sight.Detection{Kind: board.Striker, MM: place, Score: 1, ClassScore: 1})
		case i < lift:
			k := float64(i-take) / float64(lift-take)
			p := place.Add(sc.from.Sub(place).Scale(k))
			f.Occlusion = trackertest.HandMask{Hands: []scene.Hand{{Owner: "E", Elbow: p.Add(board.V(420, 0)), Wrist: p.Add(board.V(120, 0)), Fingertip: p.Add(board.V(-30, 0)), ArmWidth: 90, HandWidth: 95, Z: 13}}}
		default:
			tau := float64(i-lift) / sc.fps
			var d float64
			if sc.decel > 0 {
				tau = min(tau, sc.speed/sc.decel)
				d = sc.speed*tau - sc.decel*tau*tau/2
			} else {
				d = sc.speed * float64(min(i-lift, sc.shown-1)) / sc.fps
			}
			f.Detections = append(f.Detections, sight.Detection{Kind: board.Striker, MM: sc.from.Add(sc.dir.Scale(d)), Score: 1, ClassScore: 1})
		}
	})
}

// A striker carried wholly hidden and seen only for its last 0.1–0.2 s,
// moving at a steady 0.6–1.2 m/s before it is set down, was taken by
// checkFlick for one flicked from under the aiming hand: a stroke from E
// with no doubt from the tracker (the referee held it only because the
// striker's place was inferred, its best guess a stroke that never
// was). Now the stroke ends with a start_unseen doubt saying it stopped
// dead where a struck striker slides on (stoppeddead.go), and is held
// with that reason. A striker flicked from under the palm at the same
// place and speeds, sliding to its natural stop, says nothing of it.
func TestCarryShownHeld(t *testing.T) {
	g := board.ICF()
	from := board.V(g.BaseCircleY()-30, 40)
	west := board.V(-1, 0)
	for _, c := range []struct {
		name string
		sc   carryScene
	}{
		{"30 fps, seen 4 frames at 0.9 m/s", carryScene{fps: 30, shown: 4, speed: 900, from: from, dir: west}},
		{"30 fps, seen 6 frames at 0.6 m/s", carryScene{fps: 30, shown: 6, speed: 600, from: from, dir: west}},
		{"15 fps, seen 3 frames at 1.2 m/s", carryScene{fps: 15, shown: 3, speed: 1200, from: from, dir: west}},
	} {
		evs := c.sc.play(t)
		by := checkedByType(t, c.name, evs)
		ends := by[events.StrokeEnd]
		if len(by[events.StrokeStart]) != 1 || len(ends) != 1 {
			t.Errorf("%s: %d stroke starts and %d ends, want one each: %v", c.name, len(by[events.StrokeStart]), len(ends), evs)
			continue
		}
		said := false
		for _, d := range ends[0].Doubts {
			said = said || d.Kind == events.DoubtStartUnseen && strings.Contains(d.Reason, "a hand may have carried it and set it down") && strings.Contains(d.Reason, "short of where a struck striker's slide from there ends")
		}
		if !said {
			t.Errorf("%s: stroke_end doubts %v: want the striker stopped dead said (start_unseen)", c.name, ends[0].Doubts)
		}
		held := false
		for _, d := range refereeStrokes(t, evs) {
			for _, x := range d.Doubts {
				held = held || d.Uncertain() && x.Kind == events.DoubtStartUnseen
			}
		}
		if !held {
			t.Errorf("%s: not held with the start_unseen doubt", c.name)
		}
	}
	for _, c := range []struct {
		name string
		sc   carryScene
	}{
		{"30 fps, flicked at 0.9 m/s", carryScene{fps: 30, speed: 900, decel: 1177, from: from, dir: west}},
		{"30 fps, flicked at 0.6 m/s", carryScene{fps: 30, speed: 600, decel: 1177, from: from, dir: west}},
		{"15 fps, flicked at 1.2 m/s", carryScene{fps: 15, speed: 1200, decel: 1177, from: from, dir: west}},
		{"30 fps, flicked at 0.9 m/s on a board twice as slow", carryScene{fps: 30, speed: 900, decel: 2 * 1177, from: from, dir: west}},
	} {
		evs := c.sc.play(t)
		by := checkedByType(t, c.name, evs)
		ends := by[events.StrokeEnd]
		if len(by[events.StrokeStart]) != 1 || len(ends) != 1 {
			t.Errorf("%s: %d stroke starts and %d ends, want one each: %v", c.name, len(by[events.StrokeStart]), len(ends), evs)
			continue
		}
		for _, d := range ends[0].Doubts {
			if d.Kind == events.DoubtStartUnseen {
				t.Errorf("%s: want no start_unseen doubt, got %q", c.name, d.Reason)
			}
		}
	}
}
