//go:build notools

package main

// The release build (scripts/package.sh: the package's /usr/bin/boardcam)
// is built with the tag notools: without the development tools — the
// commands render, synth, simulate and eval and analyze --truth, which
// need the source tree's corpus and its ground truth — so that the daemon
// maps fewer pages of its own code (docs/memory.md). Their files register
// nothing in it (//go:build !notools on render.go, synth.go, simulate.go,
// eval.go and tools_on.go), so the linker leaves out the code only they
// reach. `go build ./cmd/boardcam` has them all.

import (
	"context"
	"errors"

	"github.com/boardcam/boardcam/corpus"
)

func analyzeTruth(context.Context, *corpus.Truth, string, string, string, string, int, bool, stdio) error {
	return errors.New("--truth is a development tool, not in this build (the package's): build boardcam from source with `go build ./cmd/boardcam`")
}
