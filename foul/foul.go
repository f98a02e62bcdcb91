package foul

import (
	"fmt"
	"sort"
	"strings"

	"github.com/boardcam/boardcam/events"
)

// Code is a stable snake_case code for a foul. Codes are part of the
// stroke-log notation (written "!code") and of the websocket protocol; they
// are never renamed. rules.Foul is this type.
type Code string

// Class is what kind of foul a code is.
type Class int

// The classes.
const (
	// Striking fouls make the stroke improper; the camera or the umpire
	// calls them.
	Striking Class = iota
	// Outcome fouls are derived by the rules engine from the stroke's
	// outcome (what was pocketed or left the board); they are never
	// written in a log.
	Outcome
	// Placing fouls are committed in placing due and penalty men.
	Placing
	// Conduct fouls are declared by the umpire with a "foul" line.
	Conduct
)

func (c Class) String() string {
	switch c {
	case Striking:
		return "striking"
	case Outcome:
		return "outcome"
	case Placing:
		return "placing"
	case Conduct:
		return "conduct"
	}
	return fmt.Sprintf("Class(%d)", int(c))
}

// ICF, as a profile's reference in [Desc.Refs], means the profile's
// document is silent and the ICF laws' rule (Refs[ICFProfile]) applies,
// marked as a fallback.
const ICF = "~"

// ICFProfile is the name of the profile of the ICF laws.
const ICFProfile = "icf"

// Desc describes one foul.
type Desc struct {
	Code    Code
	Class   Class
	Summary string
	// Heading says the foul after the player's name, for the umpire's
	// evidence card ("Asha" + "'s striker touched the arrow"); a %s in it
	// stands for the part of the body the evidence names ("hand",
	// "arm"). Empty: the card says the call's own words.
	Heading string
	// Refs maps a profile name to the rule of its document the foul comes
	// from ("General Rules 8"), or to [ICF] when the document is silent
	// and the ICF laws' rule applies. A profile not listed does not
	// recognise the foul, unless Fallback is set.
	Refs map[string]string
	// Fallback: every profile recognises the foul, under the ICF laws'
	// rule when its own document is silent (conduct, placing dues, the
	// arrow).
	Fallback bool
	// Camera, when set, says how the camera judges the foul; nil leaves
	// it to the umpire.
	Camera *Camera
}

// Camera is how the camera judges a foul.
type Camera struct {
	// Sees lists the physical events the camera must see for the call.
	Sees []events.Type
	// RestsOn lists the seen facts the call depends on: when the tracker
	// inferred one of them instead of measuring it, the call is only
	// offered to the umpire and the decision doubted.
	RestsOn Basis
	// Truth says how the ground truth produces the foul.
	Truth Truth
	// Score says how eval scores the foul.
	Score Score
}

// Truth is how the simulator's ground truth produces a foul: the referee
// judges the simulated (exact) events, and the corpus clip that covers
// the foul says so in its spec (expect.covers: Tag).
type Truth struct {
	// Tag is the corpus tag (expect.covers) of a clip whose truth holds
	// the foul ("" when no clip is tagged for it); the corpus checks that
	// a clip so tagged has the referee call the foul on its truth.
	Tag string
	// Required: the corpus must have a clip with Tag.
	Required bool
	// How says in a few words what the simulated scenario does.
	How string
}

// Score is how eval scores a foul: a call matches a true one of the same
// code and seat within Window.
type Score struct {
	// Window in seconds; 0 takes eval's foul window (--foul-window).
	Window float64
}

// Basis is a set of seen facts a call can rest on.
type Basis uint8

// The facts.
const (
	// StrikerPlace: where the striker stood at the strike.
	StrikerPlace Basis = 1 << iota
	// StrikerContacts: the striker's contacts.
	StrikerContacts
	// PiecePlaces: the resting places of the pieces the striker hit.
	PiecePlaces
	// StrikerRest: where the striker came to rest.
	StrikerRest
	// HandPlace: where a hand or arm crossed a line.
	HandPlace
	// HandMove: a disc moved by hand during a stroke.
	HandMove
	// StrokeRest: the pieces seen coming to rest at the stroke's end.
	StrokeRest
	// PutPlace: where a disc was put down or moved by hand between
	// strokes.
	PutPlace
)

