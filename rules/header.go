package rules

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/boardcam/boardcam/board"
)

// Header describes a match: the rule profile, the players and where they
// sit, and who breaks the first board.
type Header struct {
	// Profile is the rule profile's name.
	Profile string
	// Format is the match format ("" for the profile's default).
	Format string
	// Teams names the two sides; in singles each side is one player.
	Teams [2]string
	// Players lists two players (singles, sitting opposite) or four
	// (doubles, partners opposite), each with a seat and a team (0 or 1).
	Players []Player
	// Break is the seat of the player who breaks the first board.
	Break board.Side
	// Position, when set, is where the match starts instead of the opening
	// of the first board.
	Position *Position
	// Meta holds free information (title, date, venue, …) in log order.
	Meta []Meta
}

// Meta is one informational header line.
type Meta struct{ Key, Value string }

// MetaKeys lists the informational header keys.
var MetaKeys = []string{"title", "event", "date", "venue", "round", "umpire", "note"}

func isMetaKey(k string) bool {
	for _, m := range MetaKeys {
		if m == k {
			return true
		}
	}
	return false
}

// Doubles reports whether the header describes a doubles match.
func (h Header) Doubles() bool { return len(h.Players) == 4 }

// Validate checks the header, the profile included.
func (h Header) Validate() error {
	if h.Profile == "" {
		return errors.New("no profile")
	}
	p, err := ProfileByName(h.Profile)
	if err != nil {
		return err
	}
	if _, err := p.Format(h.Format); err != nil {
		return err
	}
	if err := h.validateSeating(); err != nil {
		return err
	}
	if h.Position != nil {
		return h.Position.validate(h)
	}
	return nil
}

// validateSeating checks names, seats and teams.
func (h Header) validateSeating() error {
	for t, n := range h.Teams {
		if err := checkName(n); err != nil {
			return fmt.Errorf("team %d name: %w", t, err)
		}
	}
	if h.Teams[0] == h.Teams[1] {
		return fmt.Errorf("both teams are called %q", h.Teams[0])
	}
	for _, m := range h.Meta {
		if !isMetaKey(m.Key) {
			return fmt.Errorf("unknown header key %q", m.Key)
		}
		if err := checkName(m.Value); err != nil {
			return fmt.Errorf("%s: %w", m.Key, err)
		}
	}
	n := len(h.Players)
	if n != 2 && n != 4 {
		return fmt.Errorf("%d players: want 2 (singles) or 4 (doubles)", n)
	}
	var seated [4]int
	var perTeam [2][]board.Side
	for _, pl := range h.Players {
		if err := checkName(pl.Name); err != nil {
			return fmt.Errorf("player at %s: %w", pl.Seat, err)
		}
		if pl.Seat < board.S || pl.Seat > board.W {
			return fmt.Errorf("player %s: bad seat %d", pl.Name, int(pl.Seat))
		}
		if pl.Team != 0 && pl.Team != 1 {
			return fmt.Errorf("player %s: team %d (want 0 or 1)", pl.Name, pl.Team)
		}
		seated[pl.Seat]++
		if seated[pl.Seat] > 1 {
			return fmt.Errorf("two players sit at %s", pl.Seat)
		}
		perTeam[pl.Team] = append(perTeam[pl.Team], pl.Seat)
	}
	if n == 2 {
		if len(perTeam[0]) != 1 || len(perTeam[1]) != 1 {
			return errors.New("singles needs one player in each team")
		}
		if perTeam[0][0].Opposite() != perTeam[1][0] {
			return fmt.Errorf("singles players sit opposite each other, not at %s and %s", perTeam[0][0], perTeam[1][0])
		}
	} else {
		for t := 0; t < 2; t++ {
			if len(perTeam[t]) != 2 {
				return fmt.Errorf("doubles needs two players in each team, team %q has %d", h.Teams[t], len(perTeam[t]))
			}
			if perTeam[t][0].Opposite() != perTeam[t][1] {
				return fmt.Errorf("partners sit opposite each other: team %q sits at %s and %s", h.Teams[t], perTeam[t][0], perTeam[t][1])
			}
		}
	}
	if seated[h.Break] == 0 {
		return fmt.Errorf("break: no player sits at %s", h.Break)
	}
	return nil
}

// checkName accepts a non-empty UTF-8 text without control characters or
// double quotes (the notation's quote character).
func checkName(s string) error {
	if strings.TrimSpace(s) == "" {
		return errors.New("empty")
	}
	if !utf8.ValidString(s) {
		return errors.New("not valid UTF-8")
	}
	for _, r := range s {
		if r == '"' {
			return fmt.Errorf("%q contains a double quote", s)
		}
		if unicode.IsControl(r) {
			return fmt.Errorf("%q contains a control character", s)
		}
	}
	if s != strings.TrimSpace(s) {
		return fmt.Errorf("%q has leading or trailing spaces", s)
	}
	return nil
}

// PlayerAt returns the player sitting at seat.
func (h Header) PlayerAt(seat board.Side) (Player, bool) {
	for _, p := range h.Players {
		if p.Seat == seat {
			return p, true
		}
	}
	return Player{}, false
}
