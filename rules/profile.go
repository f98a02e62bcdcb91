package rules

import (
	"fmt"
	"strings"
	"time"

	"github.com/boardcam/boardcam/foul"
)

// Direction is the order of play around the board in doubles (in singles
// the two players simply alternate).
type Direction int

// The directions, as seen from above.
const (
	// Anticlockwise: the turn passes to the player on the right
	// (S → E → N → W, board.Side.Right).
	Anticlockwise Direction = iota
	// Clockwise: the turn passes to the player on the left.
	Clockwise
)

func (d Direction) String() string {
	if d == Clockwise {
		return "clockwise"
	}
	return "anticlockwise"
}

// DueTiming is when dues and penalties are taken out for placing.
type DueTiming int

// The timings.
const (
	// AfterStroke: as soon as men are available, after the stroke, even
	// during the same player's turn (ICF Dues and Penalties 10).
	AfterStroke DueTiming = iota
	// EndOfTurn: at the end of the player's turn (team-3board Additional
	// Rules 10; nit-delhi and jamshedpur "at the end of the turn"), or at
	// once when the owing side has no man left on the board.
	EndOfTurn
)

func (t DueTiming) String() string {
	if t == EndOfTurn {
		return "end of turn"
	}
	return "after the stroke"
}

// QueenRules selects the family of queen rules.
type QueenRules int

// The families.
const (
	// QueenICF: ICF Covering the Queen 1-18 (icf, four-break).
	QueenICF QueenRules = iota
	// QueenTeam: team-3board Queen 1-7 and Sink 2-3, with the ICF rules
	// where it is silent.
	QueenTeam
	// QueenTurn: nit-delhi and jamshedpur "Covering the Queen": a queen
	// pocketed before the player may cover it keeps the turn going and
	// returns at the end of the turn; fouls never cover.
	QueenTurn
)

// PenaltyScheme says how many men a stroke costs.
type PenaltyScheme int

// The schemes.
const (
	// PenaltyICF: one due for a pocketed striker plus one penalty for an
	// improper stroke (ICF Dues and Penalties 1, 2, 9).
	PenaltyICF PenaltyScheme = iota
	// PenaltyFines: one due for a pocketed striker plus one fine per foul,
	// per jumped piece and for a jumped striker; "fines can add up"
	// (team-3board Additional Rules 9).
	PenaltyFines
	// PenaltyPerFoulStroke: one penalty piece when the stroke has any foul,
	// the pocketed striker included (nit-delhi, jamshedpur "Fouls").
	PenaltyPerFoulStroke
)

// FormatKind is how a match is decided.
type FormatKind int

// The kinds.
const (
	// PointsTarget: the first team to reach Target points wins.
	PointsTarget FormatKind = iota
	// BoardsOrTarget: the first team to reach Target wins; otherwise the
	// most points after Boards boards, then the most boards won.
	BoardsOrTarget
	// BestOf: the first team to win a majority of Boards boards wins.
	BestOf
	// FixedBoards: the most points after Boards boards (or when time is
	// called), then the most boards won; if still level the next board
	// decides.
	FixedBoards
)

// Format is a match format.
type Format struct {
	Name   string
	Kind   FormatKind
	Target int // points to win (PointsTarget, BoardsOrTarget)
	Boards int // boards (BoardsOrTarget, BestOf, FixedBoards)
	// TimeLimit is the match time after which the umpire calls time (a
	// "time" line); zero when the format has none.
	TimeLimit time.Duration
	// Ref is where the format comes from.
	Ref string
}

// Summary describes the format in a few words.
func (f Format) Summary() string {
	switch f.Kind {
	case PointsTarget:
		return fmt.Sprintf("first to %d points", f.Target)
	case BoardsOrTarget:
		return fmt.Sprintf("%d boards: first to %d points, else most points, then most boards won", f.Boards, f.Target)
	case BestOf:
		return fmt.Sprintf("best of %d boards", f.Boards)
	case FixedBoards:
		s := fmt.Sprintf("%d boards, most points wins", f.Boards)
		if f.TimeLimit > 0 {
			s += fmt.Sprintf(" (or most points when %s is up)", fmtDuration(f.TimeLimit))
		}
		return s
	}
	return "?"
}

func fmtDuration(d time.Duration) string {
	if d%time.Hour == 0 {
		h := int(d / time.Hour)
		if h == 1 {
			return "1 hour"
		}
		return fmt.Sprintf("%d hours", h)
	}
	return d.String()
}

// QueenSituation is where the queen stands, as seen by the player making a
// board-ending stroke. Values combine as a set in [FinishRule].
type QueenSituation uint8

// The situations.
const (
	// QOnBoard: the queen is on the board and the stroke does not pocket it.
	QOnBoard QueenSituation = 1 << iota
	// QPocketed: the stroke pockets the queen.
	QPocketed
	// QCovering: the player pocketed the queen before; this is the covering
	// stroke.
	QCovering
	// QCoveredSelf: the queen is already covered by the player's side.
	QCoveredSelf
	// QCoveredOpp: the queen is already covered by the opponents.
	QCoveredOpp
)

