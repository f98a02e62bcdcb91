// Package webtest helps test package web and anything that speaks its
// websocket protocol: a websocket test client (Client, Login) and Fake, a
// scripted stand-in for the daemon that implements web.StateSource,
// web.CommandSink and web.FrameSource. The fake clock is clock/clocktest.
//
// The tests of package web drive the protocol end to end against Fake;
// the daemon's tests can run the same checks with the same Client against
// the real pipeline playing the demo clip.
package webtest

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"sync"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/internal/overlay"
	"github.com/boardcam/boardcam/rules"
	"github.com/boardcam/boardcam/sight"
	"github.com/boardcam/boardcam/web"
)

// Publisher is what the fake publishes to: a *web.Server.
type Publisher interface {
	Publish(web.Message) error
}

// Script is a scripted match: where it starts and what happens.
type Script struct {
	Start web.Snapshot
	Steps []Step
}

// Step is one thing that happens, e.g. a stroke: the messages the daemon
// would publish for it, in order, and perhaps a decision left to the umpire.
type Step struct {
	Name     string
	Messages []web.Message
	Pending  *Decision
}

// Decision is a pending automatic decision and what each answer publishes.
type Decision struct {
	Pending     web.Pending
	IfConfirmed []web.Message
	IfOverruled []web.Message
}

// Fake replays a Script as the daemon would, and reacts to umpire
// commands: confirm and overrule publish the scripted outcome; undo goes
// back to the previous state; foul, demand, concede, replay_board,
// next_board, start_match and calibrate publish plausible results (it is
// not a rules engine). It records every command it was given.
type Fake struct {
	mu       sync.Mutex
	pub      Publisher
	snap     web.Snapshot
	history  []rules.State
	steps    []Step
	next     int
	pending  map[string]*Decision
	commands []web.Command
	failNext error

	// Painter draws the fake camera's frames (NewFake: the plain-Go
	// Painter of this package; nil: the fake has no camera). The web
	// server given the fake as its FrameSource needs the same.
	Painter overlay.Painter

	frame      sight.Image
	frameNo    int64
	frameDirty bool
}

// NewFake makes a fake that starts at s.Start.
func NewFake(s Script) *Fake {
	f := &Fake{snap: s.Start, steps: s.Steps, pending: map[string]*Decision{}, frameDirty: true, Painter: Painter{}}
	f.history = []rules.State{s.Start.State}
	if f.snap.Pending == nil {
		f.snap.Pending = []web.Pending{}
	}
	return f
}

// Attach sets where the fake publishes (call before playing).
func (f *Fake) Attach(p Publisher) {
	f.mu.Lock()
	f.pub = p
	f.mu.Unlock()
}

// Close frees the fake's camera frame.
func (f *Fake) Close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.frame != nil {
		f.frame.Close()
		f.frame = nil
	}
}

// Snapshot implements web.StateSource.
func (f *Fake) Snapshot() web.Snapshot {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := f.snap
	s.Pending = append([]web.Pending(nil), f.snap.Pending...)
	return s
}

// State is the fake's current match state.
func (f *Fake) State() rules.State {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.snap.State
}

// Commands returns the commands received so far.
func (f *Fake) Commands() []web.Command {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]web.Command{}, f.commands...)
}

// FailNext makes the next command fail with err.
func (f *Fake) FailNext(err error) {
	f.mu.Lock()
	f.failNext = err
	f.mu.Unlock()
}

// Remaining counts the steps not played yet.
func (f *Fake) Remaining() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.steps) - f.next
}

// ErrPending is returned by Step while a decision awaits the umpire.
var ErrPending = errors.New("webtest: a decision awaits the umpire")

// ErrScriptDone is returned by Step after the last step.
var ErrScriptDone = errors.New("webtest: the script is over")

