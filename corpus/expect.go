package corpus

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/foul"
	"github.com/boardcam/boardcam/rules"
)

// Expect is the expect: section of a clip spec: what the clip must show.
// `boardcam synth` checks it against the simulated truth, so that a clip
// cannot silently drift from its purpose when the simulator changes.
//
// Lists are exact: a clip whose spec leaves out fouls: must have no foul,
// one without pocketed: must pocket nothing.
type Expect struct {
	// Covers names what the clip is in the corpus for (see [Tags]); each
	// tag that can be checked is checked against the truth.
	Covers []string `json:"covers"`
	// Fouls are the fouls the referee calls on the truth events, as
	// "code" or "code@SEAT", in order.
	Fouls []string `json:"fouls,omitempty"`
	// Pocketed lists the pieces pocketed, as "ID@POCKET", in order.
	Pocketed []string `json:"pocketed,omitempty"`
	// Overboard lists the pieces that left the board other than by a pocket.
	Overboard []string `json:"overboard,omitempty"`
	// Placed lists the pieces a hand put on the board, in order.
	Placed []string `json:"placed,omitempty"`
	// Moved lists the pieces a finger pushed outside a stroke.
	Moved []string `json:"moved,omitempty"`
	// Strokes is the number of strokes, each "SIDE" of the striker, in order.
	Strokes []string `json:"strokes,omitempty"`
	// Hidden lists discs that a hand must hide (at least half of the disc)
	// in at least one frame, as the camera sees it.
	Hidden []string `json:"hidden,omitempty"`
	// Profile is the rule profile the referee judges by (default icf).
	Profile string `json:"profile"`
	// Context is the match context the referee judges in.
	Context Context `json:"context"`
	// MaxSeconds bounds the clip's length (default [MaxSeconds]).
	MaxSeconds float64 `json:"max_seconds"`
}

// Context is the state of the match the clip's events are refereed in.
//
// Mode "match" plays a fresh match under the rules engine from the first
// event (only for clips that start a board from the opening arrangement):
// the referee sees the state as the engine keeps it, and the truth records
// the final state (the score a daemon must reach on the clip). Mode
// "mid_board" plays a match from the position of a board under way (a
// stroke log's position line, as an umpire who switches boardcam on in the
// middle of a board writes it): singles (or doubles) seated as the
// scenario says, the breaker's side playing white, the men on the board
// counted from the arrangement, the queen on the board when it lies there,
// ten strokes played; the other fields override that position. Mode
// "resume" continues the match of a stroke log
// (Log, a file beside the spec): the log's header seats the players, the
// clip starts where the log ends (the log's men on the board, the queen
// and the turn must be the arrangement's and the first strike's), the
// referee sees the state as the engine keeps it, and the truth records the
// final state, as in mode match; a daemon reaches it with `boardcam run
// --resume LOG`.
type Context struct {
	Mode string `json:"mode"`
	// Log is the stroke log of mode resume, relative to the spec.
	Log string `json:"log,omitempty"`
	// Turn is the seat to strike (default: the side of the first strike,
	// else the breaker).
	Turn *board.Side `json:"turn,omitempty"`
	// Queen is the queen's status (rules.QueenStatus) and QueenTeam the
	// team concerned.
	Queen     string `json:"queen,omitempty"`
	QueenTeam int    `json:"queen_team,omitempty"`
	// AwaitingWhite and AwaitingBlack are men taken out as dues, to be
	// placed by Placer.
	AwaitingWhite int    `json:"awaiting_white,omitempty"`
	AwaitingBlack int    `json:"awaiting_black,omitempty"`
	Placer        string `json:"placer,omitempty"`
}

// Context modes.
const (
	ModeMatch    = "match"
	ModeMidBoard = "mid_board"
	ModeResume   = "resume"
)

