package referee

import (
	"fmt"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/rules"
)

// Pieces the match has off the board, seen on it. A man the referee counted
// pocketed (and nobody has put back since), or the queen while she is
// covered or awaits cover, cannot lie on the board: when the camera says
// it sees one there at rest (a stroke_end's pieces) or moved by hand, it
// has taken another disc for that piece — the striker under glare read as
// the queen, a man's detections given to the striker while the man's own
// identity coasted into a pocket — and what it says of the other discs may
// be wrong too. Such a sighting is not taken as fact: the decision it is
// part of is held for the umpire with the reason (a doubt of kind
// unaccounted), and a touched-piece foul that rests on it is offered, not
// applied. Pieces that left the board over the frame are not among them:
// the umpire puts those back.

// offBoard says why the match has piece id off the board, if it does: a
// man or the queen counted pocketed by this referee and not put back
// since, or the queen covered or awaiting cover in st.
func (r *Referee) offBoard(id string, st rules.State) (string, bool) {
	if id == "" || id == "S" {
		return "", false
	}
	if why, ok := r.off[id]; ok {
		return why, true
	}
	if id == "Q" {
		switch st.Queen.Status {
		case rules.QueenCovered:
			return "the queen is covered (off the board)", true
		case rules.QueenAwaitingCover:
			return "the queen was pocketed and awaits cover (off the board)", true
		}
	}
	return "", false
}

// offBoardSeen doubts stroke s for every piece the match had off the board
// before it that its stroke_end e lists at rest, or that a hand moved
// during it; it reports whether one of the moves was such a piece's.
func (r *Referee) offBoardSeen(s *stroke, e events.Event) (moved bool) {
	for _, p := range e.Pieces {
		if why, ok := r.offBoard(p.ID, s.ctx); ok {
			s.doubt(events.Doubt{Kind: events.DoubtUnaccounted, IDs: []string{p.ID}, Frames: [2]int{e.Frame, e.Frame},
				Reason: fmt.Sprintf("%s was seen at rest at %s at the end of the stroke (frame %d), but %s: the camera may have taken another disc for it (the striker, a man), and what it says of the other discs may be wrong too", p.ID, fmtMM(p.MM.Vec()), e.Frame, why)})
		}
	}
	for _, m := range s.moved {
		if why, ok := r.offBoard(m.ID, s.ctx); ok {
			s.doubt(offBoardMoved(m, why))
			moved = true
		}
	}
	return moved
}

// offBoardMoved is the doubt of a move by hand of piece m.ID, which the
// match has off the board (why).
func offBoardMoved(m events.Event, why string) events.Doubt {
	return events.Doubt{Kind: events.DoubtUnaccounted, IDs: []string{m.ID}, Frames: [2]int{m.Frame, m.Frame},
		Reason: fmt.Sprintf("a disc taken for %s was moved by hand to %s (frame %d), but %s: the camera may have taken another disc for it (the striker, a man); whether a piece was touched is not judged by the camera", m.ID, fmtMM(m.MM.Vec()), m.Frame, why)}
}

// tookOff records the pieces a stroke took off the board into pockets
// (gone: the identities counted off the board; pocketed: the stroke's
// pocketed events). restAt and placed forget those seen at rest in a
// stroke's end or put back.
func (r *Referee) tookOff(gone map[string]bool, pocketed []events.Event) {
	for _, p := range pocketed {
		if p.ID == "" || p.ID == "S" || !gone[p.ID] || *p.Piece == board.Striker {
			continue
		}
		if _, ok := r.off[p.ID]; !ok {
			r.off[p.ID] = fmt.Sprintf("%s was pocketed in %s at frame %d and has not been put back since", p.ID, *p.Pocket, p.Frame)
		}
	}
}
