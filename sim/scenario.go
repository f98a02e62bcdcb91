package sim

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/boardcam/boardcam/board"
)

// Scenario is a scripted carrom session: a board, an arrangement and a
// timeline of actions. The file format is documented in docs/scenarios.md.
type Scenario struct {
	Name string
	// Seed seeds every random choice (hand motions, automatic play, due
	// placement): the same scenario and seed give a bit-identical trace.
	Seed uint64
	// FPS is the video frame rate the trace is sampled at.
	FPS int
	// BoardFile is the board description named by the scenario ("" for
	// the ICF board); Geometry is the board itself.
	BoardFile string
	Geometry  *board.Geometry
	// Breaker is the side that breaks; Players is 2 or 4; Umpire is the
	// side the umpire reaches in from.
	Breaker board.Side
	Players int
	Umpire  board.Side
	Physics Physics
	// Arrangement is how the discs lie at the start.
	Arrangement Arrangement
	Timeline    []Action
	// Render holds the renderer's settings, untouched.
	Render yaml.Node
	// Path is the file the scenario was read from ("" when parsed from
	// memory); files it names are relative to its directory.
	Path string
}

// ArrangementKind says how the discs lie at the start.
type ArrangementKind int

// The arrangements.
const (
	// ArrangeOpening: the opening arrangement of the laws (see [Opening]).
	ArrangeOpening ArrangementKind = iota
	// ArrangePositions: explicit positions; unlisted discs are off the board.
	ArrangePositions
	// ArrangeFrom: where another scenario left the discs.
	ArrangeFrom
)

// Arrangement is the starting position.
type Arrangement struct {
	Kind ArrangementKind
	// Positions lists explicit positions (ArrangePositions); Pocketed
	// lists discs given as already pocketed.
	Positions []PiecePos
	Pocketed  []string
	// From is the other scenario's file (ArrangeFrom).
	From string
	// Line and Col locate the arrangement in its file.
	Line, Col int
}

// ActionKind names a timeline action.
type ActionKind string

// The timeline actions.
const (
	ActStrike         ActionKind = "strike"
	ActJump           ActionKind = "jump"
	ActPlace          ActionKind = "place"
	ActReturnQueen    ActionKind = "return_queen"
	ActHandOverPocket ActionKind = "hand_over_pocket"
	ActNudge          ActionKind = "nudge"
	ActWait           ActionKind = "wait"
	ActAutoplay       ActionKind = "autoplay"
)

// Action is one step of the timeline. Exactly the field of its Kind is set.
type Action struct {
	Kind ActionKind
	// Line and Col locate the action in its file.
	Line, Col int

	Strike         *StrikeAction
	Jump           *JumpAction
	Place          *PlaceAction
	ReturnQueen    *ReturnQueenAction
	HandOverPocket *HandOverPocketAction
	Nudge          *NudgeAction
	Wait           float64 // seconds
	Autoplay       *AutoplayAction
}

// PlacementKind says how a strike places the striker.
type PlacementKind int

// The striker placements.
const (
	// PlaceOffset: on the base line, Offset mm to the player's right of
	// its middle (negative: to the left).
	PlaceOffset PlacementKind = iota
	// PlaceCircle: covering base circle Circle (0 the player's left, 1 right).
	PlaceCircle
	// PlaceMM: at MM, anywhere (for improper placements).
	PlaceMM
)

// StrikerPlacement is where a strike puts the striker.
type StrikerPlacement struct {
	Kind   PlacementKind
	Offset float64
	Circle int
	MM     board.Vec
}

// AimKind says how a strike is aimed.
type AimKind int

// The aims.
const (
	// AimDegrees: Degrees from straight ahead (toward the opposite side),
	// positive to the player's right; 180 flicks straight back.
	AimDegrees AimKind = iota
	// AimAt: at the centre of disc ID (a full hit).
	AimAt
	// AimToward: at the centre of Pocket.
	AimToward
	// AimPot: at the ghost position that sends disc ID into Pocket.
	AimPot
)

// Aim is a strike's direction.
type Aim struct {
	Kind    AimKind
	Degrees float64
	ID      string
	Pocket  board.Pocket
}