// Tags are the situations a corpus clip can cover (expect.covers), with
// what each means. The corpus as a whole must cover every one
// ([MissingTags]).
var Tags = map[string]string{
	"break":                 "the break from the opening arrangement",
	"single_pocket":         "one piece pocketed in a stroke",
	"multiple_pockets":      "two or more pieces pocketed in one stroke",
	"striker_pocketed":      "the striker pocketed",
	"queen_covered":         "the queen pocketed and covered",
	"queen_not_covered":     "the queen pocketed and not covered",
	"queen_returned":        "the queen put back on the board",
	"overboard":             "a piece leaves the board over the frame",
	"cluster":               "clusters of touching pieces",
	"placement_both_lines":  "the striker touching both base lines (proper)",
	"placement_one_line":    "the striker touching one base line only (foul)",
	"placement_base_circle": "the striker covering a base circle (proper)",
	"placement_cut_moon":    "the striker cutting the moon (foul)",
	"placement_arrow":       "the striker touching an arrow (foul)",
	"hand_over_pocket":      "a hand resting over a pocket",
	"dues_placed":           "due men placed",
	"camera_knock":          "the camera knocked mid-clip",
	"lights_dimmed":         "the lights dimmed",
	"side_S":                "a strike from side S",
	"side_E":                "a strike from side E",
	"side_N":                "a strike from side N",
	"side_W":                "a strike from side W",
	"doubles":               "a doubles game (four players)",
	"arm_over_foul_line":    "the arm over the foul line",
	"touched_piece":         "a piece moved by hand outside a stroke",
	"home_board":            "a plain home board (no ICF markings)",
	"home_set":              "a home set: natural-wood whites, a pink queen, an oversized striker of another colour, on worn markings under uneven light",
	"drawn_lines":           "a board whose lines are drawn off the rule book's figures, thick and thin, with red base-circle cores the size of a man (judged by the lines as drawn)",
	"res_1080p":             "1920×1080",
	"fps_60":                "60 frames per second",
	"fps_120":               "120 frames per second",
	"long_exposure":         "an exposure of a whole frame's time (moving discs are faint streaks)",
	"small_board":           "the board small in the picture (1.5 to 2 mm per pixel)",
	"glare":                 "strong glare on the lacquer",
	"striker_colour":        "a striker of a colour other than white or ivory",
	"no_hand":               "a strike with no hand in view: the hand leaves the picture before the flick",
	"plain_print":           "no queen on a board whose centre circle is a plain red disc of the queen's size (no star) and whose base circles are bare red discs",
	"small_striker":         "a striker smaller than the standard 41.5 mm (38 to 40 mm)",
	"striker_by_frame":      "a white or ivory striker (its printed rings stronger than its rim on a light board) at rest between a base line and the frame",
	"queen_off_plain_print": "the queen pocketed from a plain red centre circle of her size (no star), uncovering it",
	"demo":                  "the demo clip: several strokes, pockets, a foul, a queen cover",
}

// The fouls' own tags (foul.Truth): a clip covering one has the referee
// call the foul on its truth; the corpus must cover those the description
// requires.
func init() {
	for _, d := range foul.All() {
		c := d.Camera
		if c == nil || c.Truth.Tag == "" {
			continue
		}
		Tags[c.Truth.Tag] = "the foul " + string(d.Code) + ": " + d.Summary
		tagChecks[c.Truth.Tag] = foulTag(string(d.Code))
		if c.Truth.Required {
			RequiredTags = append(RequiredTags, c.Truth.Tag)
		}
	}
}

// RequiredTags are the situations the issue asks the corpus to cover.
var RequiredTags = []string{"break", "single_pocket", "multiple_pockets", "striker_pocketed", "queen_covered",
	"queen_not_covered", "overboard", "cluster", "placement_both_lines", "placement_one_line",
	"placement_base_circle", "placement_cut_moon", "placement_arrow", "hand_over_pocket", "dues_placed", "queen_returned", "camera_knock", "lights_dimmed",
	"side_S", "side_E", "side_N", "side_W", "doubles", "home_board", "home_set", "drawn_lines", "res_1080p", "fps_60", "fps_120",
	"long_exposure", "small_board", "glare", "striker_colour", "no_hand", "plain_print", "small_striker", "striker_by_frame",
	"queen_off_plain_print"}

// MissingTags returns the required tags no spec covers.
func MissingTags(specs []*Spec) []string {
	have := map[string]bool{}
	for _, s := range specs {
		for _, t := range s.Expect.Covers {
			have[t] = true
		}
	}
	var out []string
	for _, t := range RequiredTags {
		if !have[t] {
			out = append(out, t)
		}
	}
	return out
}

