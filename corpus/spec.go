package corpus

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/boardcam/boardcam/render/look"
	"github.com/boardcam/boardcam/sim"
)

// MaxSeconds is the longest a corpus clip may run unless its spec says
// otherwise (expect.max_seconds, used by the demo clip).
const MaxSeconds = 8.0

// Spec is one clip spec: a simulator scenario with the renderer's settings
// (its render: section) and what the clip must show (its expect: section).
type Spec struct {
	// Name is the clip's name: the spec file's name without .yaml. The
	// video is NAME.mp4 and the truth NAME.truth.json beside it.
	Name string
	// Path is the spec file.
	Path string
	// Scenario is the simulator scenario (the file without expect:).
	Scenario *sim.Scenario
	// Render is the renderer's settings; Render.FPS is the scenario's fps.
	Render look.Settings
	// Expect is what the clip must show.
	Expect Expect
	// Source is the spec file's bytes (hashed into the truth).
	Source []byte
}

// LoadSpec reads a clip spec. Errors name the file, the line and the field.
func LoadSpec(path string) (*Spec, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	return ParseSpec(b, path)
}

// ParseSpec reads a clip spec from YAML; path names it in errors and
// anchors the files it refers to (a board description).
func ParseSpec(b []byte, path string) (*Spec, error) {
	name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	var doc yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(b)).Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("corpus: %s: empty clip spec", path)
		}
		return nil, fmt.Errorf("corpus: %s: %w", path, err)
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("corpus: %s:%d: a clip spec is a mapping (scenario fields, render:, expect:)", path, root.Line)
	}
	// The simulator does not know expect:: blank its lines (so that line
	// numbers in the simulator's errors stay those of the file).
	var expectNode, renderNode, fpsNode *yaml.Node
	src := b
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		switch k.Value {
		case "expect":
			expectNode = v
			end := -1 // to the end of the file
			if i+2 < len(root.Content) {
				end = root.Content[i+2].Line
			}
			src = blankLines(b, k.Line, end)
		case "render":
			renderNode = v
		case "fps":
			fpsNode = v
		}
	}
	sc, err := sim.Parse(src, path)
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	if fpsNode == nil {
		return nil, fmt.Errorf("corpus: %s:%d: fps: a clip spec must give the frame rate (30, 60 or 120)", path, root.Line)
	}
	if sc.FPS != 30 && sc.FPS != 60 && sc.FPS != 120 {
		return nil, fmt.Errorf("corpus: %s:%d: fps: %d; corpus clips run at 30, 60 or 120 fps", path, fpsNode.Line, sc.FPS)
	}
	set, err := look.DecodeSettings(renderNode)
	if err != nil {
		return nil, fmt.Errorf("corpus: %s: render: %w", path, err)
	}
	if renderNode != nil {
		for i := 0; i+1 < len(renderNode.Content); i += 2 {
			if k := renderNode.Content[i]; k.Value == "fps" && set.FPS != sc.FPS {
				return nil, fmt.Errorf("corpus: %s:%d: render.fps %d differs from the scenario's fps %d (leave it out: the clip's fps is the scenario's)", path, k.Line, set.FPS, sc.FPS)
			}
		}
	}
	set.FPS = sc.FPS
	sp := &Spec{Name: name, Path: path, Scenario: sc, Render: set, Source: b}
	if expectNode == nil {
		return nil, fmt.Errorf("corpus: %s:%d: no expect: section (say what the clip must show)", path, root.Line)
	}
	if sp.Expect, err = parseExpect(expectNode, path); err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	return sp, nil
}

// blankLines empties lines from..to-1 (1-based; to < 0: to the end) of b,
// keeping the line count.
func blankLines(b []byte, from, to int) []byte {
	lines := bytes.SplitAfter(b, []byte("\n"))
	var out bytes.Buffer
	for i, l := range lines {
		n := i + 1
		if n >= from && (to < 0 || n < to) {
			if bytes.HasSuffix(l, []byte("\n")) {
				out.WriteByte('\n')
			}
			continue
		}
		out.Write(l)
	}
	return out.Bytes()
}

// SpecFiles lists the clip specs in dir (every *.yaml directly in it),
// sorted by name.
func SpecFiles(dir string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	sort.Strings(files)
	if len(files) == 0 {
		return nil, fmt.Errorf("corpus: no clip specs (*.yaml) in %s", dir)
	}
	return files, nil
}

// LoadDir reads every clip spec in dir.
func LoadDir(dir string) ([]*Spec, error) {
	files, err := SpecFiles(dir)
	if err != nil {
		return nil, err
	}
	var specs []*Spec
	var errs []error
	for _, f := range files {
		sp, err := LoadSpec(f)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		specs = append(specs, sp)
	}
	return specs, errors.Join(errs...)
}

// VideoFile, TruthFile and the like name a clip's files in dir.
func VideoFile(dir, name string) string { return filepath.Join(dir, name+".mp4") }

// TruthFile is the plain JSON truth file of clip name in dir.
func TruthFile(dir, name string) string { return filepath.Join(dir, name+".truth.json") }

// TruthFileGz is the gzip-compressed truth file of clip name in dir.
func TruthFileGz(dir, name string) string { return filepath.Join(dir, name+".truth.json.gz") }