// Step plays the next step and returns its name.
func (f *Fake) Step() (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.pending) > 0 {
		return "", ErrPending
	}
	if f.next >= len(f.steps) {
		return "", ErrScriptDone
	}
	st := f.steps[f.next]
	f.next++
	if err := f.emit(st.Messages...); err != nil {
		return st.Name, err
	}
	if st.Pending != nil {
		d := *st.Pending
		f.pending[d.Pending.ID] = &d
		if err := f.emit(d.Pending); err != nil {
			return st.Name, err
		}
	}
	return st.Name, nil
}

// Offer puts a decision before the umpire outside the script (as the
// daemon holds one it could not establish).
func (f *Fake) Offer(d Decision) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.pending[d.Pending.ID] = &d
	return f.emit(d.Pending)
}

// Publish publishes messages as the daemon would, keeping the fake's
// snapshot in step.
func (f *Fake) Publish(msgs ...web.Message) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.emit(msgs...)
}

// emit folds each message into the snapshot and publishes it. f.mu held.
func (f *Fake) emit(msgs ...web.Message) error {
	for _, m := range msgs {
		switch v := m.(type) {
		case web.StateUpdate:
			f.snap.State = rules.State(v)
			f.history = append(f.history, rules.State(v))
		case web.Calibration:
			f.snap.Calibration = v
			f.frameDirty = true
		case web.Camera:
			f.snap.Camera = v
		case web.Analysis:
			f.snap.Analysis = v
		case web.Pieces:
			f.snap.Pieces = v
			f.frameDirty = true
		case web.Pending:
			f.snap.Pending = append(f.snap.Pending, v)
		case web.Decided:
			for i, p := range f.snap.Pending {
				if p.ID == v.ID {
					f.snap.Pending = append(f.snap.Pending[:i:i], f.snap.Pending[i+1:]...)
					break
				}
			}
		case web.Snapshot:
			f.snap = v
			f.history = []rules.State{v.State}
			f.frameDirty = true
		}
		if f.pub == nil {
			continue
		}
		if err := f.pub.Publish(m); err != nil {
			return err
		}
	}
	return nil
}