// StrikeAction is a scripted strike.
type StrikeAction struct {
	// Side strikes; nil: whoever's turn it is.
	Side *board.Side
	At   StrikerPlacement
	Aim  Aim
	// Speed of the striker leaving the finger, mm/s.
	Speed float64
	// AimTime is how long the player aims, seconds (0: about a second).
	AimTime float64
	// Jump lists discs that jump off the board in this stroke.
	Jump []JumpAction
	// ArmOverFoulLine swings the player's elbow out over the foul line.
	ArmOverFoulLine bool
	// NoHand: the hand places the striker and leaves the picture; the
	// striker is flicked a moment later with no hand in view (as a camera
	// framed on the playing surface sees a player's finger coming from
	// outside it): only its motion tells that a stroke began.
	NoHand bool
}

// JumpAction scripts a disc to jump off the board in the next strike: at
// its first contact it leaves the surface and flies over the frame.
type JumpAction struct {
	ID string
	// Toward is the side whose frame it flies over; nil: along the
	// direction the contact gives it.
	Toward *board.Side
	// Speed is its horizontal speed, mm/s (0: what the contact gives it,
	// at least 2 m/s).
	Speed float64
}

// PlaceTarget is where a hand puts a disc.
type PlaceTarget struct {
	ID string
	// At is the position; nil: chosen — the centre circle (or next to it)
	// for the queen or when the umpire places, else a free spot inside the
	// outer circle.
	At *board.Vec
	// Centre asks explicitly for the centre circle.
	Centre bool
	Line   int
}

// PlaceAction is a hand putting discs back on the board (due men, a jumped
// man, the queen).
type PlaceAction struct {
	// By is "umpire" or a side; empty: the player whose turn is next
	// places dues, i.e. the opponent of the last striker.
	By     string
	Pieces []PlaceTarget
}

// ReturnQueenAction is the umpire returning the queen to the centre circle.
type ReturnQueenAction struct {
	At *board.Vec
}

// HandOverPocketAction is a hand resting over a pocket.
type HandOverPocketAction struct {
	Pocket  board.Pocket
	Seconds float64
	// By is the side the hand comes from; nil: a side next to the pocket.
	By *board.Side
}

// NudgeAction is a hand pushing a disc along the board outside a stroke.
type NudgeAction struct {
	ID string
	By *board.Side
	// Move is the displacement, mm.
	Move board.Vec
	// Seconds is how long the push lasts (0: 0.4 s).
	Seconds float64
}

// AutoplayAction lets the automatic player play.
type AutoplayAction struct {
	// Strokes stops after this many strokes (0: no limit).
	Strokes int
	// Boards plays this many boards (0: until the current board ends when
	// Strokes is 0).
	Boards int
	// MaxStrokes bounds a board that will not end (default 300).
	MaxStrokes int
	Skill      Skill
}

// Load reads a scenario file.
func Load(path string) (*Scenario, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}
	sc, err := Parse(b, path)
	if err != nil {
		return nil, err
	}
	return sc, nil
}

// Parse reads a scenario from YAML; path names it in errors and anchors
// the files it refers to ("" for the working directory). Every error says
// the file, line and column and the field at fault.
func Parse(b []byte, path string) (*Scenario, error) {
	p := &parser{file: path}
	if path == "" {
		p.file = "scenario"
	}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("sim: %s: empty scenario", p.file)
		}
		return nil, fmt.Errorf("sim: %s: %w", p.file, err)
	}
	sc, err := p.scenario(&doc)
	if err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}
	sc.Path = path
	return sc, nil
}

type parser struct {
	file string
}

func (p *parser) errf(n *yaml.Node, where, format string, a ...any) error {
	return fmt.Errorf("%s:%d:%d: %s: %s", p.file, n.Line, n.Column, where, fmt.Sprintf(format, a...))
}

// fields checks that n is a mapping with only known keys and returns its
// values by key.
func (p *parser) fields(n *yaml.Node, where string, known ...string) (map[string]*yaml.Node, error) {
	if n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n.Kind != yaml.MappingNode {
		return nil, p.errf(n, where, "want a mapping with keys %s, got %s", strings.Join(known, ", "), describe(n))
	}
	out := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		ok := false
		for _, x := range known {
			ok = ok || x == k.Value
		}
		if !ok {
			return nil, p.errf(k, where, "unknown field %q (known: %s)", k.Value, strings.Join(known, ", "))
		}
		if _, dup := out[k.Value]; dup {
			return nil, p.errf(k, where, "field %q given twice", k.Value)
		}
		out[k.Value] = v
	}
	return out, nil
}

func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return "nothing"
		}
		return strconv.Quote(n.Value)
	}
	return "something else"
}

