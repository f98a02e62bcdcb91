package tracker

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/boardcam/boardcam/events"
)

// tolerance is how many frames an event may lie from the truth, per type.
type tolerance map[events.Type]int

// strict: the targets of the issue (pocketed and overboard within 2
// frames); the stroke boundaries within 3; what happens under a hand
// (placed, moved) within the time a hand takes to uncover a disc.
func strict(fps int) tolerance {
	hand := int(math.Ceil(0.5 * float64(fps)))
	return tolerance{
		events.StrokeStart:      3,
		events.FrontLineCrossed: 3,
		events.Pocketed:         2,
		events.Overboard:        2,
		events.StrokeEnd:        3,
		events.Placed:           hand,
		events.Moved:            hand,
		events.ArmOverFoulLine:  3,
	}
}

// typeStats counts matches of one event type.
type typeStats struct {
	tp, fp, fn int
	errSum     int
	errMax     int
	misses     []string // unmatched truth events
	extras     []string // unmatched tracker events
}

func (s typeStats) f1() float64 {
	if s.tp == 0 {
		if s.fp == 0 && s.fn == 0 {
			return 1
		}
		return 0
	}
	p := float64(s.tp) / float64(s.tp+s.fp)
	r := float64(s.tp) / float64(s.tp+s.fn)
	return 2 * p * r / (p + r)
}

// sameKind compares the attributes that matter for each type.
func sameKind(a, b events.Event) bool {
	if a.Type != b.Type {
		return false
	}
	if (a.Side == nil) != (b.Side == nil) || a.Side != nil && *a.Side != *b.Side {
		return false
	}
	if (a.Piece == nil) != (b.Piece == nil) || a.Piece != nil && *a.Piece != *b.Piece {
		return false
	}
	if (a.Pocket == nil) != (b.Pocket == nil) || a.Pocket != nil && *a.Pocket != *b.Pocket {
		return false
	}
	return true
}

// matchEvents pairs truth and tracker events of the types in tol, each
// truth event with the nearest unused tracker event of the same kind
// within its tolerance, in time order.
func matchEvents(truth, got []events.Event, tol tolerance) map[events.Type]*typeStats {
	out := map[events.Type]*typeStats{}
	for t := range tol {
		out[t] = &typeStats{}
	}
	used := make([]bool, len(got))
	for _, te := range truth {
		w, ok := tol[te.Type]
		if !ok {
			continue
		}
		st := out[te.Type]
		best, bd := -1, math.MaxInt
		for k, ge := range got {
			if used[k] || !sameKind(te, ge) {
				continue
			}
			d := ge.Frame - te.Frame
			if d < 0 {
				d = -d
			}
			if d <= w && d < bd {
				best, bd = k, d
			}
		}
		if best < 0 {
			st.fn++
			st.misses = append(st.misses, eventLine(te))
			continue
		}
		used[best] = true
		st.tp++
		st.errSum += bd
		st.errMax = max(st.errMax, bd)
	}
	for k, ge := range got {
		if st, ok := out[ge.Type]; ok && !used[k] {
			st.fp++
			st.extras = append(st.extras, eventLine(ge))
		}
	}
	return out
}

func statsReport(m map[events.Type]*typeStats) string {
	var keys []string
	for t := range m {
		keys = append(keys, string(t))
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		s := m[events.Type(k)]
		if s.tp+s.fp+s.fn == 0 {
			continue
		}
		fmt.Fprintf(&b, "  %-19s tp %3d fp %2d fn %2d  F1 %.3f  max err %d frames\n", k, s.tp, s.fp, s.fn, s.f1(), s.errMax)
		for _, m := range s.misses {
			fmt.Fprintf(&b, "      missed: %s\n", m)
		}
		for _, e := range s.extras {
			fmt.Fprintf(&b, "      extra:  %s\n", e)
		}
	}
	return b.String()
}

// firstContacts returns, per stroke, the striker's first contact (B, as a
// truth id through idOf) and its frame.
func firstContacts(evs []events.Event, idOf func(string) string) []events.Event {
	var out []events.Event
	in, done := false, false
	for _, e := range evs {
		switch e.Type {
		case events.StrokeStart:
			in, done = true, false
		case events.StrokeEnd:
			if in && !done {
				out = append(out, events.Event{Type: events.Contact, Frame: -1})
			}
			in = false
		case events.Contact:
			if in && !done && (e.A == "S" || e.B == "S") {
				b := e.B
				if b == "S" {
					b = e.A
				}
				out = append(out, events.Event{Type: events.Contact, Frame: e.Frame, T: e.T, A: "S", B: idOf(b)})
				done = true
			}
		}
	}
	return out
}
