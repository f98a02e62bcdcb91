package board

import (
	"fmt"
	"strconv"
	"strings"
)

// Kind is what a disc on the board is.
type Kind int

// The kinds of disc.
const (
	White Kind = iota
	Black
	Queen
	Striker
)

// Kinds lists every kind.
var Kinds = [4]Kind{White, Black, Queen, Striker}

func (k Kind) String() string {
	switch k {
	case White:
		return "white"
	case Black:
		return "black"
	case Queen:
		return "queen"
	case Striker:
		return "striker"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// ParseKind reads "white", "black", "queen" or "striker" (or W, B, Q, S).
func ParseKind(s string) (Kind, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "white", "w":
		return White, nil
	case "black", "b":
		return Black, nil
	case "queen", "q", "red":
		return Queen, nil
	case "striker", "s":
		return Striker, nil
	}
	return 0, fmt.Errorf("board: unknown piece kind %q (want white, black, queen or striker)", s)
}

// MarshalText implements encoding.TextMarshaler.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (k *Kind) UnmarshalText(b []byte) error {
	v, err := ParseKind(string(b))
	if err != nil {
		return err
	}
	*k = v
	return nil
}

// MenPerColour is the number of carrommen of each colour.
const MenPerColour = 9

// PieceIDs returns the fixed identities of the twenty discs, in order:
// W1…W9, B1…B9, Q, S.
func PieceIDs() []string {
	ids := make([]string, 0, 2*MenPerColour+2)
	for i := 1; i <= MenPerColour; i++ {
		ids = append(ids, "W"+strconv.Itoa(i))
	}
	for i := 1; i <= MenPerColour; i++ {
		ids = append(ids, "B"+strconv.Itoa(i))
	}
	return append(ids, "Q", "S")
}

// KindOfID returns the kind of the disc with the identity id ("W3", "B9",
// "Q", "S").
func KindOfID(id string) (Kind, error) {
	switch {
	case id == "Q":
		return Queen, nil
	case id == "S":
		return Striker, nil
	case len(id) >= 2 && (id[0] == 'W' || id[0] == 'B'):
		n, err := strconv.Atoi(id[1:])
		if err != nil || n < 1 || n > MenPerColour {
			break
		}
		if id[0] == 'W' {
			return White, nil
		}
		return Black, nil
	}
	return 0, fmt.Errorf("board: unknown piece identity %q (want W1…W9, B1…B9, Q or S)", id)
}