func (p *parser) scalar(n *yaml.Node, where string) (string, error) {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return "", p.errf(n, where, "want a value, got %s", describe(n))
	}
	return n.Value, nil
}

func (p *parser) num(n *yaml.Node, where string) (float64, error) {
	s, err := p.scalar(n, where)
	if err != nil {
		return 0, err
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, p.errf(n, where, "want a number, got %q", s)
	}
	return v, nil
}

func (p *parser) positive(n *yaml.Node, where string) (float64, error) {
	v, err := p.num(n, where)
	if err == nil && !(v > 0) {
		err = p.errf(n, where, "must be positive, got %v", v)
	}
	return v, err
}

func (p *parser) integer(n *yaml.Node, where string, lo, hi int) (int, error) {
	s, err := p.scalar(n, where)
	if err != nil {
		return 0, err
	}
	v, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0, p.errf(n, where, "want a whole number, got %q", s)
	}
	if v < lo || v > hi {
		return 0, p.errf(n, where, "must lie between %d and %d, got %d", lo, hi, v)
	}
	return v, nil
}

func (p *parser) boolean(n *yaml.Node, where string) (bool, error) {
	var b bool
	if n.Kind != yaml.ScalarNode || n.Decode(&b) != nil {
		return false, p.errf(n, where, "want true or false, got %s", describe(n))
	}
	return b, nil
}

func (p *parser) side(n *yaml.Node, where string) (board.Side, error) {
	s, err := p.scalar(n, where)
	if err != nil {
		return 0, err
	}
	v, err := board.ParseSide(s)
	if err != nil {
		return 0, p.errf(n, where, "unknown side %q (want S, E, N or W)", s)
	}
	return v, nil
}

func (p *parser) pocket(n *yaml.Node, where string) (board.Pocket, error) {
	s, err := p.scalar(n, where)
	if err != nil {
		return 0, err
	}
	v, err := board.ParsePocket(s)
	if err != nil {
		return 0, p.errf(n, where, "unknown pocket %q (want SW, SE, NE or NW)", s)
	}
	return v, nil
}

func (p *parser) id(n *yaml.Node, where string) (string, error) {
	s, err := p.scalar(n, where)
	if err != nil {
		return "", err
	}
	s = strings.ToUpper(strings.TrimSpace(s))
	if _, err := board.KindOfID(s); err != nil {
		return "", p.errf(n, where, "unknown piece %q (want W1…W9, B1…B9, Q or S)", s)
	}
	return s, nil
}

func (p *parser) vec(n *yaml.Node, where string) (board.Vec, error) {
	if n.Kind != yaml.SequenceNode || len(n.Content) != 2 {
		return board.Vec{}, p.errf(n, where, "want a point [x, y] in mm, got %s", describe(n))
	}
	x, err := p.num(n.Content[0], where+"[0]")
	if err != nil {
		return board.Vec{}, err
	}
	y, err := p.num(n.Content[1], where+"[1]")
	return board.V(x, y), err
}

