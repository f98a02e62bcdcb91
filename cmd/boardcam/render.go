//go:build !notools

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/render"
	"github.com/boardcam/boardcam/scene"
	"gocv.io/x/gocv"
)

func init() {
	register(command{Name: "render", Summary: "render one synthetic camera frame of a scene to a PNG", Run: cmdRender})
}

const renderDescription = `
Render one frame of a carrom board as the overhead camera would see it, for
eyeballing the renderer and its settings.

The scene is a JSON scene.Scene (discs and hands, board millimetres); without
--scene it is the opening arrangement with the striker on the breaker's base
line. The settings are the YAML 'render:' section of a clip spec (see
docs/rendering.md); fields left out keep their defaults. --truth draws the
true disc outlines, identities and surface corners over the frame.`

func cmdRender(ctx context.Context, args []string, s stdio) error {
	fs := newFlags("render", "[--scene FILE.json] [--settings FILE.yaml] [--out frame.png]", renderDescription, s)
	scenePath := fs.String("scene", "", "scene `file` (JSON scene.Scene); default: the opening arrangement")
	settingsPath := fs.String("settings", "", "render settings `file` (YAML); default: the built-in defaults")
	boardPath := fs.String("board", "", "board geometry `file` (YAML); default: the ICF board")
	out := fs.String("out", "frame.png", "output image `file` (.png or .jpg)")
	seed := fs.Int64("seed", 1, "random seed of the textures, pieces and noise")
	breaker := fs.String("breaker", "S", "breaker's side for the default opening arrangement (S, E, N, W)")
	t := fs.Float64("t", -1, "time in seconds (for knocks and dims); default: the scene's t")
	truth := fs.Bool("truth", false, "draw the ground truth (disc outlines, ids, corners) over the frame")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("unexpected argument %q", fs.Arg(0))
	}
	ext := strings.ToLower(filepath.Ext(*out))
	if ext != ".png" && ext != ".jpg" && ext != ".jpeg" {
		return usageError("--out %q: want a .png or .jpg file", *out)
	}
	side, err := board.ParseSide(*breaker)
	if err != nil {
		return usageError("--breaker: %v", err)
	}
	g := board.ICF()
	if *boardPath != "" {
		if g, err = board.Load(*boardPath); err != nil {
			return err
		}
	}
	set := render.DefaultSettings()
	if *settingsPath != "" {
		if set, err = render.LoadSettings(*settingsPath); err != nil {
			return err
		}
	}
	var sc *scene.Scene
	if *scenePath != "" {
		b, err := os.ReadFile(*scenePath)
		if err != nil {
			return err
		}
		sc = &scene.Scene{}
		if err := json.Unmarshal(b, sc); err != nil {
			return fmt.Errorf("%s: %w", *scenePath, err)
		}
	} else {
		sc = render.OpeningScene(g, side)
	}
	if *t >= 0 {
		sc.T = *t
	}
	r, err := render.New(set, g, *seed)
	if err != nil {
		return err
	}
	defer r.Close()
	frame := gocv.NewMat()
	defer frame.Close()
	if err := r.Render(sc, &frame); err != nil {
		return err
	}
	if *truth {
		r.DrawTruth(&frame, sc)
	}
	if err := render.WriteImage(*out, frame); err != nil {
		return err
	}
	fmt.Fprintf(s.Out, "wrote %s (%dx%d)\n", *out, frame.Cols(), frame.Rows())
	return nil
}
