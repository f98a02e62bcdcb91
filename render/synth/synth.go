package synth

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/corpus"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/render"
	"github.com/boardcam/boardcam/scene"
)

// Simulate is corpus.Simulate with the renderer's hand outline: the truth
// calls the arm over the foul line exactly when the picture shows it.
func Simulate(sp *corpus.Spec) (*corpus.Simulation, error) {
	return corpus.Simulate(sp, render.BeyondFoulLine)
}

// Options tune Generate.
type Options struct {
	// Progress, when set, is called every few frames with the clip's name,
	// the frames done and the total.
	Progress func(name string, done, total int)
	// Context cancels a long generation.
	Context context.Context
}

// Generate renders the spec's clip into dir: NAME.mp4 and its truth
// (NAME.truth.json, or NAME.truth.json.gz when large; the other form is
// removed). It verifies the spec first and refuses a clip that does not
// show what its spec expects. Files are written under temporary names and
// renamed at the end, so an interrupted run leaves the old clip intact.
func Generate(sp *corpus.Spec, dir string, opt Options) (*corpus.Truth, error) {
	ctx := opt.Context
	if ctx == nil {
		ctx = context.Background()
	}
	s, err := Simulate(sp)
	if err != nil {
		return nil, err
	}
	if err := s.Verify(); err != nil {
		return nil, err
	}
	tr := s.Trace
	set := sp.Render
	rd, err := render.New(set, tr.Geometry, int64(tr.Seed))
	if err != nil {
		return nil, fmt.Errorf("synth: %s: %w", sp.Path, err)
	}
	defer rd.Close()
	video := corpus.VideoFile(dir, sp.Name)
	tmpVideo := filepath.Join(dir, "."+sp.Name+".tmp.mp4")
	enc, err := render.NewEncoder(tmpVideo, set.Width, set.Height, render.EncoderOptions{FPS: tr.FPS, Video: set.Video})
	if err != nil {
		return nil, fmt.Errorf("synth: %s: %w", sp.Name, err)
	}
	ok := false
	defer func() {
		if !ok {
			enc.Abort()
			os.Remove(tmpVideo)
		}
	}()
	g := tr.Geometry
	truth := &corpus.Truth{Version: corpus.TruthVersion, Referee: s.Setup, Judgement: s.Judgement, Expect: sp.Expect, Events: tr.Events}
	if truth.Events == nil {
		truth.Events = []events.Event{}
	}
	frame := gocv.NewMat()
	defer frame.Close()
	at := func(t float64) *scene.Scene { sc := tr.At(t); return &sc }
	n := tr.NumFrames()
	hiddenSeen := map[string]bool{}
	frames := sha256.New()
	for i := 0; i < n; i++ {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("synth: %s: %w", sp.Name, err)
		}
		sc := tr.Frame(i)
		if err := rd.RenderSampled(&sc, at, &frame); err != nil {
			return nil, fmt.Errorf("synth: %s: frame %d: %w", sp.Name, i, err)
		}
		if err := hashFrame(frames, frame); err != nil {
			return nil, fmt.Errorf("synth: %s: frame %d: %w", sp.Name, i, err)
		}
		if err := enc.Write(frame); err != nil {
			return nil, fmt.Errorf("synth: %s: %w", sp.Name, err)
		}
		cam := rd.CameraAt(sc.T)
		addCamera(truth, i, cam, g)
		ft := frameTruth(i, sc, rd, cam, g, set.Pieces.Thickness)
		for _, d := range ft.Discs {
			if d.State.OnBoard() && d.Hand >= 0.5 {
				hiddenSeen[d.ID] = true
			}
		}
		truth.Frames = append(truth.Frames, ft)
		if opt.Progress != nil && (i%15 == 14 || i == n-1) {
			opt.Progress(sp.Name, i+1, n)
		}
	}
	var missing []string
	for _, id := range sp.Expect.Hidden {
		if !hiddenSeen[id] {
			missing = append(missing, id)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("synth: %s: expect.hidden: no hand hides %s in any frame", sp.Path, strings.Join(missing, ", "))
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("synth: %s: %w", sp.Name, err)
	}
	sum, size, err := corpus.FileSHA256(tmpVideo)
	if err != nil {
		return nil, err
	}
	specSum := sha256.Sum256(sp.Source)
	boardFile := sp.Scenario.BoardFile
	truth.Clip = corpus.ClipInfo{
		Name: sp.Name, Spec: filepath.Base(sp.Path), SpecSHA256: hex.EncodeToString(specSum[:]),
		Video: filepath.Base(video), SHA256: sum, Bytes: size, Seed: tr.Seed, FPS: tr.FPS,
		Width: set.Width, Height: set.Height, Frames: n,
		Board: g.Name, BoardFile: boardFile, Markings: set.Board.Markings,
		ManRadius: g.Radius(board.White), StrikerRadius: g.Radius(board.Striker), Thickness: set.Pieces.Thickness,
		TraceSHA256: tr.Hash(), FramesSHA256: hex.EncodeToString(frames.Sum(nil)),
	}
	truth.Clip.Duration = math.Round(tr.Duration*1000) / 1000
	data, gz, err := truth.Encode()
	if err != nil {
		return nil, err
	}
	truthPath, other := corpus.TruthFile(dir, sp.Name), corpus.TruthFileGz(dir, sp.Name)
	if gz {
		truthPath, other = other, truthPath
	}
	tmpTruth := filepath.Join(dir, "."+sp.Name+".tmp.truth")
	if err := os.WriteFile(tmpTruth, data, 0o644); err != nil {
		return nil, fmt.Errorf("synth: %w", err)
	}
	if err := os.Rename(tmpVideo, video); err != nil {
		os.Remove(tmpTruth)
		return nil, fmt.Errorf("synth: %w", err)
	}
	ok = true
	if err := os.Rename(tmpTruth, truthPath); err != nil {
		return nil, fmt.Errorf("synth: %w", err)
	}
	if err := os.Remove(other); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("synth: %w", err)
	}
	return truth, nil
}