func (p *parser) scenario(doc *yaml.Node) (*Scenario, error) {
	root := doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	f, err := p.fields(root, "scenario", "name", "seed", "fps", "board", "breaker", "players", "umpire", "physics", "arrangement", "timeline", "render")
	if err != nil {
		return nil, err
	}
	sc := &Scenario{Seed: 1, FPS: 60, Players: 2, Physics: DefaultPhysics(), Geometry: board.ICF()}
	base := strings.TrimSuffix(filepath.Base(p.file), filepath.Ext(p.file))
	sc.Name = base
	if n := f["name"]; n != nil {
		if sc.Name, err = p.scalar(n, "name"); err != nil {
			return nil, err
		}
	}
	if n := f["seed"]; n != nil {
		s, err := p.scalar(n, "seed")
		if err != nil {
			return nil, err
		}
		if sc.Seed, err = strconv.ParseUint(strings.TrimSpace(s), 10, 64); err != nil {
			return nil, p.errf(n, "seed", "want a whole number ≥ 0, got %q", s)
		}
	}
	if n := f["fps"]; n != nil {
		if sc.FPS, err = p.integer(n, "fps", 1, 1000); err != nil {
			return nil, err
		}
	}
	if n := f["board"]; n != nil {
		s, err := p.scalar(n, "board")
		if err != nil {
			return nil, err
		}
		sc.BoardFile = s
		path := s
		if !filepath.IsAbs(path) && p.file != "scenario" {
			path = filepath.Join(filepath.Dir(p.file), path)
		}
		if sc.Geometry, err = board.Load(path); err != nil {
			return nil, p.errf(n, "board", "%v", err)
		}
	}
	if n := f["breaker"]; n != nil {
		if sc.Breaker, err = p.side(n, "breaker"); err != nil {
			return nil, err
		}
	}
	sc.Umpire = sc.Breaker.Right()
	if n := f["umpire"]; n != nil {
		if sc.Umpire, err = p.side(n, "umpire"); err != nil {
			return nil, err
		}
	}
	if n := f["players"]; n != nil {
		if sc.Players, err = p.integer(n, "players", 2, 4); err != nil {
			return nil, err
		}
		if sc.Players == 3 {
			return nil, p.errf(n, "players", "want 2 (singles) or 4 (doubles), got 3")
		}
	}
	if n := f["physics"]; n != nil {
		if err := p.physics(n, &sc.Physics); err != nil {
			return nil, err
		}
	}
	if n := f["arrangement"]; n != nil {
		if sc.Arrangement, err = p.arrangement(n); err != nil {
			return nil, err
		}
	} else {
		sc.Arrangement.Line, sc.Arrangement.Col = root.Line, root.Column
	}
	if n := f["render"]; n != nil {
		sc.Render = *n
	}
	n := f["timeline"]
	if n == nil {
		return nil, p.errf(root, "scenario", "no timeline: list the actions under timeline:")
	}
	if n.Kind != yaml.SequenceNode {
		return nil, p.errf(n, "timeline", "want a list of actions, got %s", describe(n))
	}
	for i, item := range n.Content {
		a, err := p.action(item, fmt.Sprintf("timeline[%d]", i), sc)
		if err != nil {
			return nil, err
		}
		sc.Timeline = append(sc.Timeline, a)
	}
	if len(sc.Timeline) == 0 {
		return nil, p.errf(n, "timeline", "is empty")
	}
	// A jump scripts the strike after it.
	for i, a := range sc.Timeline {
		if a.Kind != ActJump {
			continue
		}
		ok := false
		for _, b := range sc.Timeline[i+1:] {
			if b.Kind == ActStrike {
				ok = true
				break
			}
		}
		if !ok {
			return nil, fmt.Errorf("%s:%d:%d: timeline[%d].jump: no strike follows the jump", p.file, a.Line, a.Col, i)
		}
	}
	return sc, nil
}

func (p *parser) physics(n *yaml.Node, ph *Physics) error {
	f, err := p.fields(n, "physics", "friction", "restitution", "cushion_restitution", "spin", "max_step")
	if err != nil {
		return err
	}
	for _, k := range []struct {
		key string
		dst *float64
	}{{"friction", &ph.Friction}, {"restitution", &ph.Restitution}, {"cushion_restitution", &ph.CushionRestitution}, {"spin", &ph.Spin}, {"max_step", &ph.MaxStep}} {
		if v := f[k.key]; v != nil {
			if *k.dst, err = p.num(v, "physics."+k.key); err != nil {
				return err
			}
		}
	}
	if err := ph.Validate(); err != nil {
		return p.errf(n, "physics", "%v", err)
	}
	return nil
}

