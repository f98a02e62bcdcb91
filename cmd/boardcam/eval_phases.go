package main

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"regexp"
	"strconv"
)

// Removal patterns with a parameter, for looking beyond the fixed ones
// (issue 11's hunt, testdata/hunt/README.md): what falls between a slower
// camera's frames, which frames a stall or a random loss takes, depends on
// where they fall, and the fixed patterns try one or two phases only.
// They are accepted by eval --remove, never part of "all":
//
//	fpsN+S      a camera at N fps (N dividing the clip's rate at least
//	            twice) whose first frame is the clip's frame S (S < the
//	            step): fps15+0 is fps15, fps15+1 on a 30 fps clip is fps15late
//	randomP/S   P % of the frames dropped at random, seed S (random30/0 is
//	            not random30: the seed differs)
//	burst@P     0.4 s dropped every 2 s from P s into each 2 s (burst is burst@0.7)
//	none        nothing removed: every frame read unpaced and analysed, the
//	            daemon's path on a computer that keeps up with anything
//	            (what the other patterns are compared with)
var (
	phasedFPS   = regexp.MustCompile(`^fps([0-9]+)\+([0-9]+)$`)
	seededDrop  = regexp.MustCompile(`^random([0-9]+)/([0-9]+)$`)
	phasedBurst = regexp.MustCompile(`^burst@([0-9.]+)$`)
)

// parsedRemoval makes the removal a parameterised pattern names.
func parsedRemoval(name string) (removal, bool) {
	if name == "none" {
		return removal{Name: name, Help: "nothing removed: every frame read unpaced and analysed", drop: func(string, int, int) func(int64) bool {
			return func(int64) bool { return false }
		}}, true
	}
	if m := phasedFPS.FindStringSubmatch(name); m != nil {
		fps, err1 := strconv.Atoi(m[1])
		skip, err2 := strconv.Atoi(m[2])
		if err1 != nil || err2 != nil || fps < 1 || fps > 120 {
			return removal{}, false
		}
		return removal{Name: name, Help: fmt.Sprintf("played as a %d fps camera would film it, from the clip's frame %d", fps, skip), fps: fps, phase: skip, phased: true}, true
	}
	if m := seededDrop.FindStringSubmatch(name); m != nil {
		p, err1 := strconv.Atoi(m[1])
		seed, err2 := strconv.ParseUint(m[2], 10, 64)
		if err1 != nil || err2 != nil || p < 1 || p > 90 {
			return removal{}, false
		}
		return removal{Name: name, Help: fmt.Sprintf("%d%% of the frames dropped at random, seed %d", p, seed), drop: seededRandomDrop(float64(p)/100, seed)}, true
	}
	if m := phasedBurst.FindStringSubmatch(name); m != nil {
		at, err := strconv.ParseFloat(m[1], 64)
		if err != nil || at < 0 || at >= 2 {
			return removal{}, false
		}
		return removal{Name: name, Help: fmt.Sprintf("0.4 s of frames dropped every 2 s, from %.2f s into each", at), drop: func(_ string, fps, _ int) func(int64) bool {
			return func(i int64) bool {
				t := float64(i) / float64(fps)
				ph := t - 2*float64(int(t/2))
				d := ph - at
				if d < 0 {
					d += 2
				}
				return d < 0.4
			}
		}}, true
	}
	return removal{}, false
}

// seededRandomDrop drops each frame with probability p, the same frames
// every run for a clip and seed.
func seededRandomDrop(p float64, seed uint64) func(clip string, fps, frames int) func(int64) bool {
	return func(clip string, _, frames int) func(int64) bool {
		h := fnv.New64a()
		h.Write([]byte(clip))
		r := rand.New(rand.NewPCG(h.Sum64(), seed<<20|uint64(p*1000)))
		gone := make([]bool, frames+1)
		for i := range gone {
			gone[i] = r.Float64() < p
		}
		return func(i int64) bool { return i < int64(len(gone)) && gone[i] }
	}
}
