package main

/*
#include <malloc.h>

// The C heap (OpenCV's images, FFmpeg's frames) returns what it frees:
// allocations from 128 KiB up (every image row block) are their own
// mappings, unmapped when freed (glibc otherwise raises this threshold
// after the first such free, and freed images then stay in the heap), and
// two arenas instead of eight per core.
static void tune_malloc(int threshold, int arenas) {
	if (threshold > 0) mallopt(M_MMAP_THRESHOLD, threshold);
	if (arenas > 0) mallopt(M_ARENA_MAX, arenas);
}
*/
import "C"

import (
	"context"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"time"
)

// processLimits: the process is boardcam's own (main ran), so `run` may
// set the limits of the whole process; tests that run commands in their
// own process leave them alone.
var processLimits bool

// daemonGCPercent is the daemon's GOGC: its live heap (about 11–14 MB of
// vision's and the tracker's data; the evidence JPEGs, ≤
// evidence.buffer_mb, only with evidence.replay_in_memory or an evidence
// directory in memory: by default they are on disk) is mostly
// pointer-free bytes, cheap to mark, so
// collecting at 25% growth costs little CPU (one cycle every second or
// two on the demo) and keeps 4–5 MB less resident than 50%.
const daemonGCPercent = 25

// tuneDaemonMemory sets the Go runtime's soft memory limit to limit bytes
// (the daemon's pipeline.go_memory_mb) unless GOMEMLIMIT is set, and GOGC
// to daemonGCPercent unless GOGC is set; it returns the limit and the
// percentage in force.
func tuneDaemonMemory(limit int64) (int64, int) {
	if os.Getenv("GOMEMLIMIT") == "" && limit > 0 {
		debug.SetMemoryLimit(limit)
	}
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(daemonGCPercent)
	}
	pct := debug.SetGCPercent(-1)
	debug.SetGCPercent(pct)
	return debug.SetMemoryLimit(-1), pct
}

// tuneMemory keeps boardcam's resident memory within the targets of
// docs/memory.md (analyze ≤ 100 MB at 720p): the C heap as above, the
// Go heap collected at 50% growth instead of 100% (its live part is about
// 7 MB; the collector's extra work is small), and no heap profile: boardcam
// never writes one, yet the runtime samples allocations for it by default
// (a 1.4 MB table of call stacks and a record per stack sampled). GOGC,
// GODEBUG=memprofilerate=N and glibc's MALLOC_MMAP_THRESHOLD_/
// MALLOC_ARENA_MAX, when set, win.
func tuneMemory() {
	if !strings.Contains(os.Getenv("GODEBUG"), "memprofilerate=") {
		runtime.MemProfileRate = 0
	}
	threshold, arenas := 128<<10, 2
	if os.Getenv("MALLOC_MMAP_THRESHOLD_") != "" {
		threshold = 0
	}
	if os.Getenv("MALLOC_ARENA_MAX") != "" {
		arenas = 0
	}
	C.tune_malloc(C.int(threshold), C.int(arenas))
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(50)
	}
}

// freedMemoryEvery is how often the daemon gives the Go heap's free pages
// back to the system (returnFreedMemory).
const freedMemoryEvery = time.Second

// returnFreedMemory gives the Go heap's freed pages back to the system
// every interval until ctx ends (debug.FreeOSMemory: a collection, then
// every free page released). The runtime's own scavenger returns them
// slowly and keeps about 10% over the heap's goal, so between two of the
// daemon's collections 2–5 MB of pages the last one freed stayed resident
// (docs/memory.md). A collection a second costs about a millisecond of CPU
// on the daemon's heap (mostly pointer-free frames and JPEGs); the pages
// given back are faulted in again as the heap grows.
func returnFreedMemory(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			debug.FreeOSMemory()
		}
	}
}