func parseExpect(n *yaml.Node, file string) (Expect, error) {
	e := Expect{Profile: "icf", MaxSeconds: MaxSeconds}
	errf := func(n *yaml.Node, field, format string, a ...any) error {
		return fmt.Errorf("%s:%d:%d: expect.%s: %s", file, n.Line, n.Column, field, fmt.Sprintf(format, a...))
	}
	if n.Kind != yaml.MappingNode {
		return e, errf(n, "", "want a mapping")
	}
	strs := func(v *yaml.Node, field string) ([]string, error) {
		if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
			return nil, nil
		}
		if v.Kind != yaml.SequenceNode {
			return nil, errf(v, field, "want a list")
		}
		var out []string
		for _, it := range v.Content {
			if it.Kind != yaml.ScalarNode {
				return nil, errf(it, field, "want a list of words")
			}
			out = append(out, strings.TrimSpace(it.Value))
		}
		return out, nil
	}
	ids := func(v *yaml.Node, field string) ([]string, error) {
		l, err := strs(v, field)
		if err != nil {
			return nil, err
		}
		for i, id := range l {
			if _, err := board.KindOfID(id); err != nil {
				return nil, errf(v.Content[i], field, "%v", err)
			}
		}
		return l, nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		var err error
		switch k.Value {
		case "covers":
			if e.Covers, err = strs(v, "covers"); err != nil {
				return e, err
			}
			for j, t := range e.Covers {
				if _, ok := Tags[t]; !ok {
					return e, errf(v.Content[j], "covers", "unknown tag %q (known: %s)", t, strings.Join(sortedTags(), ", "))
				}
			}
		case "fouls":
			if e.Fouls, err = strs(v, "fouls"); err != nil {
				return e, err
			}
			for j, f := range e.Fouls {
				code, seat, _ := strings.Cut(f, "@")
				if !rules.Foul(code).Known() {
					return e, errf(v.Content[j], "fouls", "unknown foul %q", code)
				}
				if seat != "" {
					if _, err := board.ParseSide(seat); err != nil {
						return e, errf(v.Content[j], "fouls", "%v", err)
					}
				}
			}
		case "pocketed":
			if e.Pocketed, err = strs(v, "pocketed"); err != nil {
				return e, err
			}
			for j, p := range e.Pocketed {
				id, pk, ok := strings.Cut(p, "@")
				if _, err := board.KindOfID(id); err != nil {
					return e, errf(v.Content[j], "pocketed", "%v", err)
				}
				if !ok {
					return e, errf(v.Content[j], "pocketed", "want ID@POCKET, e.g. W3@NE, got %q", p)
				}
				if _, err := board.ParsePocket(pk); err != nil {
					return e, errf(v.Content[j], "pocketed", "%v", err)
				}
			}
		case "overboard":
			if e.Overboard, err = ids(v, "overboard"); err != nil {
				return e, err
			}
		case "placed":
			if e.Placed, err = ids(v, "placed"); err != nil {
				return e, err
			}
		case "moved":
			if e.Moved, err = ids(v, "moved"); err != nil {
				return e, err
			}
		case "hidden":
			if e.Hidden, err = ids(v, "hidden"); err != nil {
				return e, err
			}
		case "strokes":
			if e.Strokes, err = strs(v, "strokes"); err != nil {
				return e, err
			}
			for j, s := range e.Strokes {
				if _, err := board.ParseSide(s); err != nil {
					return e, errf(v.Content[j], "strokes", "%v", err)
				}
			}
		case "profile":
			if _, err := rules.ProfileByName(v.Value); err != nil {
				return e, errf(v, "profile", "%v", err)
			}
			e.Profile = v.Value
		case "max_seconds":
			f, err := strconv.ParseFloat(v.Value, 64)
			if err != nil || f <= 0 || f > 120 {
				return e, errf(v, "max_seconds", "want seconds between 0 and 120, got %q", v.Value)
			}
			e.MaxSeconds = f
		case "context":
			if e.Context, err = parseContext(v, errf); err != nil {
				return e, err
			}
		default:
			return e, errf(k, k.Value, "unknown field (known: covers, fouls, pocketed, overboard, placed, moved, hidden, strokes, profile, max_seconds, context)")
		}
	}
	return e, nil
}

