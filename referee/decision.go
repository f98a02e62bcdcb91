package referee

import (
	"fmt"
	"math"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/rules"
)

// Kind says what a [Decision] is about.
type Kind string

// The kinds of decision.
const (
	// KindStroke: the outcome of a stroke (a rules.Stroke).
	KindStroke Kind = "stroke"
	// KindPlace: a due or penalty man or the queen put back on the board
	// (a rules.Place).
	KindPlace Kind = "place"
	// KindFoul: a foul outside a stroke, or by a player other than the
	// striker (a rules.FoulCall).
	KindFoul Kind = "foul"
	// KindInfo: something the umpire should know that changes nothing in
	// the match (a piece moved before the break, a placement the rules do
	// not expect, a stroke out of turn …). It has no event.
	KindInfo Kind = "info"
)

// Status is where a call stands.
type Status string

// The statuses.
const (
	// Applied: written into the decision's event.
	Applied Status = "applied"
	// Offered: reported but not in the event, for the umpire to confirm:
	// a low-confidence call (benefit of the doubt), or any call under a
	// profile where fouls count only when a player claims them.
	Offered Status = "offered"
	// Derived: the rules engine finds this foul itself from the pieces
	// pocketed or overboard; the call is the evidence.
	Derived Status = "derived"
	// Confirmed: confirmed by the umpire (in the event).
	Confirmed Status = "confirmed"
	// Overruled: rejected by the umpire (not in the event).
	Overruled Status = "overruled"
)

// inEvent reports whether a call with this status is written in the event.
func (s Status) inEvent() bool { return s == Applied || s == Confirmed }

// Source says who made a call.
type Source string

// The sources.
const (
	SourceCamera Source = "camera"
	SourceUmpire Source = "umpire"
)

// Evidence is what a call rests on. Positions are board millimetres.
type Evidence struct {
	// Striker is where the striker stood at the strike.
	Striker *events.MM `json:"striker_mm,omitempty"`
	// Placement is the reading of the striker's placement
	// (board.PlacementKind: baseline, base_circle, cut_moon, one_line,
	// off_base_line) and PlacementSide the side it was read against.
	Placement     string      `json:"placement,omitempty"`
	PlacementSide *board.Side `json:"placement_side,omitempty"`
	// StrikerAtContact is where the striker was when it touched Piece.
	StrikerAtContact *events.MM `json:"striker_at_contact_mm,omitempty"`
	// Piece is the identity of the piece involved and PieceMM where it was.
	Piece   string     `json:"piece,omitempty"`
	PieceMM *events.MM `json:"piece_mm,omitempty"`
	// From is where a piece moved by hand had been.
	From *events.MM `json:"from_mm,omitempty"`
	// Marking names the marking the call measures against: "front line S",
	// "base circle S left", "arrow NE", "foul line", "outer circle",
	// "centre circle".
	Marking string `json:"marking,omitempty"`
	// Contacts lists the striker's contacts up to the decisive one, in
	// order ("W3", "frame", …).
	Contacts []string `json:"contacts,omitempty"`
	// Frames are the video frames of the events the call rests on.
	Frames []int `json:"frames,omitempty"`
}

// Call is one foul called, with its evidence.
type Call struct {
	Foul rules.Foul `json:"foul"`
	// Seat is the offender.
	Seat board.Side `json:"seat"`
	// Rule is the profile's reference: document, section and number.
	Rule    string `json:"rule"`
	Summary string `json:"summary"`
	// Effect is how the profile penalises the foul ("improper", "fine",
	// "loses the board").
	Effect string `json:"effect"`
	Status Status `json:"status"`
	Source Source `json:"source"`
	// Frame and T are those of the decisive event.
	Frame int     `json:"frame"`
	T     float64 `json:"t"`
	// Margin is how far, in mm, the measurement lies on the foul side of
	// the boundary that decides the call (absent when the call does not
	// rest on a measured position).
	Margin *float64 `json:"margin_mm,omitempty"`
	// Confidence is the probability that the call is right given the
	// measurement noise (see Config.Tolerance); LowConfidence marks calls
	// within the tolerance.
	Confidence    float64 `json:"confidence"`
	LowConfidence bool    `json:"low_confidence,omitempty"`
	// Reason says in one sentence what was seen, with the figures.
	Reason   string   `json:"reason"`
	Evidence Evidence `json:"evidence"`
}

