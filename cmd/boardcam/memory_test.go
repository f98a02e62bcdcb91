package main

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// run applies the configuration's Go memory limit and the daemon's GOGC
// to the process; GOMEMLIMIT and GOGC win over them.
func TestRunAppliesTheGoMemoryLimit(t *testing.T) {
	oldLimit, oldPct := debug.SetMemoryLimit(-1), debug.SetGCPercent(-1)
	debug.SetGCPercent(oldPct)
	defer func() {
		debug.SetMemoryLimit(oldLimit)
		debug.SetGCPercent(oldPct)
	}()
	cfg := filepath.Join(t.TempDir(), "mem.yaml")
	if err := os.WriteFile(cfg, []byte("pipeline:\n  go_memory_mb: 300\nweb:\n  listen: \"\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, _, err := newRunDaemon([]string{"--config", cfg}, stdio{Out: os.Stdout, Err: os.Stderr})
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOMEMLIMIT", "")
	t.Setenv("GOGC", "")
	if limit, pct := tuneDaemonMemory(d.Config.GoMemoryLimit()); limit != 300<<20 || pct != daemonGCPercent {
		t.Errorf("limit %d, GOGC %d; want 300 MiB and %d", limit, pct, daemonGCPercent)
	}
	if got := debug.SetMemoryLimit(-1); got != 300<<20 {
		t.Errorf("the runtime's limit is %d, want 300 MiB", got)
	}
	t.Setenv("GOMEMLIMIT", "1GiB")
	t.Setenv("GOGC", "80")
	debug.SetMemoryLimit(1 << 30)
	debug.SetGCPercent(80)
	if limit, pct := tuneDaemonMemory(d.Config.GoMemoryLimit()); limit != 1<<30 || pct != 80 {
		t.Errorf("with GOMEMLIMIT=1GiB and GOGC=80: limit %d, GOGC %d", limit, pct)
	}
}

// boardcam samples no allocations for a heap profile (it never writes
// one) unless GODEBUG asks for a rate.
func TestNoHeapProfileUnlessAsked(t *testing.T) {
	oldRate, oldPct := runtime.MemProfileRate, debug.SetGCPercent(-1)
	debug.SetGCPercent(oldPct)
	defer func() {
		runtime.MemProfileRate = oldRate
		debug.SetGCPercent(oldPct)
	}()
	t.Setenv("GODEBUG", "")
	runtime.MemProfileRate = 512 << 10
	tuneMemory()
	if runtime.MemProfileRate != 0 {
		t.Errorf("MemProfileRate %d, want 0", runtime.MemProfileRate)
	}
	t.Setenv("GODEBUG", "memprofilerate=4096")
	runtime.MemProfileRate = 4096
	tuneMemory()
	if runtime.MemProfileRate != 4096 {
		t.Errorf("with GODEBUG=memprofilerate=4096: MemProfileRate %d", runtime.MemProfileRate)
	}
}

// returnFreedMemory collects and releases at each interval (a test that
// allocates nothing sees collections only from it) and stops with its
// context.
func TestReturnFreedMemoryEveryIntervalUntilCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	before := numGC()
	go func() {
		returnFreedMemory(ctx, 5*time.Millisecond)
		close(done)
	}()
	deadline := time.Now().Add(10 * time.Second)
	for numGC() < before+3 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if n := numGC() - before; n < 3 {
		t.Errorf("%d collections in 10 s at a 5 ms interval", n)
	}
	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("returnFreedMemory still running after its context ended")
	}
}

func numGC() uint32 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.NumGC
}