var basisNames = []string{"striker place", "striker contacts", "piece places", "striker rest", "hand place", "hand move", "stroke rest", "put place"}

func (b Basis) String() string {
	var out []string
	for i, n := range basisNames {
		if b&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		return "nothing"
	}
	return strings.Join(out, ", ")
}

// registry holds every description, by code.
var registry = map[Code]*Desc{}

// Register adds a description; a file describing one foul calls it from
// its init. It panics on a code described twice or an incomplete
// description (the invariant tests check the whole table).
func Register(d Desc) *Desc {
	if d.Code == "" || d.Summary == "" {
		panic(fmt.Sprintf("foul: description without code or summary: %+v", d))
	}
	if _, dup := registry[d.Code]; dup {
		panic("foul: " + string(d.Code) + " described twice")
	}
	p := &d
	registry[d.Code] = p
	return p
}

// Lookup returns the description of code.
func Lookup(code Code) (*Desc, bool) { d, ok := registry[code]; return d, ok }

// All returns every description, sorted by code.
func All() []*Desc {
	out := make([]*Desc, 0, len(registry))
	for _, d := range registry {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Code < out[j].Code })
	return out
}

// Known reports whether code is described.
func (c Code) Known() bool { _, ok := registry[c]; return ok }

// Summary describes the foul in a few words ("" when unknown).
func (c Code) Summary() string {
	if d, ok := registry[c]; ok {
		return d.Summary
	}
	return ""
}

// ByCamera reports whether the camera judges the foul.
func (d *Desc) ByCamera() bool { return d.Camera != nil }

// Ref returns the foul's reference under the named profile: the rule of
// its document, or [ICF] for the ICF laws' rule as a fallback; ok is false
// when the profile does not recognise the foul.
func (d *Desc) Ref(profile string) (ref string, ok bool) {
	if r, ok := d.Refs[profile]; ok {
		return r, true
	}
	if d.Fallback && profile != ICFProfile {
		return ICF, true
	}
	return "", false
}

// RestingOn returns the codes whose calls rest on any of the facts b.
func RestingOn(b Basis) map[Code]bool {
	out := map[Code]bool{}
	for _, d := range registry {
		if d.Camera != nil && d.Camera.RestsOn&b != 0 {
			out[d.Code] = true
		}
	}
	return out
}

// String is the description in one line, the notation of the tests:
//
//	adjacent_arrow_coin striking: coin lying on the adjacent arrow was hit | team-3board General Rules 8 | camera sees stroke_start, contact; rests on striker contacts, piece places
func (d *Desc) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: %s |", d.Code, d.Class, d.Summary)
	names := make([]string, 0, len(d.Refs))
	for n := range d.Refs {
		names = append(names, n)
	}
	sort.Strings(names)
	for i, n := range names {
		if i > 0 {
			b.WriteString(";")
		}
		fmt.Fprintf(&b, " %s %s", n, d.Refs[n])
	}
	if d.Fallback {
		b.WriteString("; others " + ICF)
	}
	if c := d.Camera; c != nil {
		sees := make([]string, len(c.Sees))
		for i, t := range c.Sees {
			sees[i] = string(t)
		}
		fmt.Fprintf(&b, " | camera sees %s; rests on %s", strings.Join(sees, ", "), c.RestsOn)
		if c.Truth.Tag != "" {
			fmt.Fprintf(&b, "; truth tag %s", c.Truth.Tag)
		}
		if c.Score.Window > 0 {
			fmt.Fprintf(&b, "; scored within %gs", c.Score.Window)
		}
	} else {
		b.WriteString(" | umpire")
	}
	return b.String()
}
