package webtest

import (
	"fmt"
	"math"
	"strings"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/rules"
	"github.com/boardcam/boardcam/web"
)

// DemoProfiles are the profiles the fake offers: those of package rules.
func DemoProfiles() []web.ProfileInfo { return web.AllProfiles() }

// profileFoul finds a foul code of a profile.
func profileFoul(p web.ProfileInfo, code string) web.FoulCode {
	for _, f := range p.Fouls {
		if f.Code == code {
			return f
		}
	}
	return web.FoulCode{Code: code}
}

// demo builds the scripted match step by step.
type demo struct {
	g      *board.Geometry
	st     rules.State
	pieces map[string]*web.Piece
	frame  int64
}

// InitialPieces is the break formation: the queen in the centre, six men
// around it and twelve around those, the striker on the breaker's base line.
func InitialPieces(breaker board.Side, frame int64) web.Pieces {
	g := board.ICF()
	r := g.ManDiameter + 0.8
	var ps []web.Piece
	ps = append(ps, web.Piece{ID: "Q", Kind: board.Queen, State: web.PieceRest})
	w, b := 1, 1
	add := func(white bool, rad, deg float64) {
		a := deg * math.Pi / 180
		mm := [2]float64{round1(rad * math.Cos(a)), round1(rad * math.Sin(a))}
		if white {
			ps = append(ps, web.Piece{ID: fmt.Sprintf("W%d", w), Kind: board.White, MM: mm, State: web.PieceRest})
			w++
		} else {
			ps = append(ps, web.Piece{ID: fmt.Sprintf("B%d", b), Kind: board.Black, MM: mm, State: web.PieceRest})
			b++
		}
	}
	for k := 0; k < 6; k++ {
		add(k%2 == 0, r, float64(60*k))
	}
	for k := 0; k < 12; k++ {
		add(k%2 == 1, 2*r, float64(15+30*k))
	}
	s := board.FromLocal(breaker, board.V(0, g.BaseCircleY()))
	ps = append(ps, web.Piece{ID: "S", Kind: board.Striker, MM: [2]float64{round1(s.X), round1(s.Y)}, State: web.PieceRest})
	return web.Pieces{Frame: frame, Pieces: ps}
}

func round1(f float64) float64 { return math.Round(f*10) / 10 }

func (d *demo) reset(breaker board.Side) {
	d.pieces = map[string]*web.Piece{}
	for _, p := range InitialPieces(breaker, d.frame).Pieces {
		p := p
		d.pieces[p.ID] = &p
	}
	resetBoard(&d.st)
	d.st.Turn = breaker
}

func (d *demo) piecesMsg() web.Pieces {
	out := web.Pieces{Frame: d.frame}
	for _, id := range board.PieceIDs() {
		if p, ok := d.pieces[id]; ok {
			out.Pieces = append(out.Pieces, *p)
		}
	}
	return out
}

func (d *demo) state() web.StateUpdate { return web.StateUpdate(cloneState(d.st)) }

func (d *demo) teamOf(k board.Kind) int {
	if d.st.Teams[0].Colour == k {
		return 0
	}
	return 1
}

func (d *demo) player(seat board.Side) string {
	for _, p := range d.st.Players {
		if p.Seat == seat {
			return p.Name
		}
	}
	return seat.String()
}

// stroke pockets ids for the player at seat (the queen too, if "Q" is
// among them) and returns the stroke message; the state is updated but not
// published. The striker comes to rest somewhere plausible.
func (d *demo) stroke(seat board.Side, ids ...string) web.Stroke {
	d.frame += 90
	s := web.Stroke{Seat: seat, Player: d.player(seat), Frame: d.frame}
	for _, id := range ids {
		p := d.pieces[id]
		p.State = web.PiecePocketed
		switch p.Kind {
		case board.White:
			s.Pocketed.White++
		case board.Black:
			s.Pocketed.Black++
		case board.Queen:
			s.Pocketed.Queen = true
			continue
		}
		t := d.teamOf(p.Kind)
		d.st.Teams[t].OnBoard--
		d.st.Teams[t].Pocketed++
	}
	// Nudge the men left on the board a little, as a stroke does.
	for _, p := range d.pieces {
		if p.State == web.PieceRest && p.Kind != board.Striker {
			a := float64(d.frame%360) * math.Pi / 180
			p.MM[0] = round1(p.MM[0] + 4*math.Cos(a+float64(len(p.ID))))
			p.MM[1] = round1(p.MM[1] + 4*math.Sin(a+float64(len(p.ID))))
		}
	}
	d.st.Strokes++
	d.st.Breaking = false
	d.st.Fouls = nil
	notation := seat.String()
	if len(ids) == 0 {
		notation += " -"
	} else {
		notation += " " + strings.Join(ids, " ")
	}
	s.Notation = notation
	d.st.Last = notation
	return s
}

