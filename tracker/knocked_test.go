package tracker

import (
	"math"
	"strings"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/referee"
	"github.com/boardcam/boardcam/rules"
	"github.com/boardcam/boardcam/scene"
	"github.com/boardcam/boardcam/sight"
	"github.com/boardcam/boardcam/tracker/trackertest"
)

// knockScene is a stroke at 15 fps whose striker's sightings alone do not
// tell it from a carry: struck from its place on the S base line under
// the aiming hand (hidden for its first 150 mm), it slides at the board's
// friction straight at a man and knocks him: in, when he lies 60 mm from
// the NE pocket (not seen from the touch on), or away along its line when
// he lies mid-board (man), and goes on at 0.4 of its speed.
type knockScene struct {
	// partial: every sighting of the striker off its place is partial, a
	// still forearm (the opponent's) lying along its way over a quarter
	// of its width.
	partial bool
	// seen: the striker is seen in at most this many frames before the
	// touch (0: all); after the touch only when after is set (else it
	// went in with the man).
	seen  int
	after bool
	// man: he lies mid-board at (260, -200) and is seen sliding away.
	man bool
	// beside: the striker's way runs this far (mm) beside the man, who
	// drops out of detection just as it passes him; early: the man by
	// the pocket drops out this many frames before the striker could
	// reach him.
	beside float64
	early  int
	// carry: not struck, the striker is pushed by the S hand (fingers on
	// its back, partial) from its place along the same line at a steady
	// carry mm/s and left setDown mm on; the man by the pocket drops out
	// of detection for good when the hand leaves it.
	carry, setDown float64
	// handAlong: partly hidden all the way by a hand moving along with
	// it (its forearm from the side), not by a still forearm.
	handAlong bool
	// short: struck slower, it stops this far (mm) short of the man by
	// the pocket, seen only when it has stopped; he drops out of
	// detection for good then.
	short float64
}

const (
	knockFlick = 40 // the striker leaves its place between frames 39 and 40
	knockFPS   = 15
	knockEnd   = 110
	knockV0    = 1400.0
	knockDecel = 1177.0
)

// manByNE is where a man lies 60 mm short of the NE pocket's centre, on
// the line from at: a striker sent from at knocks him in.
func manByNE(at board.Vec) board.Vec {
	pk := board.ICF().Pocket(board.NE).C
	return pk.Add(at.Sub(pk).Unit().Scale(60))
}

// knockPlace is where the striker stands.
func knockPlace() board.Vec { return board.V(100, board.ICF().BaseCircleY()) }

// geometry returns the man's place and the striker's way (unit).
func (sc knockScene) geometry() (man, dir board.Vec) {
	at := knockPlace()
	man = manByNE(at)
	if sc.man {
		man = board.V(260, -200)
	}
	dir = man.Sub(at).Unit()
	if sc.beside != 0 {
		aim := man.Add(board.V(dir.Y, -dir.X).Scale(sc.beside))
		dir = aim.Sub(at).Unit()
	}
	return man, dir
}

