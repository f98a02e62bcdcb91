package foul

import "github.com/boardcam/boardcam/events"

// The codes of the fouls described in this file. A foul added later gets
// its own file: its code, its description (registered in init) and its
// tests.
const (
	// Striking fouls.
	Placement        Code = "placement"
	CutMoon          Code = "cut_moon"
	Arrow            Code = "arrow"
	WrongSide        Code = "wrong_side"
	BackwardFlick    Code = "backward_flick"
	BehindLineFirst  Code = "behind_line_first"
	NoContact        Code = "no_contact"
	RedCircleCoin    Code = "red_circle_coin"
	OpponentCoinOnly Code = "opponent_coin_only"
	LastTwoDirectHit Code = "last_two_direct_hit"
	Thumbing         Code = "thumbing"
	Push             Code = "push"
	TouchedPiece     Code = "touched_piece"
	HandOverFoulLine Code = "hand_over_foul_line"
	StoppedStriker   Code = "stopped_striker"

	// Outcome fouls, derived by the engine.
	StrikerOverboard   Code = "striker_overboard"
	PieceOverboard     Code = "piece_overboard"
	StrikerPocketed    Code = "striker_pocketed"
	OpponentPocketed   Code = "opponent_pocketed"
	OpponentFinalPiece Code = "opponent_final_piece"
	FinalPieceEarly    Code = "final_piece_early"
	BreakFailed        Code = "break_failed"

	// Placing fouls.
	DueOutsideOuterCircle Code = "due_outside_outer_circle"
	DueOnCentreCircle     Code = "due_on_centre_circle"
	WrongManPlaced        Code = "wrong_man_placed"
	PlacementDisturbed    Code = "placement_disturbed"
	PlacementTimeout      Code = "placement_timeout"
	DueUsedForQueen       Code = "due_used_for_queen"

	// Conduct fouls.
	Talking         Code = "talking"
	Powder          Code = "powder"
	TappedBoard     Code = "tapped_board"
	BoardDisturbed  Code = "board_disturbed"
	GotUp           Code = "got_up"
	AppealViolation Code = "appeal_violation"
)

// Profile names, as the references name them.
const (
	team3Board = "team-3board"
	nitDelhi   = "nit-delhi"
	jamshedpur = "jamshedpur"
	fourBreak  = "four-break"
)

// What the camera sees, as short lists.
var (
	atStrike   = []events.Type{events.StrokeStart}
	contacts   = []events.Type{events.StrokeStart, events.Contact}
	flight     = []events.Type{events.StrokeStart, events.FrontLineCrossed, events.Contact, events.StrokeEnd}
	pockets    = []events.Type{events.Pocketed}
	overboards = []events.Type{events.Overboard}
	placing    = []events.Type{events.Placed}
)

// camera is a description's camera part.
func camera(sees []events.Type, on Basis, how string) *Camera {
	return &Camera{Sees: sees, RestsOn: on, Truth: Truth{How: how}}
}

// tagged is a camera part whose corpus tag checks that the referee calls
// the foul on a clip's truth.
func tagged(c *Camera, tag string, required bool) *Camera {
	c.Truth.Tag, c.Truth.Required = tag, required
	return c
}

