package tail

import (
	"fmt"
	"testing"
)

func TestBufferKeepsTheEnd(t *testing.T) {
	b := &Buffer{Max: 8}
	if got := b.Said(); got != "" {
		t.Fatalf("empty buffer said %q", got)
	}
	fmt.Fprint(b, "first line\n")
	fmt.Fprint(b, "ab\ncd\n")
	if got, want := b.String(), "e\nab\ncd\n"; got != want {
		t.Fatalf("kept %q, want %q", got, want)
	}
	if got, want := b.Said(), ": e; ab; cd"; got != want {
		t.Fatalf("said %q, want %q", got, want)
	}
}
