package referee_test

import (
	"strings"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/referee"
)

// offLog: S (white) and N (black), five men each on the board, the queen
// covered by N, S to strike.
const offLog = "profile icf\nplayer S South\nplayer N North\nbreak S\nposition breaker=S turn=S white=5 black=5 queen=covered:N strokes=10\n"

// held writes the decisions in the one-line notation ("S w", "[info]"),
// each held for the umpire marked "?".
func held(ds []referee.Decision) string {
	var out []string
	for _, d := range ds {
		w := d.Log
		if w == "" {
			w = "[" + string(d.Kind) + "]"
		}
		if d.Uncertain() {
			w += " ?"
		}
		out = append(out, w)
	}
	return strings.Join(out, "; ")
}

// A piece the match has off the board (a man pocketed and not put back,
// the covered queen) seen at rest at a stroke's end or moved by hand is
// another disc taken for it (h08: the striker under glare read as the
// covered queen, then "Q moved by hand 388 mm" called a touched-piece
// foul): the decision is held with the reason, the foul only offered.
func TestOffBoardPieceSeenHeld(t *testing.T) {
	potW1 := []step{ev(startAt(100, board.S, 0, baseY)), ev(pocketed(120, "W1", board.NW)), ev(end(150, at("W2", 100, -200), at("S", -151, -217)))}
	cat := func(parts ...[]step) []step {
		var out []step
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	// (S pocketed his own man: S strikes again.)
	again := func(pieces ...events.PieceAt) []step {
		return []step{ev(startAt(300, board.S, 0, baseY)), ev(end(340, pieces...))}
	}
	cases := []struct {
		name  string
		steps []step
		want  string
	}{
		{"h08: the covered queen at rest at the stroke's end", []step{ev(startAt(100, board.S, 0, baseY)),
			ev(end(150, at("W2", 100, -200), at("Q", -184, -162), at("S", -151, -217)))}, "S - ?"},
		{"h08: the covered queen moved by hand", []step{ev(moved(200, "Q", -57.5, 205.1))}, "[foul] ?"},
		{"a pocketed man at rest at the next stroke's end", cat(potW1, again(at("W1", -150, -220), at("S", 0, -200))), "S w; S - ?"},
		{"a pocketed man moved by hand", cat(potW1, []step{ev(moved(200, "W1", 10, 10))}), "S w; [foul] ?"},
		{"a pocketed man put back, then at rest", cat(potW1, []step{ev(placed(200, "W1", 0, 0))}, again(at("W1", 0, 0), at("S", 0, -200))), "S w; [info]; S -"},
		{"a pocketed man seen at rest once is on the board", cat(potW1, again(at("W1", -150, -220), at("S", 0, -200)), []step{ev(moved(400, "W1", -140, -220))}), "S w; S - ?; foul N !touched_piece"},
		{"a man on the board moved by hand", []step{ev(moved(200, "W2", 110, -200))}, "foul S !touched_piece"},
		{"a man on the board at rest", []step{ev(startAt(100, board.S, 0, baseY)), ev(end(150, at("W2", 100, -200), at("S", -151, -217)))}, "S -"},
	}
	for _, c := range cases {
		_, ds := playMatchFrom(t, offLog, c.steps...)
		if got := held(ds); got != c.want {
			t.Errorf("%s: got %q, want %q\n%s", c.name, got, c.want, dump(ds))
			continue
		}
		for _, d := range ds {
			if !d.Uncertain() {
				continue
			}
			why := strings.Join(d.Reasons(), " | ")
			if !strings.Contains(why, "may have taken another disc for it") {
				t.Errorf("%s: the reason does not say the identity is in doubt: %s", c.name, why)
			}
			for _, k := range d.Calls {
				if k.Status == referee.Applied {
					t.Errorf("%s: %s applied on a piece off the board", c.name, k.Foul)
				}
			}
		}
	}
}