func (p *parser) arrangement(n *yaml.Node) (Arrangement, error) {
	a := Arrangement{Line: n.Line, Col: n.Column}
	if n.Kind == yaml.ScalarNode {
		if n.Value != "opening" {
			return a, p.errf(n, "arrangement", "want opening, or a mapping with positions: or from:, got %q", n.Value)
		}
		return a, nil
	}
	f, err := p.fields(n, "arrangement", "opening", "positions", "pocketed", "from")
	if err != nil {
		return a, err
	}
	switch {
	case f["from"] != nil:
		if len(f) != 1 {
			return a, p.errf(n, "arrangement", "from: cannot be combined with other fields")
		}
		a.Kind = ArrangeFrom
		if a.From, err = p.scalar(f["from"], "arrangement.from"); err != nil {
			return a, err
		}
		if !filepath.IsAbs(a.From) && p.file != "scenario" {
			a.From = filepath.Join(filepath.Dir(p.file), a.From)
		}
		return a, nil
	case f["positions"] != nil:
		if f["opening"] != nil {
			return a, p.errf(n, "arrangement", "give opening or positions, not both")
		}
		a.Kind = ArrangePositions
		pn := f["positions"]
		if pn.Kind != yaml.MappingNode {
			return a, p.errf(pn, "arrangement.positions", "want a mapping from piece to [x, y], got %s", describe(pn))
		}
		seen := map[string]bool{}
		for i := 0; i+1 < len(pn.Content); i += 2 {
			where := "arrangement.positions." + pn.Content[i].Value
			id, err := p.id(pn.Content[i], where)
			if err != nil {
				return a, err
			}
			if seen[id] {
				return a, p.errf(pn.Content[i], where, "%s placed twice", id)
			}
			seen[id] = true
			v, err := p.vec(pn.Content[i+1], where)
			if err != nil {
				return a, err
			}
			a.Positions = append(a.Positions, PiecePos{ID: id, Pos: v})
		}
		if pk := f["pocketed"]; pk != nil {
			if pk.Kind != yaml.SequenceNode {
				return a, p.errf(pk, "arrangement.pocketed", "want a list of pieces, got %s", describe(pk))
			}
			for i, x := range pk.Content {
				id, err := p.id(x, fmt.Sprintf("arrangement.pocketed[%d]", i))
				if err != nil {
					return a, err
				}
				if seen[id] {
					return a, p.errf(x, "arrangement.pocketed", "%s is both placed and pocketed", id)
				}
				seen[id] = true
				a.Pocketed = append(a.Pocketed, id)
			}
		}
		return a, nil
	case f["pocketed"] != nil:
		return a, p.errf(f["pocketed"], "arrangement.pocketed", "only goes with positions:")
	}
	if o := f["opening"]; o != nil && !(o.Kind == yaml.ScalarNode && (o.Tag == "!!null" || o.Value == "true")) {
		return a, p.errf(o, "arrangement.opening", "takes no settings (write arrangement: opening)")
	}
	return a, nil
}

var actionKinds = []string{string(ActStrike), string(ActJump), string(ActPlace), string(ActReturnQueen), string(ActHandOverPocket), string(ActNudge), string(ActWait), string(ActAutoplay)}

func (p *parser) action(n *yaml.Node, where string, sc *Scenario) (Action, error) {
	a := Action{Line: n.Line, Col: n.Column}
	if n.Kind == yaml.ScalarNode && n.Value == string(ActReturnQueen) {
		a.Kind, a.ReturnQueen = ActReturnQueen, &ReturnQueenAction{}
		return a, nil
	}
	if n.Kind != yaml.MappingNode || len(n.Content) != 2 {
		return a, p.errf(n, where, "want one action (%s), got %s", strings.Join(actionKinds, ", "), describe(n))
	}
	k, v := n.Content[0], n.Content[1]
	a.Kind = ActionKind(k.Value)
	where += "." + k.Value
	var err error
	switch a.Kind {
	case ActStrike:
		a.Strike, err = p.strike(v, where, sc)
	case ActJump:
		var j JumpAction
		j, err = p.jump(v, where)
		a.Jump = &j
	case ActPlace:
		a.Place, err = p.place(v, where)
	case ActReturnQueen:
		a.ReturnQueen = &ReturnQueenAction{}
		if !(v.Kind == yaml.ScalarNode && v.Tag == "!!null") {
			var f map[string]*yaml.Node
			if f, err = p.fields(v, where, "at"); err == nil && f["at"] != nil {
				var at board.Vec
				at, err = p.vec(f["at"], where+".at")
				a.ReturnQueen.At = &at
			}
		}
	case ActHandOverPocket:
		a.HandOverPocket, err = p.handOverPocket(v, where)
	case ActNudge:
		a.Nudge, err = p.nudge(v, where)
	case ActWait:
		if v.Kind == yaml.MappingNode {
			var f map[string]*yaml.Node
			if f, err = p.fields(v, where, "seconds"); err == nil {
				if f["seconds"] == nil {
					return a, p.errf(v, where, "needs seconds")
				}
				a.Wait, err = p.positive(f["seconds"], where+".seconds")
			}
		} else {
			a.Wait, err = p.positive(v, where)
		}
	case ActAutoplay:
		a.Autoplay, err = p.autoplay(v, where)
	default:
		return a, p.errf(k, where, "unknown action %q (want %s)", k.Value, strings.Join(actionKinds, ", "))
	}
	return a, err
}