// addCamera records frame i's camera, extending the last segment when the
// pose is the same.
func addCamera(t *corpus.Truth, i int, cam *render.Camera, g *board.Geometry) {
	c := corpus.CameraTruth{From: i, To: i, CornersPx: cam.Corners(g), Homography: cam.Homography(),
		CameraMatrix: cam.CameraMatrix(), DistCoeffs: cam.DistCoeffs(), PxPerMM: cam.Scale()}
	if n := len(t.Cameras); n > 0 {
		last := &t.Cameras[n-1]
		if last.To == i-1 && last.CornersPx == c.CornersPx && last.Homography == c.Homography &&
			last.CameraMatrix == c.CameraMatrix && last.DistCoeffs == c.DistCoeffs {
			last.To = i
			return
		}
	}
	t.Cameras = append(t.Cameras, c)
}

// frameTruth is frame i's discs and hands. The hidden fractions come from
// the renderer's visibility with and without the hands: Outside is what
// lies outside the image, Hand what the hands hide of the rest.
func frameTruth(i int, sc scene.Scene, rd *render.Renderer, cam *render.Camera, g *board.Geometry, thickness float64) corpus.FrameTruth {
	ft := corpus.FrameTruth{I: i, T: corpus.R3(sc.T)}
	vis := rd.Visible(&sc)
	bare := sc
	bare.Hands = nil
	inImg := rd.Visible(&bare)
	for _, d := range sc.Discs {
		dt := corpus.DiscTruth{ID: d.ID, Kind: d.Kind, State: d.State, Pocket: d.Pocket}
		switch d.State {
		case scene.Rest, scene.Moving, scene.Held, scene.Overboard:
			mm := vec2(d.Pos)
			dt.MM = &mm
			dt.Z = corpus.R3(d.Z)
		}
		if v, ok := vis[d.ID]; ok {
			z := math.Max(d.Z, 0) + thickness
			if d.Kind == board.Striker {
				z++
			}
			if x, y, ok := cam.Project(d.Pos, z); ok {
				dt.PX = &[2]corpus.R3{corpus.R3(x), corpus.R3(y)}
			}
			in := inImg[d.ID]
			dt.Outside = corpus.R3(1 - in)
			if in > 0 {
				dt.Hand = corpus.R3(math.Max(0, in-v) / in)
			}
		}
		ft.Discs = append(ft.Discs, dt)
	}
	for _, h := range sc.Hands {
		ft.Hands = append(ft.Hands, corpus.HandTruth{Owner: h.Owner, Elbow: vec2(h.Elbow), Wrist: vec2(h.Wrist), Fingertip: vec2(h.Fingertip),
			ArmWidth: corpus.R3(h.ArmWidth), HandWidth: corpus.R3(h.HandWidth), Z: corpus.R3(h.Z), Holding: h.Holding})
	}
	return ft
}

// hashFrame adds an 8-bit BGR frame's pixels, row by row, to h.
func hashFrame(h io.Writer, m gocv.Mat) error {
	if m.Type() != gocv.MatTypeCV8UC3 {
		return fmt.Errorf("frame type %v, want 8-bit BGR", m.Type())
	}
	if m.IsContinuous() {
		b, err := m.DataPtrUint8()
		if err != nil {
			return err
		}
		h.Write(b[:m.Rows()*m.Cols()*3])
		return nil
	}
	b := m.ToBytes()
	h.Write(b)
	return nil
}

