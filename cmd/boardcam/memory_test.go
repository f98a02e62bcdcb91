package main

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

// run applies the configuration's Go memory limit to the process, and
// GOMEMLIMIT wins over it.
func TestRunAppliesTheGoMemoryLimit(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	cfg := filepath.Join(t.TempDir(), "mem.yaml")
	if err := os.WriteFile(cfg, []byte("pipeline:\n  go_memory_mb: 300\nweb:\n  listen: \"\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, _, err := newRunDaemon([]string{"--config", cfg}, stdio{Out: os.Stdout, Err: os.Stderr})
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOMEMLIMIT", "")
	if got := limitGoMemory(d.Config.GoMemoryLimit()); got != 300<<20 {
		t.Errorf("limit %d, want 300 MiB", got)
	}
	if got := debug.SetMemoryLimit(-1); got != 300<<20 {
		t.Errorf("the runtime's limit is %d, want 300 MiB", got)
	}
	t.Setenv("GOMEMLIMIT", "1GiB")
	debug.SetMemoryLimit(1 << 30)
	if got := limitGoMemory(d.Config.GoMemoryLimit()); got != 1<<30 {
		t.Errorf("with GOMEMLIMIT=1GiB the limit is %d", got)
	}
}