func (p *parser) strike(n *yaml.Node, where string, sc *Scenario) (*StrikeAction, error) {
	f, err := p.fields(n, where, "side", "at", "direction", "speed", "aim_time", "jump", "arm_over_foul_line", "no_hand")
	if err != nil {
		return nil, err
	}
	s := &StrikeAction{}
	if v := f["side"]; v != nil {
		side, err := p.side(v, where+".side")
		if err != nil {
			return nil, err
		}
		s.Side = &side
	}
	if v := f["at"]; v != nil {
		if s.At, err = p.placement(v, where+".at", sc.Geometry); err != nil {
			return nil, err
		}
	}
	if v := f["direction"]; v == nil {
		return nil, p.errf(n, where, "needs a direction (degrees, \"at W3\", \"toward NE\" or \"pot W3 NE\")")
	} else if s.Aim, err = p.aim(v, where+".direction"); err != nil {
		return nil, err
	}
	if v := f["speed"]; v == nil {
		return nil, p.errf(n, where, "needs a speed in m/s")
	} else {
		sp, err := p.positive(v, where+".speed")
		if err != nil {
			return nil, err
		}
		if sp > 10 {
			return nil, p.errf(v, where+".speed", "%v m/s is beyond any flick (at most 10)", sp)
		}
		s.Speed = sp * 1000
	}
	if v := f["aim_time"]; v != nil {
		if s.AimTime, err = p.positive(v, where+".aim_time"); err != nil {
			return nil, err
		}
	}
	if v := f["jump"]; v != nil {
		if v.Kind != yaml.SequenceNode {
			return nil, p.errf(v, where+".jump", "want a list of pieces, got %s", describe(v))
		}
		for i, x := range v.Content {
			j, err := p.jump(x, fmt.Sprintf("%s.jump[%d]", where, i))
			if err != nil {
				return nil, err
			}
			s.Jump = append(s.Jump, j)
		}
	}
	if v := f["arm_over_foul_line"]; v != nil {
		if s.ArmOverFoulLine, err = p.boolean(v, where+".arm_over_foul_line"); err != nil {
			return nil, err
		}
	}
	if v := f["no_hand"]; v != nil {
		if s.NoHand, err = p.boolean(v, where+".no_hand"); err != nil {
			return nil, err
		}
		if s.NoHand && s.ArmOverFoulLine {
			return nil, p.errf(v, where+".no_hand", "a strike with no hand in view cannot swing the arm over the foul line")
		}
	}
	return s, nil
}

func (p *parser) placement(n *yaml.Node, where string, g *board.Geometry) (StrikerPlacement, error) {
	if n.Kind == yaml.SequenceNode {
		v, err := p.vec(n, where)
		return StrikerPlacement{Kind: PlaceMM, MM: v}, err
	}
	s, err := p.scalar(n, where)
	if err != nil {
		return StrikerPlacement{}, err
	}
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "left circle", "left":
		return StrikerPlacement{Kind: PlaceCircle, Circle: 0}, nil
	case "right circle", "right":
		return StrikerPlacement{Kind: PlaceCircle, Circle: 1}, nil
	case "centre", "center", "middle":
		return StrikerPlacement{Kind: PlaceOffset}, nil
	}
	off, err := p.num(n, where)
	if err != nil {
		return StrikerPlacement{}, p.errf(n, where, "want an offset in mm along the base line, \"left circle\", \"right circle\" or [x, y], got %q", s)
	}
	if m := MaxBaseOffset(g); math.Abs(off) > m {
		return StrikerPlacement{}, p.errf(n, where, "offset %v mm puts the striker on a base circle or beyond: within the base line it lies between -%.1f and %.1f (use \"left circle\", \"right circle\" or [x, y])", off, m, m)
	}
	return StrikerPlacement{Kind: PlaceOffset, Offset: off}, nil
}