func (sc knockScene) play(t *testing.T) []events.Event {
	t.Helper()
	g := board.ICF()
	at := knockPlace()
	man, dir := sc.geometry()
	D := g.Radius(board.Striker) + g.Radius(board.White)
	reach := man.Sub(at).Len() - D
	v0 := knockV0
	if sc.short > 0 {
		v0 = math.Sqrt(2 * knockDecel * (reach - sc.short))
	}
	th := (v0 - math.Sqrt(math.Max(0, v0*v0-2*knockDecel*reach))) / knockDecel
	vh := 0.4 * (v0 - knockDecel*th)
	way := func(i int) float64 {
		tau := float64(i-knockFlick)/knockFPS + 0.5/knockFPS
		switch {
		case tau <= 0:
			return 0
		case sc.carry > 0:
			return math.Min(sc.carry*tau, sc.setDown)
		case tau < th || sc.beside != 0 || sc.short > 0:
			tau = min(tau, v0/knockDecel)
			return v0*tau - knockDecel*tau*tau/2
		}
		tau = min(tau-th, vh/knockDecel)
		return reach + vh*tau - knockDecel*tau*tau/2
	}
	// hit: the first frame after the touch (after the hand let go, for
	// a carry).
	hit := knockFlick
	for hit < knockEnd && (sc.carry == 0 && sc.short == 0 && way(hit) < reach || sc.carry > 0 && way(hit) < sc.setDown ||
		sc.short > 0 && way(hit) < reach-sc.short-1e-6) {
		hit++
	}
	// The man struck mid-board slides away along the line of centres.
	vm := 0.6 * (v0 - knockDecel*th)
	manAt := func(i int) board.Vec {
		if i < hit || !sc.man {
			return man
		}
		tau := min(float64(i-hit)/knockFPS+0.5/knockFPS, vm/knockDecel)
		return man.Add(dir.Scale(vm*tau - knockDecel*tau*tau/2))
	}
	manSeen := func(i int) bool {
		switch {
		case sc.man:
			return true
		case sc.carry > 0:
			return i < hit
		}
		return i < hit-sc.early
	}
	aim := scene.Hand{Owner: "S", Elbow: board.V(130, 642), Wrist: board.V(110, 372),
		Fingertip: board.V(100, at.Y-5), ArmWidth: 73, HandWidth: 87, Z: 13}
	side := board.V(-dir.Y, dir.X)
	off := g.Radius(board.Striker) + 36.5 - 10
	arm := scene.Hand{Owner: "E", Elbow: at.Add(dir.Scale(120)).Add(side.Scale(off)),
		Wrist:     at.Add(dir.Scale(reach - 40)).Add(side.Scale(off)),
		Fingertip: at.Add(dir.Scale(reach - 30)).Add(side.Scale(off)), ArmWidth: 73, HandWidth: 73}
	firstSeen := -1
	return playFrames(t, knockEnd, knockFPS, func(i int, f *sight.Frame) {
		f.Detections = append(f.Detections,
			sight.Detection{Kind: board.White, MM: board.V(-150, -100), Score: 1, ClassScore: 0.9},
			sight.Detection{Kind: board.Black, MM: board.V(-120, 150), Score: 1, ClassScore: 0.9})
		d := way(i)
		p := at.Add(dir.Scale(d))
		var hands []scene.Hand
		show := i < knockFlick-8 || i >= knockFlick && d > 150
		switch {
		case sc.carry > 0:
			show = i < knockFlick-8 || i >= knockFlick
			if i >= knockFlick-8 && i < hit {
				hands = append(hands, scene.Hand{Owner: "S", Fingertip: p.Sub(dir.Scale(12)), Wrist: p.Sub(dir.Scale(200)),
					Elbow: p.Sub(dir.Scale(460)), ArmWidth: 73, HandWidth: 87, Z: 13})
			}
		case i >= knockFlick-8 && i < knockFlick+3:
			hands = append(hands, aim)
		}
		if show && i >= knockFlick && sc.carry == 0 {
			if firstSeen < 0 {
				firstSeen = i
			}
			if sc.seen > 0 && i < hit && i-firstSeen >= sc.seen || i >= hit && !sc.after {
				show = false
			}
		}
		switch {
		case sc.partial && sc.handAlong && i >= knockFlick:
			h := arm
			h.Fingertip = p.Add(side.Scale(off))
			h.Wrist, h.Elbow = h.Fingertip.Add(side.Scale(250)), h.Fingertip.Add(side.Scale(500))
			hands = append(hands, h)
		case sc.partial && i >= knockFlick:
			hands = append(hands, arm)
		}
		if show {
			f.Detections = append(f.Detections, sight.Detection{Kind: board.Striker, MM: p, Score: 1, ClassScore: 1,
				Partial: i >= knockFlick && (sc.partial || sc.carry > 0 && i < hit)})
		}
		if len(hands) > 0 {
			f.Occlusion = trackertest.HandMask{Hands: hands}
		}
		if manSeen(i) {
			f.Detections = append(f.Detections, sight.Detection{Kind: board.White, MM: manAt(i), Score: 1, ClassScore: 0.9})
		}
	})
}

// knockMatch is a board under way with S, playing white, to strike.
func knockMatch() rules.State {
	return rules.State{
		Profile: "icf",
		Players: []rules.Player{{Name: "South", Seat: board.S, Team: 0}, {Name: "North", Seat: board.N, Team: 1}},
		Teams: [2]rules.TeamState{
			{Name: "South", Players: []string{"South"}, Colour: board.White, OnBoard: 9},
			{Name: "North", Players: []string{"North"}, Colour: board.Black, OnBoard: 9},
		},
		Board: 1, Turn: board.S, Strokes: 10, Winner: -1,
		Queen: rules.Queen{Status: rules.QueenOnBoard, Team: -1},
	}
}

// refereeStrokes feeds evs to a referee and returns its stroke decisions.
func refereeStrokes(t *testing.T, evs []events.Event) []referee.Decision {
	t.Helper()
	p, err := rules.ProfileByName("icf")
	if err != nil {
		t.Fatal(err)
	}
	r, err := referee.New(referee.DefaultConfig(p))
	if err != nil {
		t.Fatal(err)
	}
	var out []referee.Decision
	for _, e := range evs {
		ds, err := r.Observe(e, knockMatch())
		if err != nil {
			t.Fatalf("%v: %v", e, err)
		}
		for _, d := range ds {
			if d.Kind == referee.KindStroke {
				out = append(out, d)
			}
		}
	}
	return out
}

