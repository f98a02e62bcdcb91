package sim

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/scene"
)

// Trace is the result of running a scenario: the exact motion of every disc
// and hand, the ground-truth events, and a summary of each stroke.
//
// The motion is kept analytically (piecewise: sliding with constant friction
// deceleration between collisions, held by a hand, pushed, in flight), so
// [Trace.At] gives the exact scene at any instant — the renderer samples it
// during a frame's exposure for motion blur — and [Trace.Frame] the scene of
// one video frame.
type Trace struct {
	Name     string
	FPS      int
	Seed     uint64
	Duration float64 // seconds
	Geometry *board.Geometry
	Physics  Physics
	// Events are the ground truth in time order: T is the exact time,
	// Frame the first frame at or after it. Events at the same instant
	// keep the order in which they happened (the contacts of a break).
	Events []events.Event
	// Strokes summarises each stroke; Boards each board finished by the
	// automatic player.
	Strokes []Stroke
	Boards  []BoardResult
	// Notes are remarks on the run worth showing (an automatic board
	// stopped by its stroke limit).
	Notes []string
	// Scenario is the scenario run (its Render node is the renderer's).
	Scenario *Scenario

	w *world
}

// Stroke summarises one stroke.
type Stroke struct {
	Number int // 1-based, in the scenario
	Board  int // 1-based board number
	Side   board.Side
	// Auto is set for a stroke of the automatic player; Plan says what it
	// meant to do.
	Auto bool
	Plan string
	// Start is the flick, End the moment everything was at rest.
	Start, End           float64
	StartFrame, EndFrame int
	Striker              board.Vec
	Placement            board.PlacementKind
	Speed                float64 // m/s
	Contacts             int
	// FirstContact is what the striker touched first ("" for nothing).
	FirstContact     string
	CrossedFrontLine bool
	Pocketed         []PocketedPiece
	Overboard        []string
	ArmOverFoulLine  bool
	// Notes are the turn policy's remarks.
	Notes []string
}

// BoardResult is a board finished during automatic play.
type BoardResult struct {
	Board   int
	Winner  board.Kind
	Reason  string
	Strokes int
	End     float64
}

// FrameOf returns the first frame at or after time t.
func FrameOf(t float64, fps int) int {
	f := t * float64(fps)
	n := math.Ceil(f - 1e-9)
	if n < 0 {
		return 0
	}
	return int(n)
}

// NumFrames is the number of video frames, frame 0 at t = 0 and the last at
// or before Duration.
func (tr *Trace) NumFrames() int { return int(math.Floor(tr.Duration*float64(tr.FPS)+1e-9)) + 1 }

// FrameTime is the time of frame i.
func (tr *Trace) FrameTime(i int) float64 { return float64(i) / float64(tr.FPS) }

// Frame returns the scene of video frame i.
func (tr *Trace) Frame(i int) scene.Scene { return tr.At(tr.FrameTime(i)) }

// At returns the scene at any time t (seconds from the start): every disc
// in identity order (W1…W9, B1…B9, Q, S) and the hands over the board.
func (tr *Trace) At(t float64) scene.Scene {
	sc := scene.Scene{T: t, Discs: make([]scene.Disc, nDiscs)}
	for i := range nDiscs {
		sc.Discs[i] = tr.w.discAt(i, t)
	}
	for _, h := range tr.w.hands {
		if t >= h.start() && t <= h.end() {
			sc.Hands = append(sc.Hands, h.hand(t))
		}
	}
	return sc
}

// Final returns the scene at the end of the trace.
func (tr *Trace) Final() scene.Scene { return tr.At(tr.Duration) }

// Hash returns a SHA-256 of the events and of every frame's scene, bit for
// bit: two runs of the same scenario and seed give the same hash.
func (tr *Trace) Hash() string {
	h := sha256.New()
	var buf [8]byte
	f := func(x float64) {
		binary.LittleEndian.PutUint64(buf[:], math.Float64bits(x))
		h.Write(buf[:])
	}
	for _, e := range tr.Events {
		b, _ := e.Marshal()
		h.Write(b)
		f(e.T)
	}
	for i := range tr.NumFrames() {
		s := tr.Frame(i)
		for _, d := range s.Discs {
			h.Write([]byte(d.ID))
			h.Write([]byte(d.State))
			f(d.Pos.X)
			f(d.Pos.Y)
			f(d.Vel.X)
			f(d.Vel.Y)
			f(d.Angle)
			f(d.Z)
			if d.Pocket != nil {
				h.Write([]byte(d.Pocket.String()))
			}
		}
		for _, hd := range s.Hands {
			h.Write([]byte(hd.Owner + "|" + hd.Holding))
			for _, v := range []board.Vec{hd.Elbow, hd.Wrist, hd.Fingertip} {
				f(v.X)
				f(v.Y)
			}
			f(hd.ArmWidth)
			f(hd.HandWidth)
			f(hd.Z)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}