// Do implements web.CommandSink.
func (f *Fake) Do(ctx context.Context, c web.Command) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.commands = append(f.commands, c)
	if err := f.failNext; err != nil {
		f.failNext = nil
		return "", err
	}
	st := f.snap.State
	switch c.Name {
	case web.CmdConfirm, web.CmdOverrule:
		d, ok := f.pending[c.Pending]
		if !ok {
			return "", fmt.Errorf("no pending decision %q", c.Pending)
		}
		delete(f.pending, c.Pending)
		decision, msgs := web.DecisionConfirmed, d.IfConfirmed
		if c.Name == web.CmdOverrule {
			decision, msgs = web.DecisionOverruled, d.IfOverruled
		}
		all := append([]web.Message{web.Decided{ID: c.Pending, Decision: decision, By: "umpire", Note: c.Note}}, msgs...)
		return decision + " " + c.Pending, f.emit(all...)
	case web.CmdCorrect:
		if _, ok := f.pending[c.Pending]; !ok {
			return "", fmt.Errorf("no pending decision %q", c.Pending)
		}
		delete(f.pending, c.Pending)
		note := "entered: " + c.Notation
		return "corrected " + c.Pending, f.emit(web.Decided{ID: c.Pending, Decision: web.DecisionCorrected, By: "umpire", Note: note})
	case web.CmdUndo:
		if len(f.history) < 2 {
			return "", errors.New("nothing to undo")
		}
		prev := f.history[len(f.history)-2]
		f.history = f.history[:len(f.history)-2]
		return "undone", f.emit(web.Notice{Text: "Umpire: undo"}, web.StateUpdate(prev))
	case web.CmdFoul:
		var rule, text string
		for _, fc := range f.snap.Profile.Fouls {
			if fc.Code == c.Code {
				rule, text = fc.Rule, fc.Text
			}
		}
		st.Fouls = []string{c.Code}
		st.Last = fmt.Sprintf("%v foul %s", *c.Seat, c.Code)
		foul := web.Foul{Code: c.Code, Rule: rule, Text: text, Seat: *c.Seat, Source: web.SourceUmpire, Evidence: web.Evidence{Note: c.Note}}
		return "foul " + c.Code + " declared", f.emit(foul, web.StateUpdate(st))
	case web.CmdDemand:
		if len(st.Boards) == 0 || st.Boards[len(st.Boards)-1].Winner < 0 {
			return "", errors.New("no board has been won yet")
		}
		winner := st.Boards[len(st.Boards)-1].Winner
		if *c.Team != winner {
			return "", fmt.Errorf("the \"if demanded\" points are %s's, not %s's", teamLabel(st, winner), teamLabel(st, *c.Team))
		}
		points := c.Points
		if points == 0 {
			points = 1 // all that are available: the fake always has one
		}
		st = cloneState(st)
		st.Teams[winner].Score += points
		st.Fouls = nil
		st.Last = fmt.Sprintf("demand %d", points)
		return fmt.Sprintf("%d point(s) to %s", points, teamLabel(st, winner)),
			f.emit(web.Notice{Text: fmt.Sprintf("Umpire: %d \"if demanded\" point(s) to %s", points, teamLabel(st, winner))}, web.StateUpdate(st))
	case web.CmdConcede:
		st = cloneState(st)
		st.MatchOver, st.Winner = true, 1-*c.Team
		return "match conceded", f.emit(web.Notice{Text: teamLabel(st, *c.Team) + " concede the match"}, web.StateUpdate(st))
	case web.CmdReplayBoard, web.CmdNextBoard:
		st = cloneState(st)
		if c.Name == web.CmdNextBoard {
			st.Board++
		}
		resetBoard(&st)
		return "board " + fmt.Sprint(st.Board), f.emit(web.Notice{Text: fmt.Sprintf("Board %d starts", st.Board)}, InitialPieces(st.Turn, 0), web.StateUpdate(st))
	case web.CmdStartMatch:
		snap := f.snap
		snap.State = NewMatchState(*c.Match)
		snap.Pending = []web.Pending{}
		snap.Pieces = InitialPieces(c.Match.Breaker, 0)
		for _, p := range snap.Profiles {
			if p.Name == c.Match.Profile {
				snap.Profile = p
			}
		}
		if snap.Profile.Name != c.Match.Profile {
			return "", fmt.Errorf("unknown profile %q", c.Match.Profile)
		}
		f.pending = map[string]*Decision{}
		f.steps, f.next = nil, 0
		return "match started", f.emit(snap, web.Notice{Text: "Match started"})
	case web.CmdCalibrate:
		cal := web.Calibration{Status: web.CalibrationManual, CornersPx: c.CornersPx, Width: f.snap.Calibration.Width, Height: f.snap.Calibration.Height, Frame: c.StillFrame, Message: "from the umpire's four corners"}
		return "calibrated", f.emit(cal)
	}
	return "", fmt.Errorf("the fake does not know command %q", c.Name)
}

func teamLabel(st rules.State, t int) string {
	if st.Teams[t].Name != "" {
		return st.Teams[t].Name
	}
	return fmt.Sprintf("team %d", t+1)
}

// cloneState copies the slices of a state.
func cloneState(st rules.State) rules.State {
	st.Players = append([]rules.Player(nil), st.Players...)
	st.Boards = append([]rules.BoardResult(nil), st.Boards...)
	st.Fouls = append([]string(nil), st.Fouls...)
	for i := range st.Teams {
		st.Teams[i].Players = append([]string(nil), st.Teams[i].Players...)
	}
	return st
}

// resetBoard puts every man back for a new board.
func resetBoard(st *rules.State) {
	for i := range st.Teams {
		st.Teams[i].OnBoard, st.Teams[i].Pocketed, st.Teams[i].Owed, st.Teams[i].AwaitingPlacement = 9, 0, 0, 0
	}
	st.Queen = rules.Queen{Status: rules.QueenOnBoard, Team: -1}
	st.Breaking, st.BreakAttempts, st.Strokes = true, 0, 0
	st.Fouls, st.Last = nil, ""
}