func (p *parser) aim(n *yaml.Node, where string) (Aim, error) {
	s, err := p.scalar(n, where)
	if err != nil {
		return Aim{}, err
	}
	if v, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err == nil {
		if math.IsNaN(v) || math.IsInf(v, 0) || v <= -360 || v >= 360 {
			return Aim{}, p.errf(n, where, "degrees must lie between -360 and 360, got %v", v)
		}
		return Aim{Kind: AimDegrees, Degrees: v}, nil
	}
	words := strings.Fields(s)
	bad := p.errf(n, where, "want degrees, \"at <piece>\", \"toward <pocket>\" or \"pot <piece> <pocket>\", got %q", s)
	if len(words) == 0 {
		return Aim{}, bad
	}
	switch strings.ToLower(words[0]) {
	case "at":
		if len(words) != 2 {
			return Aim{}, bad
		}
		id := strings.ToUpper(words[1])
		if k, err := board.KindOfID(id); err != nil || k == board.Striker {
			return Aim{}, p.errf(n, where, "cannot aim at %q (want W1…W9, B1…B9 or Q)", words[1])
		}
		return Aim{Kind: AimAt, ID: id}, nil
	case "toward", "towards":
		if len(words) != 2 {
			return Aim{}, bad
		}
		pk, err := board.ParsePocket(words[1])
		if err != nil {
			return Aim{}, p.errf(n, where, "unknown pocket %q (want SW, SE, NE or NW)", words[1])
		}
		return Aim{Kind: AimToward, Pocket: pk}, nil
	case "pot":
		if len(words) != 3 {
			return Aim{}, bad
		}
		id := strings.ToUpper(words[1])
		if k, err := board.KindOfID(id); err != nil || k == board.Striker {
			return Aim{}, p.errf(n, where, "cannot pot %q (want W1…W9, B1…B9 or Q)", words[1])
		}
		pk, err := board.ParsePocket(words[2])
		if err != nil {
			return Aim{}, p.errf(n, where, "unknown pocket %q (want SW, SE, NE or NW)", words[2])
		}
		return Aim{Kind: AimPot, ID: id, Pocket: pk}, nil
	}
	return Aim{}, bad
}

func (p *parser) jump(n *yaml.Node, where string) (JumpAction, error) {
	var j JumpAction
	if n.Kind == yaml.ScalarNode {
		id, err := p.id(n, where)
		j.ID = id
		return j, err
	}
	f, err := p.fields(n, where, "id", "toward", "speed")
	if err != nil {
		return j, err
	}
	if f["id"] == nil {
		return j, p.errf(n, where, "needs the id of the piece that jumps")
	}
	if j.ID, err = p.id(f["id"], where+".id"); err != nil {
		return j, err
	}
	if v := f["toward"]; v != nil {
		s, err := p.side(v, where+".toward")
		if err != nil {
			return j, err
		}
		j.Toward = &s
	}
	if v := f["speed"]; v != nil {
		sp, err := p.positive(v, where+".speed")
		if err != nil {
			return j, err
		}
		j.Speed = sp * 1000
	}
	return j, nil
}

func (p *parser) place(n *yaml.Node, where string) (*PlaceAction, error) {
	f, err := p.fields(n, where, "by", "pieces")
	if err != nil {
		return nil, err
	}
	pa := &PlaceAction{}
	if v := f["by"]; v != nil {
		s, err := p.scalar(v, where+".by")
		if err != nil {
			return nil, err
		}
		if strings.EqualFold(s, "umpire") {
			pa.By = "umpire"
		} else {
			side, err := p.side(v, where+".by")
			if err != nil {
				return nil, p.errf(v, where+".by", "want umpire or a side (S, E, N, W), got %q", s)
			}
			pa.By = side.String()
		}
	}
	pn := f["pieces"]
	if pn == nil || pn.Kind != yaml.SequenceNode || len(pn.Content) == 0 {
		at := n
		if pn != nil {
			at = pn
		}
		return nil, p.errf(at, where+".pieces", "want a list of pieces (W3, or {id: W3, at: [x, y]})")
	}
	for i, x := range pn.Content {
		w := fmt.Sprintf("%s.pieces[%d]", where, i)
		t := PlaceTarget{Line: x.Line}
		if x.Kind == yaml.ScalarNode {
			if t.ID, err = p.id(x, w); err != nil {
				return nil, err
			}
		} else {
			pf, err := p.fields(x, w, "id", "at")
			if err != nil {
				return nil, err
			}
			if pf["id"] == nil {
				return nil, p.errf(x, w, "needs an id")
			}
			if t.ID, err = p.id(pf["id"], w+".id"); err != nil {
				return nil, err
			}
			if v := pf["at"]; v != nil {
				if v.Kind == yaml.ScalarNode && (v.Value == "centre" || v.Value == "center") {
					t.Centre = true
				} else if v.Kind == yaml.ScalarNode && v.Value == "outer" {
					t.Centre = false
				} else {
					at, err := p.vec(v, w+".at")
					if err != nil {
						return nil, p.errf(v, w+".at", "want [x, y], centre or outer, got %s", describe(v))
					}
					t.At = &at
				}
			}
		}
		if t.ID == "S" {
			return nil, p.errf(x, w, "the striker is placed by strike, not place")
		}
		pa.Pieces = append(pa.Pieces, t)
	}
	return pa, nil
}

