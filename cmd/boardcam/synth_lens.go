package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/boardcam/boardcam/calibrate"
	"github.com/boardcam/boardcam/corpus"
	"github.com/boardcam/boardcam/render/synth"
)

// lensViews is how many chessboard photos each camera gets: what
// docs/calibration.md asks of a club (10 to 20).
const lensViews = 15

// synthLenses does for every distinct camera of the specs what a club
// does once with a printed chessboard (boardcam calibrate --lens): it
// renders chessboard photos through the camera's lens, fits a lens model
// to them and writes DIR/lenses/cam-ID.lens.json, then the index of which
// clip uses which file. With only (a subset of the specs) the other
// clips' entries are kept.
func synthLenses(ctx context.Context, dir string, specs []*corpus.Spec, all bool, logf func(string, ...any), s stdio) error {
	names, first, cams, err := synth.LensClips(specs)
	if err != nil {
		return err
	}
	ix := &corpus.LensIndex{Pattern: corpus.DefaultChessboardPattern, Clips: map[string]corpus.LensEntry{}}
	if !all {
		if old, err := corpus.ReadLensIndex(dir); err == nil {
			ix = old
		} else if !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	pat := corpus.DefaultChessboardPattern
	cb := calibrate.Chessboard{Cols: pat.Cols, Rows: pat.Rows, Square: pat.Square}
	fps := make([]string, 0, len(names))
	for fp := range names {
		fps = append(fps, fp)
	}
	sort.Strings(fps)
	if err := os.MkdirAll(filepath.Join(dir, corpus.LensDir), 0o755); err != nil {
		return err
	}
	for _, fp := range fps {
		if err := ctx.Err(); err != nil {
			return err
		}
		start := time.Now()
		seed, _ := strconv.ParseUint(fp[:8], 16, 64)
		views, err := synth.ChessboardViews(cams[fp], pat, lensViews, seed)
		if err != nil {
			return fmt.Errorf("%s: %w", first[fp].Name, err)
		}
		viewNames := make([]string, len(views))
		for i := range views {
			viewNames[i] = fmt.Sprintf("chessboard view %d", i+1)
		}
		// The lens file is data, not an event: stamped with a fixed time so
		// that regenerating gives the same bytes.
		lens, rep, err := calibrate.CalibrateLens(views, viewNames, cb, false, time.Unix(0, 0))
		for _, v := range views {
			v.Close()
		}
		if err != nil {
			return fmt.Errorf("lens of %s: %w", first[fp].Name, err)
		}
		for _, r := range rep {
			if !r.Found {
				logf("camera %s: chessboard not found in %s (skipped, as calibrate --lens does)", fp, r.Name)
			}
		}
		file := "cam-" + fp + ".lens.json"
		if err := lens.Save(filepath.Join(dir, corpus.LensDir, file)); err != nil {
			return err
		}
		for _, n := range names[fp] {
			ix.Clips[n] = corpus.LensEntry{File: file, Camera: fp, Views: lens.Images, RMSPx: round3(lens.RMS)}
		}
		logf("camera %s (%v): %d of %d views, rms %.3f px, %.1f s", fp, names[fp], lens.Images, len(views), lens.RMS, time.Since(start).Seconds())
	}
	if err := corpus.WriteLensIndex(dir, ix); err != nil {
		return err
	}
	// Lens files no clip uses any more go.
	used := map[string]bool{}
	for _, e := range ix.Clips {
		used[e.File] = true
	}
	old, _ := filepath.Glob(filepath.Join(dir, corpus.LensDir, "cam-*.lens.json"))
	for _, f := range old {
		if !used[filepath.Base(f)] {
			if err := os.Remove(f); err != nil {
				return err
			}
		}
	}
	tw := tabwriter.NewWriter(s.Out, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "clip\tlens file\tviews\trms px\n")
	clips := make([]string, 0, len(ix.Clips))
	for n := range ix.Clips {
		clips = append(clips, n)
	}
	sort.Strings(clips)
	for _, n := range clips {
		e := ix.Clips[n]
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.3f\n", n, e.File, e.Views, e.RMSPx)
	}
	tw.Flush()
	fmt.Fprintf(s.Out, "%d cameras, lens files in %s\n", len(fps), filepath.Join(dir, corpus.LensDir))
	return nil
}

func round3(v float64) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'f', 3, 64), 64)
	return r
}