func init() {
	for _, d := range []Desc{
		{Code: Placement, Summary: "striker not touching both base lines nor covering a base circle", Heading: "'s striker was not placed within the base lines",
			Refs:   map[string]string{ICFProfile: "Striking 1; General Rules 29", team3Board: "General Rules 3", nitDelhi: "Striking 2; Fouls 6", jamshedpur: "Striking 2; Fouls 4", fourBreak: ICF},
			Camera: camera(atStrike, StrikerPlace, "a strike whose striker stands on one base line only, or off them (corpus: placement-one-line)")},
		{Code: CutMoon, Summary: "striker partly on a base circle (cutting the moon)", Heading: "'s striker cut the base circle",
			Refs:   map[string]string{ICFProfile: "Striking 2", team3Board: "General Rules 4", nitDelhi: "Striking 3; Fouls 6", jamshedpur: ICF, fourBreak: ICF},
			Camera: camera(atStrike, StrikerPlace, "a strike from partly on a base circle (corpus: placement-cut-moon)")},
		{Code: Arrow, Summary: "striker on a base circle touching the arrow", Heading: "'s striker touched the arrow", Fallback: true,
			Refs:   map[string]string{ICFProfile: "General Rules 30"},
			Camera: camera(atStrike, StrikerPlace, "a strike from a base circle touching the arrow (corpus: placement-arrow)")},
		{Code: WrongSide, Summary: "striker placed on another side's base line", Heading: " struck from the wrong side",
			Refs:   map[string]string{ICFProfile: "Equipment (base lines); Striking", team3Board: ICF, nitDelhi: "Striking 1; Fouls 6", jamshedpur: "Striking 1; Fouls 4", fourBreak: ICF},
			Camera: camera(atStrike, StrikerPlace, "a strike from another side's base line")},
		{Code: BackwardFlick, Summary: "striker did not cross the front base line", Heading: " flicked backwards",
			Refs:   map[string]string{ICFProfile: "Striking 3", team3Board: "General Rules 6", nitDelhi: "Striking 4; Fouls 6", jamshedpur: "Striking 3; Fouls 4", fourBreak: ICF},
			Camera: tagged(camera(flight, StrikerPlace|StrikerContacts|StrikerRest|StrokeRest, "a strike aimed backwards or sideways"), "backward_flick", true)},
		{Code: BehindLineFirst, Summary: "piece on or behind the front line struck before the striker crossed it", Heading: " hit a piece behind the front line first",
			Refs:   map[string]string{ICFProfile: "Striking 4", team3Board: ICF, nitDelhi: "Striking 5; Fouls 6", jamshedpur: "Striking 4; Fouls 4", fourBreak: ICF},
			Camera: tagged(camera(flight, StrikerPlace|StrikerContacts|PiecePlaces, "a man on the base line area struck sideways"), "behind_line_first", true)},
		{Code: NoContact, Summary: "striker touched no coin and no wall", Heading: "'s striker touched no piece",
			Refs:   map[string]string{team3Board: "General Rules 7"},
			Camera: camera([]events.Type{events.StrokeStart, events.Contact, events.StrokeEnd}, StrokeRest, "a strike that stops short of every man and cushion")},
		{Code: RedCircleCoin, Summary: "coin touching the base circles and the line outside them was hit",
			Refs:   map[string]string{team3Board: "General Rules 9"},
			Camera: camera(contacts, StrikerContacts|PiecePlaces, "a strike at a man touching a base circle of the striker's side")},
		{Code: OpponentCoinOnly, Summary: "striker hit only an opponent's coin directly",
			Refs:   map[string]string{team3Board: "Additional Rules 5"},
			Camera: camera(contacts, StrikerContacts, "a strike whose striker hits an opponent's man and nothing of the player's")},
		{Code: LastTwoDirectHit, Summary: "with the queen and one coin left, that coin was hit directly",
			Refs:   map[string]string{team3Board: "Additional Rules 6, 7"},
			Camera: camera(contacts, StrikerContacts, "a strike hitting the last coin directly with the queen on the board")},
		{Code: Thumbing, Summary: "stroke with the thumb (backshot)", Heading: " struck with the thumb",
			Refs: map[string]string{team3Board: "General Rules 6"}},
		{Code: Push, Summary: "striker pushed instead of flicked", Heading: " pushed the striker",
			Refs: map[string]string{ICFProfile: "Interpretations (Push); Shooting Styles", team3Board: ICF, nitDelhi: "Striking 4 (flick with one finger); Fouls 6", jamshedpur: "Striking 3 (flick with one finger); Fouls 4", fourBreak: ICF}},
		{Code: TouchedPiece, Summary: "hand touched or moved a piece other than the striker", Heading: " touched a piece",
			Refs:   map[string]string{ICFProfile: "General Rules 34", team3Board: "Additional Rules 1, 2, 3", nitDelhi: "Fouls 7", jamshedpur: "Fouls 5", fourBreak: ICF},
			Camera: camera([]events.Type{events.Moved}, HandMove|PutPlace, "a finger nudging a resting man (corpus: nudge, tag touched_piece)")},
		{Code: HandOverFoulLine, Summary: "hand or arm over the diagonal foul lines", Heading: "'s %s crossed the foul line",
			Refs:   map[string]string{ICFProfile: "Striking 5, 6; Sitting Position 7", team3Board: ICF, nitDelhi: "Striking 6; Fouls 6", jamshedpur: "Striking 5; Fouls 4", fourBreak: ICF},
			Camera: camera([]events.Type{events.StrokeStart, events.ArmOverFoulLine}, HandPlace, "a strike whose hand reaches over the foul line (corpus: arm-foul, tag arm_over_foul_line)")},
		{Code: StoppedStriker, Summary: "striker stopped abruptly by hand",
			Refs:   map[string]string{team3Board: "Additional Rules 4"},
			Camera: camera([]events.Type{events.StrokeStart, events.Moved}, HandMove, "a hand stopping the striker in its flight")},

		{Code: StrikerOverboard, Class: Outcome, Summary: "striker left the board", Heading: "'s striker left the board",
			Refs:   map[string]string{team3Board: "Jump 2", nitDelhi: "Fouls 2", jamshedpur: "Fouls 2"},
			Camera: camera(overboards, 0, "a striker jumping the frame")},
		{Code: PieceOverboard, Class: Outcome, Summary: "a carromman or the queen left the board", Heading: " sent a piece off the board",
			Refs:   map[string]string{team3Board: "Jump 1", nitDelhi: "Fouls 2", jamshedpur: "Fouls 2"},
			Camera: camera(overboards, 0, "a man jumping the frame (corpus: jump-overboard)")},
		{Code: StrikerPocketed, Class: Outcome, Summary: "striker pocketed", Heading: " pocketed the striker",
			Refs:   map[string]string{nitDelhi: "Fouls 1", jamshedpur: "Fouls 1"},
			Camera: camera(pockets, 0, "a striker falling into a pocket (corpus: striker-pocketed)")},
		{Code: OpponentPocketed, Class: Outcome, Summary: "opponent's piece pocketed", Heading: " pocketed an opponent's man",
			Refs:   map[string]string{nitDelhi: "Fouls 3", jamshedpur: "Fouls 3"},
			Camera: camera(pockets, 0, "an opponent's man falling into a pocket")},
		{Code: OpponentFinalPiece, Class: Outcome, Summary: "opponent's final piece pocketed",
			Refs:   map[string]string{nitDelhi: "Fouls 4"},
			Camera: camera(pockets, 0, "the opponent's last man falling into a pocket")},
		{Code: FinalPieceEarly, Class: Outcome, Summary: "own final piece pocketed before the queen was covered",
			Refs:   map[string]string{nitDelhi: "Fouls 5"},
			Camera: camera(pockets, 0, "the player's last man falling into a pocket with the queen uncovered")},
		{Code: BreakFailed, Class: Outcome, Summary: "break not made in the allowed attempts", Heading: "'s break touched no piece",
			Refs:   map[string]string{nitDelhi: "Basic Rules 1; Fouls 8"},
			Camera: camera(contacts, 0, "three break strikes touching no man")},

		{Code: DueOutsideOuterCircle, Class: Placing, Summary: "due or penalty man placed outside the outer circle", Heading: "'s due man was placed outside the outer circle",
			Refs:   map[string]string{ICFProfile: "Dues and Penalties 20, 22", team3Board: "General Rules 5", nitDelhi: ICF, jamshedpur: "Fouls (\"anywhere within the main circle\"); Dues and Penalties 22 (ICF)", fourBreak: "Dues 1-3 (\"kept anywhere in the circle\")"},
			Camera: camera(placing, PutPlace, "a due man put down outside the outer circle")},
		{Code: DueOnCentreCircle, Class: Placing, Summary: "due or penalty man placed on the centre circle", Heading: "'s due man was placed on the centre circle", Fallback: true,
			Refs:   map[string]string{ICFProfile: "Dues and Penalties 29", fourBreak: "Dues 1-3 (\"except for the centermost red circle\")"},
			Camera: camera(placing, PutPlace, "a due man put down on the centre circle")},
		{Code: WrongManPlaced, Class: Placing, Summary: "placer put down a man of his own colour", Fallback: true,
			Refs:   map[string]string{ICFProfile: "Dues and Penalties 17"},
			Camera: camera(placing, PutPlace, "the placer putting down a man of his own colour")},
		{Code: PlacementDisturbed, Class: Placing, Summary: "placing moved other pieces", Heading: " disturbed the pieces while placing", Fallback: true,
			Refs:   map[string]string{ICFProfile: "Dues and Penalties 23"},
			Camera: camera([]events.Type{events.Placed, events.Moved}, PutPlace, "a due man put down pushing another")},
		{Code: PlacementTimeout, Class: Placing, Summary: "placing not completed in time", Fallback: true,
			Refs: map[string]string{ICFProfile: "Dues and Penalties 26, 27"}},
		{Code: DueUsedForQueen, Class: Placing, Summary: "due man placed to make a shot with the queen", Fallback: true,
			Refs: map[string]string{ICFProfile: "Covering the Queen 41", fourBreak: "Queen 25"}},

		{Code: Talking, Class: Conduct, Summary: "partners talked or signalled", Fallback: true,
			Refs: map[string]string{ICFProfile: "General Rules 31"}},
		{Code: Powder, Class: Conduct, Summary: "powder applied or removed against the rules", Fallback: true,
			Refs: map[string]string{ICFProfile: "General Rules 10-13"}},
		{Code: TappedBoard, Class: Conduct, Summary: "board hit, tapped or disturbed", Fallback: true,
			Refs: map[string]string{ICFProfile: "General Rules 23"}},
		{Code: BoardDisturbed, Class: Conduct, Summary: "board disturbed beyond rearrangement", Fallback: true,
			Refs: map[string]string{ICFProfile: "General Rules 24"}},
		{Code: GotUp, Class: Conduct, Summary: "player got up from the seat during the board", Fallback: true,
			Refs: map[string]string{ICFProfile: "Dues and Penalties 31"}},
		{Code: AppealViolation, Class: Conduct, Summary: "played on during an appeal", Fallback: true,
			Refs: map[string]string{ICFProfile: "General Rules 7, 8"}},
	} {
		Register(d)
	}
}