// QAny matches every situation.
const QAny = QOnBoard | QPocketed | QCovering | QCoveredSelf | QCoveredOpp

func (q QueenSituation) String() string {
	var parts []string
	for _, n := range []struct {
		b QueenSituation
		s string
	}{{QOnBoard, "on board"}, {QPocketed, "pocketed by the stroke"}, {QCovering, "being covered"}, {QCoveredSelf, "covered by the striker's side"}, {QCoveredOpp, "covered by the opponents"}} {
		if q&n.b != 0 {
			parts = append(parts, n.s)
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, " or ")
}

// Tri is a yes/no/either condition.
type Tri int8

// The values.
const (
	Either Tri = iota
	Yes
	No
)

func (t Tri) match(b bool) bool { return t == Either || (t == Yes) == b }

// Award is what a board is worth to its winner.
type Award struct {
	// Men adds the loser's men lying on the board.
	Men bool
	// Queen adds the queen's value.
	Queen bool
	// QueenIfWinnerCovered adds the queen's value when the winner covered
	// it.
	QueenIfWinnerCovered bool
	// Points adds a fixed number.
	Points int
}

func (a Award) String() string {
	var parts []string
	if a.Men {
		parts = append(parts, "loser's men")
	}
	if a.Queen {
		parts = append(parts, "the queen's value")
	}
	if a.QueenIfWinnerCovered {
		parts = append(parts, "the queen's value if the winner covered it")
	}
	if a.Points != 0 || len(parts) == 0 {
		parts = append(parts, fmt.Sprint(a.Points))
	}
	return strings.Join(parts, " + ")
}

// FinishRule is one way a stroke ends a board other than by the plain
// finish (the striker's side clears its men with the queen covered and
// wins). The engine takes the first rule that matches the stroke.
type FinishRule struct {
	// Ref is the rule, e.g. "icf: Covering the Queen 23".
	Ref string
	// OwnLast and OppLast say which sides' last men the stroke pockets.
	OwnLast, OppLast bool
	Queen            QueenSituation
	Striker          Tri // striker pocketed
	Improper         Tri // the stroke is improper (has a foul)
	// StrikerWins is true when the player who made the stroke wins the
	// board; otherwise his opponents win.
	StrikerWins bool
	// Award applies while the winner's match score is below the profile's
	// queen cut-off, AtCutoff from then on.
	Award, AtCutoff Award
	// Demand is the number of additional points the winner may demand.
	Demand int
	// Analogy marks a case the document does not list, decided by analogy
	// with the rules named in Ref.
	Analogy bool
}

// Profile is one rule document as the engine plays it.
type Profile struct {
	// Name is the profile's identifier ("icf", "team-3board", …).
	Name string
	// Title names the document; Document is its file in the shared rules
	// folder.
	Title    string
	Document string
	// QueenValue is what covering the queen is worth; QueenCutoff is the
	// match score from which the queen earns nothing (and the fixed 5- or
	// 3-point awards shrink to 1).
	QueenValue  int
	QueenCutoff int
	// Formats lists the match formats; the first is the default.
	Formats []Format
	// Direction is the order of play in doubles. The break passes to the
	// next player in the same order at every board.
	Direction Direction
	// BreakAttempts is how many strokes a breaker may take to break;
	// BreakFailFoul makes a failed break a foul (nit-delhi).
	BreakAttempts int
	BreakFailFoul bool
	// DueTiming is when dues and penalties are taken out for placing.
	DueTiming DueTiming
	// DuePlacer says who places due and penalty men. The engine applies
	// one rule for every profile (ICF Dues and Penalties 11, 12): the next
	// player in the order of play when the side having the turn owes them,
	// otherwise the player having the turn — always an opponent of the side
	// that owes them.
	DuePlacer string
	// QueenByOpponent is true when the opponent, not the umpire, puts the
	// queen back.
	QueenByOpponent bool
	Penalty         PenaltyScheme
	QueenRules      QueenRules
	// StrikerPocketFoul: a pocketed striker is a foul (not a due).
	StrikerPocketFoul bool
	// StrikerJumpFoul, PieceJumpFoul: a striker or a piece leaving the board
	// is a foul (or a fine).
	StrikerJumpFoul, PieceJumpFoul bool
	// OpponentManFoul: pocketing an opponent's man is a foul.
	OpponentManFoul bool
	// OpponentManEndsTurn: pocketing an opponent's man ends the turn even
	// when the player's own men went in too.
	OpponentManEndsTurn bool
	// ReturnOwnOnFoul: own men pocketed by an improper stroke are taken out
	// again (ICF Dues 8); ReturnOwnWithStriker: own men pocketed with the
	// striker are taken out again (ICF Dues 4).
	ReturnOwnOnFoul, ReturnOwnWithStriker bool
	// FinalPieceFouls: pocketing the opponent's final piece, or one's own
	// before the queen is covered, is a foul that returns the piece
	// (nit-delhi).
	FinalPieceFouls bool
	// QueenStrikerAllNineLosesTurn: the queen pocketed with the striker
	// while all nine men are on the board loses the turn (ICF Covering the
	// Queen 7).
	QueenStrikerAllNineLosesTurn bool
	// Demands: some board endings give the winner "if demanded" points.
	Demands bool
	// FoulsCalledByPlayers: fouls count only when a player claims them
	// (team-3board Additional Rules 11); the referee should offer camera
	// fouls to the umpire instead of applying them.
	FoulsCalledByPlayers bool
	// Fouls lists the fouls the profile recognises.
	Fouls []FoulRule
	// Finish lists the special board endings, in the order they are tried.
	Finish []FinishRule
	// PlainFinish is the reference of the plain finish (clearing one's men
	// with the queen covered).
	PlainFinish string
	// Refs names the rules behind the engine's other decisions (turn,
	// dues, queen), keyed by a short name; see [Profile.Ref].
	Refs map[string]string
	// Notes records readings of ambiguous text and ICF fallbacks.
	Notes []string
}

// Ref returns the reference of the rule the engine applies for key (see
// the profile files), or the ICF reference marked as a fallback.
func (p *Profile) Ref(key string) string {
	if r, ok := p.Refs[key]; ok {
		return r
	}
	if p.Name != "icf" {
		if r, ok := icf.Refs[key]; ok {
			return r + " (fallback)"
		}
	}
	return p.Name + ": " + key
}

// Foul returns how the profile treats code.
func (p *Profile) Foul(code Foul) (FoulRule, bool) {
	for _, f := range p.Fouls {
		if f.Code == code {
			return f, true
		}
	}
	return FoulRule{}, false
}

// Recognises reports whether the profile knows the foul code.
func (p *Profile) Recognises(code Foul) bool { _, ok := p.Foul(code); return ok }

// FoulCodes lists the codes the profile recognises, in its order.
func (p *Profile) FoulCodes() []Foul {
	out := make([]Foul, len(p.Fouls))
	for i, f := range p.Fouls {
		out[i] = f.Code
	}
	return out
}

// CameraFouls lists the codes the camera can judge under this profile.
func (p *Profile) CameraFouls() []Foul {
	var out []Foul
	for _, f := range p.Fouls {
		if f.Camera {
			out = append(out, f.Code)
		}
	}
	return out
}

// Format returns the profile's format called name ("" for the default).
func (p *Profile) Format(name string) (Format, error) {
	if name == "" {
		return p.Formats[0], nil
	}
	names := make([]string, len(p.Formats))
	for i, f := range p.Formats {
		if f.Name == name {
			return f, nil
		}
		names[i] = f.Name
	}
	return Format{}, fmt.Errorf("profile %s has no format %q (want %s)", p.Name, name, strings.Join(names, " or "))
}

var registry = []*Profile{icf, team3Board, nitDelhi, jamshedpur, fourBreak}

// Profiles returns every profile, in a fixed order (icf, team-3board,
// nit-delhi, jamshedpur, four-break). The profiles are shared: do not
// modify them.
func Profiles() []*Profile { return append([]*Profile(nil), registry...) }

// ProfileNames lists the profile names.
func ProfileNames() []string {
	out := make([]string, len(registry))
	for i, p := range registry {
		out[i] = p.Name
	}
	return out
}

// ProfileByName returns the profile called name.
func ProfileByName(name string) (*Profile, error) {
	for _, p := range registry {
		if p.Name == name {
			return p, nil
		}
	}
	return nil, fmt.Errorf("unknown profile %q (want one of %s)", name, strings.Join(ProfileNames(), ", "))
}

// foulRules builds the foul table of the profile called name (document
// doc) from the foul descriptions (package foul): every foul whose
// description names the profile, or falls back on the ICF laws for every
// profile, under its reference in doc or, where doc is silent, the ICF
// laws' rule marked as a fallback. Effects other than improper go in fx.
func foulRules(name, doc string, fx map[Foul]FoulEffect) []FoulRule {
	var out []FoulRule
	for _, d := range foul.All() {
		ref, ok := d.Ref(name)
		if !ok {
			continue
		}
		fr := FoulRule{Code: d.Code, Camera: d.ByCamera(), Derived: d.Class == foul.Outcome, Effect: EffectImproper}
		if ref == foul.ICF {
			icf, ok := d.Refs[foul.ICFProfile]
			if !ok {
				panic("rules: no ICF rule to fall back on for " + string(d.Code))
			}
			fr.Fallback = true
			fr.Ref = icfDoc + ": " + icf + " (fallback: " + doc + " is silent)"
		} else {
			fr.Ref = doc + ": " + ref
		}
		if e, ok := fx[d.Code]; ok {
			fr.Effect = e
		}
		out = append(out, fr)
	}
	return out
}
