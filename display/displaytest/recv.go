package displaytest

import (
	"testing"
	"time"
)

// Watchdog bounds how long Recv waits. It is not part of any timing under
// test: it only turns a test that would hang (an expected report never
// comes) into a failure with a message.
var Watchdog = 10 * time.Second

// Recv receives from ch, failing the test if nothing comes within
// Watchdog.
func Recv[T any](t testing.TB, ch <-chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(Watchdog):
		t.Fatalf("nothing received within %v", Watchdog)
		panic("unreachable")
	}
}
