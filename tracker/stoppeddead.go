package tracker

import (
	"fmt"
	"math"

	"github.com/boardcam/boardcam/events"
)

// A striker carried wholly hidden under a hand, then seen only for its
// last 0.1–0.2 s moving at a steady 0.6–1.2 m/s (the palm lifted, a
// fingertip behind it that the mask misses) and set down, looks to
// checkFlick like one flicked from under the aiming hand: a slide fast
// enough, not gathering speed, no hand around it, traced back to a base
// line close behind its first sighting. The stroke started there with its
// place inferred and nothing else said (issue 11: a made-up scene,
// TestCarryShownHeld); the referee held it only because that place was
// inferred, its best guess a stroke that never was.
//
// A struck disc slows by friction alone and stops where its slide ends. A
// striker seen moving up to the frame before it lies still, where its
// slide had far to go, and with nothing it could have struck (no other
// disc moved in the stroke, no cushion at hand), was stopped by a hand:
// set down. So is one whose sightings, seen long enough to tell
// (frictionSpan), keep a steady pace. When the stroke's start was not
// seen (its place inferred, and no other rule has said why), such a
// stroke ends with a start_unseen doubt saying so ("… seen moving in
// frames 60–63 only, at 0.90 m/s, then lying still at (128, 40) mm from
// frame 64, 320 mm short of where a struck striker's slide from there
// ends: a hand may have carried it and set it down"), and the referee
// holds it for the umpire to say whether it was a stroke at all.

// noteStoppedDead adds that doubt to the stroke ending now (see above).
func (tk *Tracker) noteStoppedDead() {
	st := tk.stroke
	if st == nil || !st.startInferred || st.unseen || st.unseenWhy != "" {
		return
	}
	for _, d := range st.doubts {
		if d.Kind == events.DoubtStartUnseen {
			return // another rule said why its start was not seen
		}
	}
	s := &tk.tracks[idxS]
	if !s.state.atRest() || !s.inStroke {
		return
	}
	for i := range tk.tracks {
		if i != idxS && tk.tracks[i].inStroke {
			return // another disc moved: the striker may have struck it
		}
	}
	// Its sightings in the stroke: moving, up to the last one away from
	// where it lies (run), then lying there from the next.
	rest := s.restPos
	var run []obs
	var firstRest *obs
	for k := range s.hist {
		o := &s.hist[k]
		if o.t < st.startT {
			continue
		}
		if o.p.Dist(rest) > 3*tk.cfg.MoveMM {
			run, firstRest = append(run, *o), nil
		} else if firstRest == nil && len(run) > 0 {
			firstRest = o
		}
	}
	if len(run) < 2 || firstRest == nil {
		return
	}
	last := run[len(run)-1]
	if firstRest.t-last.t > 2.5*tk.dt {
		return // not seen stopping
	}
	if h := tk.g.Half() - s.r; math.Abs(rest.X) > h-15 || math.Abs(rest.Y) > h-15 {
		return // at the cushion: it may have struck it
	}
	a := tk.cfg.Deceleration
	// Its speed at the last sighting: the chord from the one before (a
	// slide slows over it; a board faster or slower than the configured
	// friction shows here, not in a fit at that friction).
	prev := run[len(run)-2]
	v := last.p.Dist(prev.p) / (last.t - prev.t)
	natural := v * v / (2 * a) // the way a struck striker still slides: more than 4 times what it went
	went := last.p.Dist(rest)
	steady := false
	if len(run) >= 4 && last.t-run[0].t >= frictionSpan-1e-9 {
		if d, ok := fitDecel(run, run[len(run)-1].p.Sub(run[0].p).Unit()); ok && d < a/4 {
			steady = true
		}
	}
	dead := v >= 2*tk.cfg.StrikeSpeed && went < natural/4 && natural-went > 3*tk.cfg.MoveMM+10
	if !dead && !steady {
		return
	}
	how := fmt.Sprintf("then lying still at %s from frame %d, %.0f mm short of where a struck striker's slide from there ends", mmWords(rest), firstRest.frame, natural-went)
	if !dead {
		how = fmt.Sprintf("at a steady pace over %.2f s, where friction slows a struck striker", last.t-run[0].t)
	}
	st.doubts = append(st.doubts, events.Doubt{Kind: events.DoubtStartUnseen, IDs: []string{s.id}, Frames: [2]int{run[0].frame, firstRest.frame},
		Reason: fmt.Sprintf("the striker's start was not seen: it was seen moving in %s only, at %.2f m/s, %s: a hand may have carried it and set it down; taken as a stroke from %s's base line, not seen",
			frames(run[0].frame, last.frame), v/1000, how, st.side)})
}
