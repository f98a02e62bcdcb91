package match

import (
	"time"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/rules"
)

// Announcement is what the keeper announces, once the journal has it: the
// items in order and, when the match changed, its state before and after.
// Announcements are shared between subscribers: read them, never modify
// them.
type Announcement struct {
	// Seq numbers the announcements from 1 in the keeper's life;
	// Snapshot.Seq is the last one a snapshot includes.
	Seq   uint64
	Items []Item
	// State is the match after a change (nil when it did not change),
	// Prev the match before it.
	State, Prev *rules.State
	// Captured is the capture time of the frame that completed the
	// decision (zero for the umpire's commands); Pockets those of the
	// frames in which the stroke's pieces were pocketed.
	Captured time.Time
	Pockets  []time.Time
	// NewMatch: a new match began; Snapshot is its first snapshot (set
	// only then). Subscribers drop what they hold of the old match.
	NewMatch bool
	Snapshot *Snapshot
}

// PocketNotice reports whether the announcement is the immediate notice
// of a pocketing (before the stroke's decision).
func (a Announcement) PocketNotice() bool {
	for _, it := range a.Items {
		if n, ok := it.(Notice); ok && n.Pocketed != nil {
			return true
		}
	}
	return false
}

// Item is one thing announced: [Stroke], [Foul], [Pending], [Decided],
// [Notice] or [Score].
type Item interface{ isItem() }

// Pocketed counts what a stroke pocketed.
type Pocketed struct {
	White, Black   int
	Queen, Striker bool
}

// Stroke is the outcome of a stroke, applied or held in a pending
// decision.
type Stroke struct {
	Seat   board.Side
	Player string
	// Frame is the camera frame at which the stroke ended.
	Frame    int64
	Pocketed Pocketed
	// Overboard lists the identities of discs that left the board.
	Overboard []string
	// Fouls lists the foul codes of the stroke in force.
	Fouls []string
	// Notation is the stroke in stroke-log notation.
	Notation string
	// Pending is the pending decision holding it ("" none).
	Pending string
}

// Foul sources.
const (
	SourceAuto   = "auto"   // called by the automatic referee
	SourceUmpire = "umpire" // declared by the umpire
)

// Foul is a foul called, with its evidence.
type Foul struct {
	Code, Rule, Text string
	Seat             board.Side
	Frame            int64
	// Source is SourceAuto or SourceUmpire.
	Source string
	// Pending is the pending decision the foul belongs to ("" none).
	Pending  string
	Evidence Evidence
}

// Evidence is what the referee saw.
type Evidence struct {
	// Positions are the discs involved at the decisive frame.
	Positions []Position
	Note      string
	// Marking names the board marking the call measures against;
	// MarginMM how far the measurement lies on the foul side of it;
	// Confidence (0…1) how likely the call is right; LowConfidence marks
	// a call within the tolerance.
	Marking       string
	MarginMM      *float64
	Confidence    float64
	LowConfidence bool
	// Contacts are the striker's contacts up to the decisive one; Frames
	// the video frames the call rests on.
	Contacts []string
	Frames   []int64
	// HandMM is the point of the hand furthest beyond the foul line
	// (hand_over_foul_line), in board mm.
	HandMM *[2]float64
}

// Position is where a disc lay, in board millimetres.
type Position struct {
	ID   string
	Kind board.Kind
	MM   [2]float64
}

// Pending is an automatic decision put before the umpire.
type Pending struct {
	ID string
	// Summary says in one line what is proposed.
	Summary string
	Stroke  *Stroke
	Fouls   []Foul
	// IfConfirmed and IfOverruled say in words what each choice does.
	IfConfirmed, IfOverruled string
	Frame                    int64
	// Doubts say why the camera could not decide alone; Guess is then its
	// best guess in stroke-log notation.
	Doubts []Doubt
	Guess  string
	// Queued: a sure decision waiting only behind an uncertain one.
	Queued bool
}

// Doubt is one thing the camera could not establish about a decision.
type Doubt struct {
	Kind, Reason string
	Frames       [2]int
	IDs          []string
}

// Decisions of a Decided.
const (
	DecisionConfirmed = "confirmed"
	DecisionOverruled = "overruled"
	DecisionWithdrawn = "withdrawn" // its event was undone, or the rules refused it
	DecisionCorrected = "corrected" // replaced by the events the umpire entered
)

// Decided settles a pending decision.
type Decided struct {
	ID, Decision string
	// By is "umpire", "button" or "auto".
	By, Note string
}

// Notice levels.
const (
	LevelInfo    = "info"
	LevelWarning = "warning"
)

// Notice is an event-list entry that is none of the other items.
type Notice struct {
	Text  string
	Level string
	// Pocketed is set on the immediate notice of a pocketing.
	Pocketed *PocketedPiece
}

// PocketedPiece is a piece seen falling into a pocket.
type PocketedPiece struct {
	ID     string
	Kind   board.Kind
	Pocket *board.Pocket
	Frame  int64
}

// Score is the state of the match after a rules event.
type Score struct{ State rules.State }

func (Stroke) isItem()  {}
func (Foul) isItem()    {}
func (Pending) isItem() {}
func (Decided) isItem() {}
func (Notice) isItem()  {}
func (Score) isItem()   {}

// Snapshot is the match at one announcement.
type Snapshot struct {
	// Seq is the last announcement it includes (0: none).
	Seq   uint64
	State rules.State
	// Profile describes the match's rule profile.
	Profile Profile
	// Pending lists the decisions awaiting the umpire, oldest first.
	Pending []Pending
	// Journal is the journal's file.
	Journal string
}

// fold applies an announcement to the snapshot.
func (s *Snapshot) fold(a Announcement) {
	s.Seq = a.Seq
	if a.NewMatch && a.Snapshot != nil {
		*s = *a.Snapshot
		s.Pending = append([]Pending{}, a.Snapshot.Pending...)
		return
	}
	for _, it := range a.Items {
		switch v := it.(type) {
		case Score:
			s.State = v.State
		case Pending:
			replaced := false
			for i := range s.Pending {
				if s.Pending[i].ID == v.ID {
					s.Pending[i], replaced = v, true
				}
			}
			if !replaced {
				s.Pending = append(s.Pending, v)
			}
		case Decided:
			for i, p := range s.Pending {
				if p.ID == v.ID {
					s.Pending = append(s.Pending[:i:i], s.Pending[i+1:]...)
					break
				}
			}
		}
	}
}

func (s Snapshot) clone() Snapshot {
	s.Pending = append([]Pending{}, s.Pending...)
	return s
}