func (p *parser) handOverPocket(n *yaml.Node, where string) (*HandOverPocketAction, error) {
	f, err := p.fields(n, where, "pocket", "seconds", "by")
	if err != nil {
		return nil, err
	}
	h := &HandOverPocketAction{Seconds: 2}
	if f["pocket"] == nil {
		return nil, p.errf(n, where, "needs a pocket (SW, SE, NE or NW)")
	}
	if h.Pocket, err = p.pocket(f["pocket"], where+".pocket"); err != nil {
		return nil, err
	}
	if v := f["seconds"]; v != nil {
		if h.Seconds, err = p.positive(v, where+".seconds"); err != nil {
			return nil, err
		}
	}
	if v := f["by"]; v != nil {
		s, err := p.side(v, where+".by")
		if err != nil {
			return nil, err
		}
		h.By = &s
	}
	return h, nil
}

func (p *parser) nudge(n *yaml.Node, where string) (*NudgeAction, error) {
	f, err := p.fields(n, where, "id", "by", "move", "seconds")
	if err != nil {
		return nil, err
	}
	nd := &NudgeAction{}
	if f["id"] == nil {
		return nil, p.errf(n, where, "needs the id of the piece to move")
	}
	if nd.ID, err = p.id(f["id"], where+".id"); err != nil {
		return nil, err
	}
	if f["move"] == nil {
		return nil, p.errf(n, where, "needs move: [dx, dy] in mm")
	}
	if nd.Move, err = p.vec(f["move"], where+".move"); err != nil {
		return nil, err
	}
	if nd.Move.Len() < 0.5 {
		return nil, p.errf(f["move"], where+".move", "moves the piece less than 0.5 mm")
	}
	if v := f["by"]; v != nil {
		s, err := p.side(v, where+".by")
		if err != nil {
			return nil, err
		}
		nd.By = &s
	}
	if v := f["seconds"]; v != nil {
		if nd.Seconds, err = p.positive(v, where+".seconds"); err != nil {
			return nil, err
		}
	}
	return nd, nil
}

func (p *parser) autoplay(n *yaml.Node, where string) (*AutoplayAction, error) {
	a := &AutoplayAction{MaxStrokes: 300, Skill: DefaultSkill()}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return a, nil
	}
	f, err := p.fields(n, where, "strokes", "boards", "until", "max_strokes", "aim_noise", "speed_noise")
	if err != nil {
		return nil, err
	}
	if v := f["strokes"]; v != nil {
		if a.Strokes, err = p.integer(v, where+".strokes", 1, 100000); err != nil {
			return nil, err
		}
	}
	if v := f["boards"]; v != nil {
		if a.Boards, err = p.integer(v, where+".boards", 1, 100); err != nil {
			return nil, err
		}
	}
	if v := f["until"]; v != nil {
		s, err := p.scalar(v, where+".until")
		if err != nil {
			return nil, err
		}
		if s != "board_end" {
			return nil, p.errf(v, where+".until", "want board_end, got %q", s)
		}
		if a.Strokes > 0 {
			return nil, p.errf(v, where+".until", "give strokes or until, not both")
		}
	}
	if v := f["max_strokes"]; v != nil {
		if a.MaxStrokes, err = p.integer(v, where+".max_strokes", 1, 100000); err != nil {
			return nil, err
		}
	}
	if v := f["aim_noise"]; v != nil {
		if a.Skill.AimNoise, err = p.num(v, where+".aim_noise"); err != nil {
			return nil, err
		}
		if a.Skill.AimNoise < 0 || a.Skill.AimNoise > 45 {
			return nil, p.errf(v, where+".aim_noise", "must lie between 0 and 45 degrees")
		}
	}
	if v := f["speed_noise"]; v != nil {
		if a.Skill.SpeedNoise, err = p.num(v, where+".speed_noise"); err != nil {
			return nil, err
		}
		if a.Skill.SpeedNoise < 0 || a.Skill.SpeedNoise > 1 {
			return nil, p.errf(v, where+".speed_noise", "must lie between 0 and 1")
		}
	}
	return a, nil
}