// Outcome is what a stroke did, counted from the physical events.
type Outcome struct {
	// White and Black count the men pocketed; Queen and Striker whether
	// the queen and the striker were.
	White   int  `json:"white"`
	Black   int  `json:"black"`
	Queen   bool `json:"queen"`
	Striker bool `json:"striker"`
	// Overboard counts the pieces that left the board, by kind.
	Overboard Overboard `json:"overboard"`
	// NoBreak marks a failed break attempt: the striker touched no piece.
	NoBreak bool `json:"no_break,omitempty"`
	// Pocketed and Jumped list the pieces (identity, kind, pocket, frame).
	Pocketed []PieceEvent `json:"pocketed,omitempty"`
	Jumped   []PieceEvent `json:"jumped,omitempty"`
	// StrikerMM is where the striker stood; Placement its reading.
	StrikerMM events.MM `json:"striker_mm"`
	Placement string    `json:"placement"`
	// Contacts is the number of contacts in the stroke; FirstContact what
	// the striker touched first ("" for nothing, "frame" for a cushion).
	Contacts     int    `json:"contacts"`
	FirstContact string `json:"first_contact,omitempty"`
	// CrossedFrontLine: the striker crossed its front base line.
	CrossedFrontLine bool `json:"crossed_front_line"`
}

// Overboard counts pieces off the board by kind.
type Overboard struct {
	White   int `json:"white,omitempty"`
	Black   int `json:"black,omitempty"`
	Queen   int `json:"queen,omitempty"`
	Striker int `json:"striker,omitempty"`
}

func (o Overboard) array() [4]int {
	return [4]int{board.White: o.White, board.Black: o.Black, board.Queen: o.Queen, board.Striker: o.Striker}
}

func (o *Overboard) add(k board.Kind) {
	switch k {
	case board.White:
		o.White++
	case board.Black:
		o.Black++
	case board.Queen:
		o.Queen++
	case board.Striker:
		o.Striker++
	}
}

// PieceEvent is one piece pocketed or jumped.
type PieceEvent struct {
	ID     string        `json:"id,omitempty"`
	Piece  board.Kind    `json:"piece"`
	Pocket *board.Pocket `json:"pocket,omitempty"`
	MM     *events.MM    `json:"mm,omitempty"`
	Frame  int           `json:"frame"`
	T      float64       `json:"t"`
}

// Placing is what a placement put back on the board.
type Placing struct {
	White int    `json:"white,omitempty"`
	Black int    `json:"black,omitempty"`
	Queen bool   `json:"queen,omitempty"`
	ID    string `json:"id,omitempty"`
	// MM is where the piece was put.
	MM events.MM `json:"mm"`
}

// Decision is what the referee decides from the physical events: a rules
// event to apply and the calls that justify it. It is self-contained and
// marshals to JSON; the event is rebuilt from its fields ([Decision.Event])
// so that the umpire's confirmations and overrulings change it.
type Decision struct {
	Kind Kind `json:"kind"`
	// Board is the number of the board in play (from the match context).
	Board int `json:"board"`
	// Seat is the striker (stroke), the placer of the men (place; for the
	// queen, whom the umpire puts back, the seat to strike next), the
	// offender (foul) or the seat to strike next (info).
	Seat board.Side `json:"seat"`
	// Frame and T are those of the event that completed the decision
	// (stroke_end, placed, moved); StartFrame and StartT of stroke_start.
	Frame      int     `json:"frame"`
	T          float64 `json:"t"`
	StartFrame int     `json:"start_frame,omitempty"`
	StartT     float64 `json:"start_t,omitempty"`
	// Stroke is set for KindStroke, Place for KindPlace.
	Stroke *Outcome `json:"stroke,omitempty"`
	Place  *Placing `json:"place,omitempty"`
	Calls  []Call   `json:"calls,omitempty"`
	// Notes say in words what else the referee noticed (close calls not
	// made, hidden pieces, a stroke out of turn …).
	Notes []string `json:"notes,omitempty"`
	// Log is the event in stroke-log notation ("" for none), as built when
	// the decision was made or last changed.
	Log string `json:"log,omitempty"`
	// Doubts say what the camera could not establish (see doubt.go): a
	// decision with doubts is the referee's best guess, for the umpire to
	// confirm or correct; it is never applied by the camera alone.
	Doubts []events.Doubt `json:"doubts,omitempty"`
	// Folds, when set, is the Frame of an earlier stroke decision, held
	// for the umpire, that this one replaces: a later stroke whose start
	// was not seen, which can be the same stroke, folded into it (its
	// doubts and notes and those of the later one, one best guess; see
	// fold.go). Whoever holds the earlier decision puts this one in its
	// place: the umpire answers one question, not two.
	Folds *int `json:"folds,omitempty"`
}