// A striker seen sliding only partly hidden all the way, or only briefly
// (for less than 0.25 s before it strikes, or before it goes in), is
// taken by the striker rules for one a hand carried; the man it knocks
// tells the stroke. It starts at the striker's place (inferred), is held
// for the umpire with what was and was not seen, and its best guess is the
// stroke the truth holds. A striker pushed by a hand and left short of a
// man who then drops out of detection, a slide that passes beside a man as
// he drops out, or a man gone before the slide could reach him start no
// stroke.
func TestStrikerKnockedUnseen(t *testing.T) {
	at := knockPlace()
	for _, c := range []struct {
		name string
		sc   knockScene
		says []string // in the start_unseen reason
		log  string   // the referee's best guess
	}{
		{"partly hidden all the way", knockScene{partial: true, after: true},
			[]string{"last seen at its place at frame 31", "(5 sightings over 0.27 s), each partly hidden", "W2, lying on that line at (325, -292) mm by the NE pocket, vanished from plain view at frame 47"}, "S w"},
		{"seen 0.13 s before the touch", knockScene{seen: 3, after: true},
			[]string{"in frames 42 to 44 only (3 sightings over 0.13 s)", "W2", "vanished from plain view at frame 47"}, "S w"},
		{"seen 0.07 s, then in with the man", knockScene{seen: 2},
			[]string{"in frames 42 to 43 only (2 sightings over 0.07 s)", "W2", "vanished"}, ""},
		{"partly hidden, a man mid-board sent sliding", knockScene{partial: true, after: true, man: true},
			[]string{"each partly hidden", "W2, lying on that line at (260, -200) mm, was seen sliding away from there at frame 47"}, "S -"},
	} {
		evs := c.sc.play(t)
		by := checkedByType(t, c.name, evs)
		starts, ends, pocketed := by[events.StrokeStart], by[events.StrokeEnd], by[events.Pocketed]
		if len(starts) != 1 || len(ends) != 1 {
			t.Errorf("%s: %d stroke starts and %d ends, want one each: %v", c.name, len(starts), len(ends), evs)
			continue
		}
		if st := starts[0]; *st.Side != board.S || st.StrikerMM.Vec().Dist(at) > 5 || !st.Inferred ||
			math.Abs(st.T-(float64(knockFlick)-0.5)/knockFPS) > 1.0/knockFPS {
			t.Errorf("%s: stroke start %+v: want side S at its place %v about frame %d, inferred", c.name, st, at, knockFlick)
		}
		if !saysStartUnseen(ends[0].Doubts, c.says...) {
			t.Errorf("%s: stroke end doubts %+v: want the unseen start said with %q", c.name, ends[0].Doubts, c.says)
		}
		want := map[string]bool{}
		if !c.sc.man {
			want["W2"] = true
		}
		if !c.sc.after {
			want["S"] = true
		}
		for _, e := range pocketed {
			if !want[e.ID] || *e.Pocket != board.NE || e.T < starts[0].T || e.T > ends[0].T {
				t.Errorf("%s: %v: want %v pocketed in NE within the stroke", c.name, e, want)
			}
			delete(want, e.ID)
		}
		if len(want) > 0 {
			t.Errorf("%s: not pocketed: %v (%v)", c.name, want, pocketed)
		}
		// The referee holds it; its best guess is the truth's stroke.
		ds := refereeStrokes(t, evs)
		if len(ds) != 1 {
			t.Errorf("%s: %d stroke decisions, want one", c.name, len(ds))
			continue
		}
		d := ds[0]
		log := c.log
		if log == "" {
			log = "S ws"
		}
		if !d.Uncertain() || d.Seat != board.S || !strings.HasPrefix(d.Log, log) || !strings.Contains(strings.Join(d.Reasons(), "; "), "taken as struck from its place") {
			t.Errorf("%s: decision held %v, seat %v, log %q, reasons %q: want held, S, %q", c.name, d.Uncertain(), d.Seat, d.Log, d.Reasons(), log)
		}
	}
	for _, c := range []struct {
		name string
		sc   knockScene
	}{
		{"pushed by a hand at a steady 0.6 m/s, left 25 mm short of a man who drops out then", knockScene{carry: 600}},
		{"sliding partly hidden 45 mm beside a man who drops out as it passes", knockScene{partial: true, after: true, beside: 45}},
		{"a man gone 0.13 s before the slide could reach him", knockScene{partial: true, after: true, early: 2}},
		{"slid as struck, a hand moving along over part of it all the way", knockScene{partial: true, after: true, handAlong: true}},
		{"seen twice, then stopped 25 mm short of a man who drops out then", knockScene{seen: 2, after: true, short: 25}},
	} {
		if c.sc.carry > 0 {
			man, dir := c.sc.geometry()
			c.sc.setDown = man.Sub(knockPlace()).Dot(dir) - 36.65 - 25
		}
		for _, e := range c.sc.play(t) {
			if e.Type == events.StrokeStart || e.Type == events.StrokeEnd && saysStartUnseen(e.Doubts) {
				t.Errorf("%s: want no stroke, got %v", c.name, e)
			}
		}
	}
}