// strikerAt puts the striker on the base line of seat.
func (d *demo) strikerAt(seat board.Side) {
	p := board.FromLocal(seat, board.V(0, d.g.BaseCircleY()))
	d.pieces["S"].MM = [2]float64{round1(p.X), round1(p.Y)}
	d.pieces["S"].State = web.PieceRest
}

// DemoScript is a scripted ICF singles match between Asha (S, white) and
// Ravi (N, black): Ravi wins board 1 by 11 points; in board 2 Asha's last
// stroke is flagged by the referee (striker placement) and waits for the
// umpire: confirmed, it is a foul and the board goes on (score stays 0–11);
// overruled, Asha wins board 2 by 14 (score 14–11).
func DemoScript() Script {
	d := &demo{g: board.ICF()}
	d.st = NewMatchState(web.MatchSetup{
		Profile: "icf",
		Players: []rules.Player{{Name: "Asha", Seat: board.S, Team: 0}, {Name: "Ravi", Seat: board.N, Team: 1}},
		Breaker: board.S,
	})
	d.reset(board.S)
	profiles := DemoProfiles()
	var icf web.ProfileInfo
	for _, p := range profiles {
		if p.Name == "icf" {
			icf = p
		}
	}
	start := web.Snapshot{
		State:       rules.State(d.state()),
		Profile:     icf,
		Profiles:    profiles,
		Calibration: web.Calibration{Status: web.CalibrationOK, Quality: 0.97, CornersPx: FakeCorners(), Width: FrameWidth, Height: FrameHeight},
		Camera:      web.Camera{Status: web.CameraOK, Source: "fake camera", Width: FrameWidth, Height: FrameHeight, FPS: 30},
		Pieces:      d.piecesMsg(),
	}
	var steps []Step
	add := func(name string, msgs ...web.Message) {
		steps = append(steps, Step{Name: name, Messages: msgs})
	}
	strokeStep := func(name string, seat board.Side, turnAfter board.Side, ids ...string) {
		s := d.stroke(seat, ids...)
		d.st.Turn = turnAfter
		d.strikerAt(turnAfter)
		add(name, s, d.piecesMsg(), d.state())
	}

	strokeStep("Asha breaks and pockets W1 and W3", board.S, board.S, "W1", "W3")
	strokeStep("Asha pockets W2", board.S, board.S, "W2")
	strokeStep("Asha misses", board.S, board.N)
	s := d.stroke(board.N, "Q")
	d.st.Queen = rules.Queen{Status: rules.QueenAwaitingCover, Team: 1}
	d.strikerAt(board.N)
	add("Ravi pockets the queen", s, d.piecesMsg(), d.state())
	s = d.stroke(board.N, "B1")
	d.st.Queen = rules.Queen{Status: rules.QueenCovered, Team: 1}
	d.strikerAt(board.N)
	add("Ravi covers the queen with B1", s, d.piecesMsg(), d.state())
	strokeStep("Ravi pockets B2, B3 and B4", board.N, board.N, "B2", "B3", "B4")
	strokeStep("Ravi pockets B5 and B6", board.N, board.N, "B5", "B6")

	// Board 1 ends: Ravi wins by Asha's 6 men on the board + 5 for the queen.
	s = d.stroke(board.N, "B7", "B8", "B9")
	left := d.st.Teams[0].OnBoard
	points := left + 5
	d.st.Boards = append(d.st.Boards, rules.BoardResult{Board: 1, Winner: 1, Points: points,
		Reason: fmt.Sprintf("Ravi pocketed his last man with the queen covered: %d of Asha's men on the board + 5 for the queen", left),
		Rule:   "icf: Covering the Queen"})
	d.st.Teams[1].Score += points
	d.st.Teams[1].BoardsWon++
	final := d.state()
	piecesEnd := d.piecesMsg()
	d.st.Board = 2
	d.reset(board.N)
	add("Ravi pockets B7, B8 and B9: board 1 to Ravi",
		s, piecesEnd, final,
		web.Notice{Text: fmt.Sprintf("Board 1 to Ravi by %d points. Board 2: Ravi breaks.", points)},
		d.piecesMsg(), d.state())

	strokeStep("Ravi breaks and pockets nothing", board.N, board.S)
	strokeStep("Asha pockets W1, W2, W4 and W5", board.S, board.S, "W1", "W2", "W4", "W5")
	s = d.stroke(board.S, "Q", "W3")
	d.st.Queen = rules.Queen{Status: rules.QueenCovered, Team: 0}
	d.strikerAt(board.S)
	add("Asha pockets the queen and covers it with W3", s, d.piecesMsg(), d.state())
	strokeStep("Asha pockets W6, W7 and W8", board.S, board.S, "W6", "W7", "W8")

	// Asha's last man: the referee saw the striker off the base lines.
	before := cloneState(d.st)
	striker := web.Piece{ID: "S", Kind: board.Striker, MM: [2]float64{42.0, 259.8}, State: web.PieceRest}
	s = d.stroke(board.S, "W9")
	s.Pending = "p1"
	s.Fouls = []string{"placement"}
	placement := profileFoul(icf, "placement")
	margin := 3.2
	foul := web.Foul{Code: placement.Code, Rule: placement.Rule, Text: placement.Text, Effect: "improper",
		Seat: board.S, Frame: s.Frame, Source: web.SourceAuto, Pending: "p1",
		Evidence: web.Evidence{Positions: []web.Piece{striker}, Note: "striker 3.2 mm clear of the rear base line at the strike",
			Marking: "rear line S", MarginMM: &margin, Confidence: 0.93, Frames: []int64{s.Frame - 60}}}
	black := d.st.Teams[1].OnBoard
	won := black + 5
	pend := web.Pending{ID: "p1", Summary: "Asha pocketed her last man (W9): improper placement of the striker?",
		Stroke: &s, Fouls: []web.Foul{foul}, Frame: s.Frame,
		IfConfirmed: "foul: W9 and one more white go back on the board (due and penalty), Ravi to play",
		IfOverruled: fmt.Sprintf("the stroke is good: Asha wins board 2 by %d points (%d men + 5 for the queen)", won, black)}
	afterPieces := d.piecesMsg()

	// Overruled: the board is Asha's.
	good := cloneState(d.st)
	good.Boards = append(good.Boards, rules.BoardResult{Board: 2, Winner: 0, Points: won,
		Reason: fmt.Sprintf("Asha pocketed her last man with the queen covered: %d of Ravi's men on the board + 5 for the queen", black),
		Rule:   "icf: Covering the Queen"})
	good.Teams[0].Score += won
	good.Teams[0].BoardsWon++
	goodStroke := s
	goodStroke.Pending, goodStroke.Fouls = "", nil

	// Confirmed: W9 and a penalty man come back; Ravi plays.
	bad := before
	bad = cloneState(bad)
	bad.Strokes++
	// W9 fell (0 on the board), then W9 and a penalty man are taken out
	// to be placed back: 7 pocketed, 2 awaiting placement.
	bad.Teams[0].OnBoard, bad.Teams[0].Pocketed = before.Teams[0].OnBoard-1, before.Teams[0].Pocketed-1
	bad.Teams[0].AwaitingPlacement = 2
	bad.Turn = board.N
	bad.Fouls = []string{"placement"}
	bad.Last = "S W9 foul placement"
	bad.Breaking = false
	badStroke := s
	badStroke.Pending = ""
	confirmedFoul := foul
	confirmedFoul.Pending = ""

	steps = append(steps, Step{
		Name:     "Asha pockets W9: the referee flags the striker placement",
		Messages: []web.Message{afterPieces},
		Pending: &Decision{
			Pending:     pend,
			IfConfirmed: []web.Message{badStroke, confirmedFoul, web.StateUpdate(bad)},
			IfOverruled: []web.Message{goodStroke, web.StateUpdate(good), web.Notice{Text: fmt.Sprintf("Board 2 to Asha by %d points.", won)}},
		},
	})
	return Script{Start: start, Steps: steps}
}