// fouls lists the fouls written in the event.
func (d *Decision) fouls() []rules.Foul {
	var out []rules.Foul
	seen := map[rules.Foul]bool{}
	for _, c := range d.Calls {
		if c.Status.inEvent() && !seen[c.Foul] {
			seen[c.Foul] = true
			out = append(out, c.Foul)
		}
	}
	return out
}

// Event returns the rules event to apply: a rules.Stroke, rules.Place or
// rules.FoulCall with the fouls applied or confirmed. It is nil for an
// info decision and for a foul decision whose calls are all offered or
// overruled.
func (d *Decision) Event() rules.Event {
	switch d.Kind {
	case KindStroke:
		if d.Stroke == nil {
			return nil
		}
		o := d.Stroke
		return rules.Stroke{Seat: d.Seat, White: o.White, Black: o.Black, Queen: o.Queen, Striker: o.Striker,
			Overboard: o.Overboard.array(), Fouls: d.fouls(), NoBreak: o.NoBreak}
	case KindPlace:
		if d.Place == nil {
			return nil
		}
		return rules.Place{White: d.Place.White, Black: d.Place.Black, Queen: d.Place.Queen, Fouls: d.fouls()}
	case KindFoul:
		if fs := d.fouls(); len(fs) > 0 {
			return rules.FoulCall{Seat: d.Seat, Fouls: fs}
		}
	}
	return nil
}

// refresh rebuilds Log from the event.
func (d *Decision) refresh() {
	if e := d.Event(); e != nil {
		d.Log = rules.FormatEvent(e)
	} else {
		d.Log = ""
	}
}

// Confidence is the lowest confidence of the calls that count (applied,
// confirmed or offered); 1 when there are none.
func (d *Decision) Confidence() float64 {
	c := 1.0
	for _, k := range d.Calls {
		if k.Status == Applied || k.Status == Offered || k.Status == Derived {
			c = math.Min(c, k.Confidence)
		}
	}
	return c
}

// Pending reports whether some call waits for the umpire (offered).
func (d *Decision) Pending() bool {
	for _, c := range d.Calls {
		if c.Status == Offered {
			return true
		}
	}
	return false
}

func (d *Decision) call(f rules.Foul) (*Call, error) {
	for i := range d.Calls {
		if d.Calls[i].Foul == f {
			return &d.Calls[i], nil
		}
	}
	return nil, fmt.Errorf("referee: the %s decision has no %s call", d.Kind, f)
}

// Confirm records the umpire confirming the call of foul f: it is written
// into the event.
func (d *Decision) Confirm(f rules.Foul) error {
	c, err := d.call(f)
	if err != nil {
		return err
	}
	if c.Status == Derived {
		return fmt.Errorf("referee: %s is derived by the rules engine from the pieces; nothing to confirm", f)
	}
	c.Status = Confirmed
	d.refresh()
	return nil
}

// Overrule records the umpire rejecting the call of foul f: it is taken
// out of the event.
func (d *Decision) Overrule(f rules.Foul) error {
	c, err := d.call(f)
	if err != nil {
		return err
	}
	if c.Status == Derived {
		return fmt.Errorf("referee: %s follows from the pieces pocketed or overboard; correct the stroke instead", f)
	}
	c.Status = Overruled
	d.refresh()
	return nil
}

// AddUmpireFoul adds a foul the umpire declares against the decision's seat
// (for a stroke: push, thumbing and the like, which no camera can judge).
func (d *Decision) AddUmpireFoul(p *rules.Profile, f rules.Foul, reason string) error {
	if d.Kind != KindStroke && d.Kind != KindFoul && d.Kind != KindPlace {
		return fmt.Errorf("referee: cannot add a foul to a %s decision", d.Kind)
	}
	r, ok := p.Foul(f)
	if !ok {
		return fmt.Errorf("referee: profile %s does not recognise the foul %q", p.Name, f)
	}
	if r.Derived {
		return fmt.Errorf("referee: %s is derived by the rules engine from the pieces; it cannot be declared", f)
	}
	if c, err := d.call(f); err == nil {
		c.Status, c.Source = Confirmed, SourceUmpire
		d.refresh()
		return nil
	}
	d.Calls = append(d.Calls, Call{Foul: f, Seat: d.Seat, Rule: r.Ref, Summary: f.Summary(), Effect: r.Effect.String(),
		Status: Confirmed, Source: SourceUmpire, Frame: d.Frame, T: d.T, Confidence: 1, Reason: reason})
	d.refresh()
	return nil
}