func parseContext(n *yaml.Node, errf func(*yaml.Node, string, string, ...any) error) (Context, error) {
	var c Context
	if n.Kind != yaml.MappingNode {
		return c, errf(n, "context", "want a mapping")
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		f := "context." + k.Value
		switch k.Value {
		case "mode":
			if v.Value != ModeMatch && v.Value != ModeMidBoard && v.Value != ModeResume {
				return c, errf(v, f, "want match, mid_board or resume, got %q", v.Value)
			}
			c.Mode = v.Value
		case "log":
			if v.Kind != yaml.ScalarNode || v.Value == "" {
				return c, errf(v, f, "want a stroke log file")
			}
			c.Log = v.Value
		case "turn":
			s, err := board.ParseSide(v.Value)
			if err != nil {
				return c, errf(v, f, "%v", err)
			}
			c.Turn = &s
		case "queen":
			switch rules.QueenStatus(v.Value) {
			case rules.QueenOnBoard, rules.QueenAwaitingCover, rules.QueenAwaitingPlacement, rules.QueenCovered:
			default:
				return c, errf(v, f, "want on_board, awaiting_cover, awaiting_placement or covered, got %q", v.Value)
			}
			c.Queen = v.Value
		case "queen_team", "awaiting_white", "awaiting_black":
			x, err := strconv.Atoi(v.Value)
			if err != nil || x < 0 || x > 9 {
				return c, errf(v, f, "want a small whole number, got %q", v.Value)
			}
			switch k.Value {
			case "queen_team":
				if x > 1 {
					return c, errf(v, f, "want team 0 or 1, got %d", x)
				}
				c.QueenTeam = x
			case "awaiting_white":
				c.AwaitingWhite = x
			default:
				c.AwaitingBlack = x
			}
		case "placer":
			if _, err := board.ParseSide(v.Value); err != nil {
				return c, errf(v, f, "%v", err)
			}
			c.Placer = v.Value
		default:
			return c, errf(k, f, "unknown field (known: mode, log, turn, queen, queen_team, awaiting_white, awaiting_black, placer)")
		}
	}
	if (c.Mode == ModeResume) != (c.Log != "") {
		return c, errf(n, "context", "mode resume needs a log, and only mode resume takes one")
	}
	return c, nil
}

func sortedTags() []string {
	out := make([]string, 0, len(Tags))
	for t := range Tags {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// summary lists what happened in a trace in the words of expect:.
type summary struct {
	Fouls, Pocketed, Overboard, Placed, Moved, Strokes []string
}

func summarize(evs []events.Event, fouls []Foul) summary {
	var s summary
	for _, f := range fouls {
		s.Fouls = append(s.Fouls, string(f.Foul)+"@"+f.Seat.String())
	}
	for _, e := range evs {
		switch e.Type {
		case events.Pocketed:
			s.Pocketed = append(s.Pocketed, e.ID+"@"+e.Pocket.String())
		case events.Overboard:
			s.Overboard = append(s.Overboard, e.ID)
		case events.Placed:
			s.Placed = append(s.Placed, e.ID)
		case events.Moved:
			s.Moved = append(s.Moved, e.ID)
		case events.StrokeStart:
			s.Strokes = append(s.Strokes, e.Side.String())
		}
	}
	return s
}

// check compares what happened with what the spec expects; each mismatch
// is one line.
func (e Expect) check(s summary) []string {
	var out []string
	cmp := func(field string, want, got []string, match func(w, g string) bool) {
		ok := len(want) == len(got)
		for i := 0; ok && i < len(want); i++ {
			ok = match(want[i], got[i])
		}
		if !ok {
			out = append(out, fmt.Sprintf("expect.%s: want [%s], the truth has [%s]", field, strings.Join(want, ", "), strings.Join(got, ", ")))
		}
	}
	eq := func(w, g string) bool { return w == g }
	cmp("fouls", e.Fouls, s.Fouls, func(w, g string) bool {
		if strings.Contains(w, "@") {
			return strings.EqualFold(w, g)
		}
		code, _, _ := strings.Cut(g, "@")
		return w == code
	})
	cmp("pocketed", e.Pocketed, s.Pocketed, func(w, g string) bool { return strings.EqualFold(w, g) })
	cmp("overboard", e.Overboard, s.Overboard, eq)
	cmp("placed", e.Placed, s.Placed, eq)
	cmp("moved", e.Moved, s.Moved, eq)
	if e.Strokes != nil {
		cmp("strokes", e.Strokes, s.Strokes, func(w, g string) bool { return strings.EqualFold(w, g) })
	}
	return out
}
