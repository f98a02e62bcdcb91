//go:build !notools

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/scene"
	"github.com/boardcam/boardcam/sim"
)

func init() {
	register(command{Name: "simulate", Summary: "run a carrom scenario in the simulator and print its events", Run: cmdSimulate})
}

const simulateHelp = `
Run a scenario file (see docs/scenarios.md) through the carrom simulator:
2D physics of the discs, scripted hands and the automatic player.

Without --json it prints a summary: one line per stroke (side, timing,
striker placement, contacts, pocketed pieces, the turn policy's notes) and
the boards won. With --json it prints the ground-truth events as JSON lines,
the format of 'boardcam analyze --json'. --frames adds, before each frame's
events, the frame's scene as a line {"type":"scene","frame":N,"t":…,
"discs":[…],"hands":[…]} (implies --json).
`

// sceneLine is one frame's scene in the --frames output.
type sceneLine struct {
	Type  string `json:"type"`
	Frame int    `json:"frame"`
	scene.Scene
}

func cmdSimulate(ctx context.Context, args []string, s stdio) error {
	fs := newFlags("simulate", "[flags] SCENARIO.yaml", simulateHelp, s)
	asJSON := fs.Bool("json", false, "print the events as JSON lines")
	frames := fs.Bool("frames", false, "also print every frame's scene (implies --json)")
	seed := fs.Int64("seed", -1, "replace the scenario's seed (≥ 0)")
	fps := fs.Int("fps", 0, "replace the scenario's frame rate")
	quiet := fs.Bool("quiet", false, "no progress lines on standard error (one every 10 strokes)")
	fs.Bool("progress", true, "progress lines (the default)")
	hide(fs, "progress")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageError("simulate takes one scenario file, got %d arguments", fs.NArg())
	}
	if *fps < 0 || *fps > 1000 {
		return usageError("--fps must lie between 1 and 1000")
	}
	opt := sim.Options{FPS: *fps}
	if *seed >= 0 {
		v := uint64(*seed)
		opt.Seed = &v
	} else if *seed != -1 {
		return usageError("--seed must not be negative")
	}
	if !*quiet {
		opt.Progress = func(p sim.Progress) {
			if p.Strokes%10 == 0 {
				fmt.Fprintf(s.Err, "simulate: board %d, %d strokes, %.0f s simulated\n", p.Board, p.Strokes, p.T)
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	tr, err := sim.RunFile(fs.Arg(0), opt)
	if err != nil {
		return err
	}
	out := bufio.NewWriter(s.Out)
	if *asJSON || *frames {
		if err := writeJSONLines(ctx, out, tr, *frames); err != nil {
			return err
		}
	} else {
		writeSummary(out, tr, fs.Arg(0))
	}
	return out.Flush()
}

func writeJSONLines(ctx context.Context, out *bufio.Writer, tr *sim.Trace, frames bool) error {
	next := 0
	emitUpTo := func(frame int) error {
		for ; next < len(tr.Events) && tr.Events[next].Frame <= frame; next++ {
			b, err := tr.Events[next].Marshal()
			if err != nil {
				return fmt.Errorf("simulate: event %d: %w", next, err)
			}
			out.Write(b)
			out.WriteByte('\n')
		}
		return nil
	}
	if frames {
		for i := range tr.NumFrames() {
			if i%1000 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			b, err := json.Marshal(sceneLine{Type: "scene", Frame: i, Scene: tr.Frame(i)})
			if err != nil {
				return fmt.Errorf("simulate: frame %d: %w", i, err)
			}
			out.Write(b)
			out.WriteByte('\n')
			if err := emitUpTo(i); err != nil {
				return err
			}
		}
	}
	return emitUpTo(int(^uint(0) >> 1))
}

func writeSummary(out *bufio.Writer, tr *sim.Trace, path string) {
	strokes := "strokes"
	if len(tr.Strokes) == 1 {
		strokes = "stroke"
	}
	fmt.Fprintf(out, "scenario %q (%s), seed %d, %d fps\n", tr.Name, path, tr.Seed, tr.FPS)
	fmt.Fprintf(out, "%.2f s simulated, %d frames, %d events, %d %s\n\n", tr.Duration, tr.NumFrames(), len(tr.Events), len(tr.Strokes), strokes)
	if len(tr.Strokes) > 0 {
		tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "#\tboard\tside\tstart s\tend s\tframes\tplacement\tm/s\tcontacts\tfirst\tcrossed\t")
		for _, st := range tr.Strokes {
			crossed := "no"
			if st.CrossedFrontLine {
				crossed = "yes"
			}
			first := st.FirstContact
			if first == "" {
				first = "-"
			}
			fmt.Fprintf(tw, "%d\t%d\t%s\t%.2f\t%.2f\t%d–%d\t%s\t%.2f\t%d\t%s\t%s\t\n",
				st.Number, st.Board, st.Side, st.Start, st.End, st.StartFrame, st.EndFrame, st.Placement, st.Speed, st.Contacts, first, crossed)
		}
		tw.Flush()
		fmt.Fprintln(out)
		for _, st := range tr.Strokes {
			var what []string
			if st.Plan != "" {
				what = append(what, "plan: "+st.Plan)
			}
			for _, p := range st.Pocketed {
				what = append(what, fmt.Sprintf("%s into %s", p.ID, p.Pocket))
			}
			for _, id := range st.Overboard {
				what = append(what, id+" off the board")
			}
			if st.ArmOverFoulLine {
				what = append(what, "arm over the foul line")
			}
			what = append(what, st.Notes...)
			if len(what) > 0 {
				fmt.Fprintf(out, "stroke %d (%s): %s\n", st.Number, st.Side, strings.Join(what, "; "))
			}
		}
	}
	for _, b := range tr.Boards {
		fmt.Fprintf(out, "board %d: %s won in %d strokes (%s)\n", b.Board, b.Winner, b.Strokes, b.Reason)
	}
	for _, n := range tr.Notes {
		fmt.Fprintf(out, "note: %s\n", n)
	}
	count := map[board.Kind]int{}
	for _, d := range tr.Final().Discs {
		if d.State.OnBoard() {
			count[d.Kind]++
		}
	}
	fmt.Fprintf(out, "on the board at the end: %d white, %d black, queen %s, striker %s\n",
		count[board.White], count[board.Black], yesNo(count[board.Queen] > 0), yesNo(count[board.Striker] > 0))
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
