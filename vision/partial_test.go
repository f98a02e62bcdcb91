package vision

import (
	"math"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/render"
	"github.com/boardcam/boardcam/scene"
)

// The striker under the fingertips (see findPartial): a player's hand
// comes over the striker lying on its base line and stays, the fingers
// over most of it, an arc of it showing beyond the fingertips. The
// striker is reported there, partial, as long as enough of it shows. Then
// it is flicked backward from under the hand, which stays, and slides
// under the palm: it is found where it is while an arc of it shows beyond
// the fingertips. Nothing is taken for the striker anywhere else (the
// fingertips are round too).
func TestStrikerUnderFingers(t *testing.T) {
	s := render.DefaultSettings()
	s.FPS = 60
	r := newRenderer(t, s, 26)
	defer r.Close()
	det := truthDetector(t, r)
	defer det.Close()
	g := board.ICF()
	at := board.Vec{X: 20, Y: g.BaseCircleY()}
	sc := &scene.Scene{Discs: []scene.Disc{
		{ID: "W1", Kind: board.White, Pos: board.Vec{X: -80, Y: 30}, State: scene.Rest},
		{ID: "B1", Kind: board.Black, Pos: board.Vec{X: 100, Y: -60}, State: scene.Rest},
		{ID: "S", Kind: board.Striker, Pos: at, State: scene.Rest},
	}}
	// the hand as it rests, aiming: its fingertips past the striker's
	// middle, the far part of it showing beyond them
	hand := scene.Hand{Owner: "S", Elbow: board.Vec{X: 130, Y: 642}, Wrist: board.Vec{X: 110, Y: 372},
		Fingertip: board.Vec{X: 20, Y: at.Y - 8}, ArmWidth: 73, HandWidth: 87, Z: 13}
	const (
		handIn = 10 // the hand comes in
		still  = 30 // and rests from here on
		flick  = 70 // the striker is flicked backward
		end    = 100
		v0     = 250.0 // mm/s
	)
	var rest, restFound, slide, slideFound int
	var restErr []float64
	for i := 0; i < end; i++ {
		sc.T = float64(i) / float64(s.FPS)
		st := &sc.Discs[2]
		if i >= flick {
			// a straight slide toward the player, slowing by friction
			tau := sc.T - float64(flick-1)/float64(s.FPS)
			a := 1177.0
			tau = math.Min(tau, v0/a)
			st.Pos = board.Vec{X: at.X, Y: at.Y + v0*tau - a*tau*tau/2}
			st.Vel = board.Vec{Y: v0 - a*tau}
			st.State = scene.Moving
			if st.Vel.Y <= 0 {
				st.Vel, st.State = board.Vec{}, scene.Rest
			}
		}
		sc.Hands = nil
		if i >= handIn {
			h := hand
			off := board.Vec{Y: 6 * float64(max(still-i, 0))}
			h.Elbow, h.Wrist, h.Fingertip = h.Elbow.Add(off), h.Wrist.Add(off), h.Fingertip.Add(off)
			sc.Hands = []scene.Hand{h}
		}
		f := renderScene(t, r, sc)
		fr, err := det.Detect(f, i, sc.T)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		vis := r.Visible(sc)["S"]
		var found *Detection
		for k := range fr.Detections {
			d := &fr.Detections[k]
			if d.Kind != board.Striker {
				continue
			}
			if e := d.MM.Dist(st.Pos); e > 8 {
				t.Errorf("frame %d: a striker at (%.1f, %.1f) mm, %.1f mm from the striker (%.0f%% of it seen)", i, d.MM.X, d.MM.Y, e, 100*vis)
				continue
			}
			found = d
		}
		switch {
		case i >= still && i < flick && vis >= 0.1 && vis < 0.9:
			rest++
			if found != nil {
				restFound++
				restErr = append(restErr, found.MM.Dist(st.Pos))
				if !found.Partial {
					t.Errorf("frame %d: the striker %.0f%% seen is not reported partial", i, 100*vis)
				}
			}
		case i >= flick && st.State == scene.Moving && vis >= 0.2:
			slide++
			if found != nil && found.MM.Dist(st.Pos) <= 5 {
				slideFound++
			}
		}
		e := math.NaN()
		if found != nil {
			e = found.MM.Dist(st.Pos)
		}
		t.Logf("frame %d: striker %v at (%.1f, %.1f), %.0f%% seen: found %v (%.1f mm off)", i, st.State, st.Pos.X, st.Pos.Y, 100*vis, found != nil, e)
	}
	t.Logf("at rest under the fingers: found in %d of %d frames, error mean %.2f max %.2f mm; sliding from under them: %d of %d",
		restFound, rest, meanOf(restErr), quantile(restErr, 1), slideFound, slide)
	if rest < 20 || slide < 3 {
		t.Fatalf("the striker partly under the fingers in %d frames at rest and %d sliding: the test proves nothing", rest, slide)
	}
	if float64(restFound) < 0.9*float64(rest) {
		t.Errorf("the striker at rest under the fingertips found in %d of %d frames", restFound, rest)
	}
	if m := quantile(restErr, 1); m > 3 {
		t.Errorf("the striker under the fingertips placed up to %.2f mm off (want ≤ 3)", m)
	}
	if slideFound < slide {
		t.Errorf("the striker sliding from under the hand found in %d of %d frames (within 5 mm)", slideFound, slide)
	}
}
