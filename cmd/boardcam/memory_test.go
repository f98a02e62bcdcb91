package main

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
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