// CheckResult is what Check found.
type CheckResult struct {
	// Diffs are the ways the committed clip differs from what its spec
	// and the code make now (none: it regenerates bit for bit).
	Diffs []string
	// Notes are differences that are not the clip's: this machine's
	// encoder wrote other video bytes from the very same frames.
	Notes []string
}

// Check regenerates the spec's clip into the scratch directory tmp and
// compares it with the one committed in dir.
//
// The frames are what the spec and the code determine: when the committed
// truth records their hash (Clip.FramesSHA256), Check compares the frames'
// hash and the truth file byte for byte (the video's recorded SHA-256 and
// size aside), and checks that the committed video is the one its truth
// describes. The video's bytes are the machine's x264's: another CPU
// writes other bytes from the same frames (x264's macroblock-tree rate
// control rounds with the CPU's approximate reciprocal, which differs
// between processors), so a video that differs from identical frames is a
// note, not a difference. A truth made before frames were hashed is
// compared as before: video and truth byte for byte.
func Check(sp *corpus.Spec, dir, tmp string, opt Options) (CheckResult, error) {
	var res CheckResult
	fresh, err := Generate(sp, tmp, opt)
	if err != nil {
		return res, err
	}
	diff := func(format string, a ...any) { res.Diffs = append(res.Diffs, fmt.Sprintf(format, a...)) }
	video := filepath.Base(corpus.VideoFile(dir, sp.Name))
	committedPath, err := corpus.FindTruth(dir, sp.Name)
	if err != nil {
		diff("truth: %s is missing", filepath.Base(corpus.TruthFile(dir, sp.Name)))
		return res, nil
	}
	truthName := filepath.Base(committedPath)
	committed, err := corpus.ReadTruth(committedPath)
	if err != nil {
		diff("truth: %v", err)
		return res, nil
	}
	vsum, vsize, err := corpus.FileSHA256(corpus.VideoFile(dir, sp.Name))
	if err != nil {
		diff("video: %s is missing", video)
		vsum = ""
	}
	short := func(s string) string {
		if len(s) > 12 {
			return s[:12] + "…"
		}
		return s
	}
	want := *fresh
	if committed.Clip.FramesSHA256 == "" {
		// Only the video's bytes can show that its frames are the same.
		if vsum != "" && vsum != fresh.Clip.SHA256 {
			diff("video: %s differs (committed sha256 %s, regenerated %s)", video, short(vsum), short(fresh.Clip.SHA256))
		}
	} else {
		if vsum != "" && (vsum != committed.Clip.SHA256 || vsize != committed.Clip.Bytes) {
			diff("video: %s differs from the video its truth describes (sha256 %s, the truth records %s)", video, short(vsum), short(committed.Clip.SHA256))
		}
		switch {
		case fresh.Clip.FramesSHA256 != committed.Clip.FramesSHA256:
			diff("frames: the rendered frames differ (committed frames_sha256 %s, regenerated %s)", short(committed.Clip.FramesSHA256), short(fresh.Clip.FramesSHA256))
		case fresh.Clip.SHA256 != committed.Clip.SHA256:
			res.Notes = append(res.Notes, fmt.Sprintf("video: %s is encoded differently on this machine from identical frames (committed sha256 %s, here %s): its ffmpeg/x264 or CPU differs from the one that made it; the committed video stands",
				video, short(committed.Clip.SHA256), short(fresh.Clip.SHA256)))
		}
		want.Clip.SHA256, want.Clip.Bytes = committed.Clip.SHA256, committed.Clip.Bytes
	}
	// The frames' hash is compared above (or absent from an older truth).
	want.Clip.FramesSHA256 = committed.Clip.FramesSHA256
	data, _, err := want.Encode()
	if err != nil {
		return res, err
	}
	old, err := os.ReadFile(committedPath)
	if err != nil {
		return res, fmt.Errorf("synth: %w", err)
	}
	if freshPath, err := corpus.FindTruth(tmp, sp.Name); err == nil && filepath.Base(freshPath) != truthName {
		diff("truth: committed as %s, regenerated as %s", truthName, filepath.Base(freshPath))
	} else if !bytes.Equal(data, old) {
		a, b := sha256.Sum256(old), sha256.Sum256(data)
		diff("truth: %s differs (committed sha256 %s, regenerated %s)", truthName, short(hex.EncodeToString(a[:])), short(hex.EncodeToString(b[:])))
	}
	return res, nil
}

func vec2(v board.Vec) [2]corpus.R3 { return [2]corpus.R3{corpus.R3(v.X), corpus.R3(v.Y)} }
