package foul

import "testing"

func TestAdjacentArrowCoin(t *testing.T) {
	d, ok := Lookup(AdjacentArrowCoin)
	if !ok {
		t.Fatal("adjacent_arrow_coin is not described")
	}
	const want = "adjacent_arrow_coin striking: coin lying on the adjacent arrow was hit | team-3board General Rules 8 | camera sees stroke_start, contact; rests on striker contacts, piece places; truth tag adjacent_arrow_coin"
	if got := d.String(); got != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
	if d.Heading != "'s striker hit a coin on the adjacent arrow" {
		t.Errorf("heading %q", d.Heading)
	}
	if ref, ok := d.Ref("icf"); ok {
		t.Errorf("icf recognises it (%q): only team-3board names it", ref)
	}
}
