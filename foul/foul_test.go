package foul

import (
	"regexp"
	"strings"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
)

// Each description in its one-line notation (Desc.String): what the rest
// of boardcam reads of a foul, one line per foul.
var lines = []struct {
	code Code
	line string
}{
	{Placement, "placement striking: striker not touching both base lines nor covering a base circle | four-break ~; icf Striking 1; General Rules 29; jamshedpur Striking 2; Fouls 4; nit-delhi Striking 2; Fouls 6; team-3board General Rules 3 | camera sees stroke_start; rests on striker place"},
	{Arrow, "arrow striking: striker on a base circle touching the arrow | icf General Rules 30; others ~ | camera sees stroke_start; rests on striker place"},
	{BackwardFlick, "backward_flick striking: striker did not cross the front base line | four-break ~; icf Striking 3; jamshedpur Striking 3; Fouls 4; nit-delhi Striking 4; Fouls 6; team-3board General Rules 6 | camera sees stroke_start, front_line_crossed, contact, stroke_end; rests on striker place, striker contacts, striker rest, stroke rest; truth tag backward_flick"},
	{Thumbing, "thumbing striking: stroke with the thumb (backshot) | team-3board General Rules 6 | umpire"},
	{StrikerPocketed, "striker_pocketed outcome: striker pocketed | jamshedpur Fouls 1; nit-delhi Fouls 1 | camera sees pocketed; rests on nothing"},
	{DueOnCentreCircle, "due_on_centre_circle placing: due or penalty man placed on the centre circle | four-break Dues 1-3 (\"except for the centermost red circle\"); icf Dues and Penalties 29; others ~ | camera sees placed; rests on put place"},
	{GotUp, "got_up conduct: player got up from the seat during the board | icf Dues and Penalties 31; others ~ | umpire"},
}

func TestNotation(t *testing.T) {
	for _, c := range lines {
		d, ok := Lookup(c.code)
		if !ok {
			t.Errorf("%s is not described", c.code)
			continue
		}
		if got := d.String(); got != c.line {
			t.Errorf("%s:\n got %s\nwant %s", c.code, got, c.line)
		}
	}
}

var snake = regexp.MustCompile(`^[a-z]+(_[a-z]+)*$`)

// Invariants of the whole table: what every reader relies on.
func TestDescriptions(t *testing.T) {
	known := map[events.Type]bool{}
	for _, ty := range events.Types {
		known[ty] = true
	}
	tags := map[string]Code{}
	for _, d := range All() {
		if !snake.MatchString(string(d.Code)) {
			t.Errorf("%s: a code is snake_case", d.Code)
		}
		if len(d.Refs) == 0 && !d.Fallback {
			t.Errorf("%s: no profile recognises it", d.Code)
		}
		icf, hasICF := d.Refs[ICFProfile]
		if (d.Fallback || hasRef(d, ICF)) && (!hasICF || icf == ICF) {
			t.Errorf("%s: falls back on the ICF laws, which do not name it", d.Code)
		}
		if d.Class == Outcome && d.Camera == nil {
			t.Errorf("%s: an outcome foul is seen by the camera", d.Code)
		}
		if c := d.Camera; c != nil {
			if len(c.Sees) == 0 {
				t.Errorf("%s: the camera judges it without seeing anything", d.Code)
			}
			for _, ty := range c.Sees {
				if !known[ty] {
					t.Errorf("%s: sees unknown event type %q", d.Code, ty)
				}
			}
			if c.Truth.How == "" {
				t.Errorf("%s: does not say how the truth produces it", d.Code)
			}
			if c.Truth.Required && c.Truth.Tag == "" {
				t.Errorf("%s: a required truth without a corpus tag", d.Code)
			}
			if c.Truth.Tag != "" {
				if o, dup := tags[c.Truth.Tag]; dup {
					t.Errorf("%s and %s share the corpus tag %s", o, d.Code, c.Truth.Tag)
				}
				tags[c.Truth.Tag] = d.Code
			}
			if c.Score.Window < 0 {
				t.Errorf("%s: negative scoring window", d.Code)
			}
		}
		if h := d.Heading; h != "" && (!(strings.HasPrefix(h, "'s ") || strings.HasPrefix(h, " ")) || strings.Count(h, "%") > 1 || (strings.Contains(h, "%") && !strings.Contains(h, "%s"))) {
			t.Errorf("%s: heading %q does not follow a player's name (at most one %%s)", d.Code, h)
		}
		if !d.Code.Known() || d.Code.Summary() != d.Summary {
			t.Errorf("%s: lookup by code", d.Code)
		}
	}
	if Code("no_such_foul").Known() {
		t.Error("an undescribed code is known")
	}
}

func hasRef(d *Desc, ref string) bool {
	for _, r := range d.Refs {
		if r == ref {
			return true
		}
	}
	return false
}

func TestRef(t *testing.T) {
	d, _ := Lookup(Arrow)
	for _, c := range []struct {
		profile, ref string
		ok           bool
	}{{"icf", "General Rules 30", true}, {"team-3board", ICF, true}, {"any", ICF, true}} {
		if ref, ok := d.Ref(c.profile); ref != c.ref || ok != c.ok {
			t.Errorf("arrow in %s: %q %v", c.profile, ref, ok)
		}
	}
	d, _ = Lookup(NoContact)
	if _, ok := d.Ref("icf"); ok {
		t.Error("no_contact recognised by icf")
	}
}

func TestRestingOn(t *testing.T) {
	got := RestingOn(PiecePlaces)
	want := []Code{BehindLineFirst, AdjacentArrowCoin, RedCircleCoin}
	if len(got) != len(want) {
		t.Errorf("resting on piece places: %v", got)
	}
	for _, c := range want {
		if !got[c] {
			t.Errorf("%s does not rest on piece places", c)
		}
	}
}

// Every kind of doubt is described, in the order of events.DoubtKinds.
func TestDoubtDescs(t *testing.T) {
	if len(DoubtDescs) != len(events.DoubtKinds) {
		t.Fatalf("%d descriptions for %d kinds", len(DoubtDescs), len(events.DoubtKinds))
	}
	for i, d := range DoubtDescs {
		if d.Kind != events.DoubtKinds[i] || d.Summary == "" || d.RaisedBy == "" {
			t.Errorf("doubt %d: %+v", i, d)
		}
	}
	u := Unaccounted("W4", 512, 530, board.Vec{X: 120.4, Y: -33.6}, NotOnBoard)
	if err := u.Validate(); err != nil {
		t.Error(err)
	}
	if want := "W4 was last seen at frame 512 at (120, -34) mm and is not on the board, nor seen to leave it"; u.Reason != want || u.Frames != [2]int{512, 530} || len(u.IDs) != 1 || u.IDs[0] != "W4" {
		t.Errorf("unaccounted: %+v", u)
	}
	in := Inferred("the striker's place at the strike", events.Event{Frame: 40, SigmaMM: 6}, "S")
	if err := in.Validate(); err != nil || in.Reason != "the striker's place at the strike (frame 40) was inferred (±6 mm), not seen: the camera neither calls nor clears a foul on it" {
		t.Errorf("inferred: %+v %v", in, err)
	}
}