// NewMatchState is the state at the start of a match.
func NewMatchState(m web.MatchSetup) rules.State {
	st := rules.State{Profile: m.Profile, Doubles: m.Doubles, Board: 1, Turn: m.Breaker, Winner: -1}
	st.Players = append(st.Players, m.Players...)
	for _, p := range m.Players {
		st.Teams[p.Team].Players = append(st.Teams[p.Team].Players, p.Name)
	}
	for t := range st.Teams {
		st.Teams[t].Name = joinNames(st.Teams[t].Players)
		st.Teams[t].Colour = board.Black
	}
	for _, p := range m.Players {
		if p.Seat == m.Breaker {
			st.Teams[p.Team].Colour = board.White // the breaker plays white
		}
	}
	resetBoard(&st)
	return st
}

func joinNames(ns []string) string {
	s := ""
	for i, n := range ns {
		if i > 0 {
			s += " & "
		}
		s += n
	}
	return s
}

// The fake camera: a 1280×720 frame with the playing surface an upright
// 600-pixel square centred in it, so board millimetres map to pixels by
// FakePx with no perspective.
const (
	FrameWidth   = 1280
	FrameHeight  = 720
	boardPixels  = 600.0
	surfaceMM    = 740.0
	frameCentreX = FrameWidth / 2
	frameCentreY = FrameHeight / 2
)

// FakePx maps board millimetres to the fake camera's pixels.
func FakePx(mm [2]float64) (float64, float64) {
	k := boardPixels / surfaceMM
	return frameCentreX + mm[0]*k, frameCentreY + mm[1]*k
}

// FakeCorners are the surface corners in the fake camera (NW, NE, SE, SW).
func FakeCorners() [][2]float64 {
	h := surfaceMM / 2
	var out [][2]float64
	for _, c := range [][2]float64{{-h, -h}, {h, -h}, {h, h}, {-h, h}} {
		x, y := FakePx(c)
		out = append(out, [2]float64{x, y})
	}
	return out
}

// CopyFrame implements web.FrameSource: the board and the pieces as the
// fake camera sees them. The frame number advances with every change.
func (f *Fake) CopyFrame(dst sight.Image) (int64, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.Painter == nil {
		return 0, false
	}
	if f.frameDirty || f.frame == nil {
		f.render()
		f.frameNo++
		f.frameDirty = false
	}
	f.Painter.Copy(dst, f.frame)
	return f.frameNo, true
}

// render draws the fake camera's frame. f.mu held.
func (f *Fake) render() {
	if f.frame == nil {
		f.frame = f.Painter.NewImage()
	}
	var d overlay.Drawing
	x0, y0 := FakePx([2]float64{-surfaceMM / 2, -surfaceMM / 2})
	x1, y1 := FakePx([2]float64{surfaceMM / 2, surfaceMM / 2})
	d.Polygon([]image.Point{{int(x0), int(y0)}, {int(x1), int(y0)}, {int(x1), int(y1)}, {int(x0), int(y1)}}, color.RGBA{215, 185, 130, 255}, -1, 0)
	g := board.ICF()
	k := boardPixels / surfaceMM
	for _, p := range f.snap.Pieces.Pieces {
		if p.State != web.PieceRest && p.State != web.PieceMoving {
			continue
		}
		x, y := FakePx(p.MM)
		c := map[board.Kind]color.RGBA{
			board.White: {235, 230, 215, 0}, board.Black: {30, 30, 30, 0},
			board.Queen: {200, 30, 30, 0}, board.Striker: {190, 200, 170, 0},
		}[p.Kind]
		d.Circle(image.Pt(int(math.Round(x)), int(math.Round(y))), int(math.Round(g.Radius(p.Kind)*k)), c, -1)
	}
	f.Painter.Fill(f.frame, FrameWidth, FrameHeight, color.RGBA{45, 45, 45, 255}, d)
}
