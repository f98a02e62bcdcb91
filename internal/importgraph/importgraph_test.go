package importgraph_test

import (
	"bufio"
	"bytes"
	"os/exec"
	"sort"
	"strings"
	"testing"
)

const (
	module = "github.com/boardcam/boardcam/"
	gocv   = "gocv.io/x/gocv"
)

// allowed are the packages (with everything under them) that may link
// OpenCV.
var allowed = []string{"calibrate", "vision", "render", "cmd/boardcam",
	// Mats to and from JPEG/PNG files and video (libjpeg-turbo, Go's PNG,
	// FFmpeg's libraries) for the packages above, so that none links
	// OpenCV's imgcodecs or videoio (issue 15, docs/memory.md).
	"internal/cvio"}

// notYet are packages outside the allowed set that still link OpenCV, each
// with the reason. The list only shrinks: a package that no longer links
// gocv must be taken off it (the test says so). It is empty since issue 16
// (corpus, eval, pipeline/evalpipe, daemon and internal/realboards were the
// last): nothing may be added to it.
var notYet = map[string]string{}

func isAllowed(rel string) bool {
	for _, a := range allowed {
		if rel == a || strings.HasPrefix(rel, a+"/") {
			return true
		}
	}
	return false
}

// TestOpenCVStaysInItsPackages lists every package of the module with its
// dependencies (go list -deps, no build) and fails for each package
// outside the allowed set that links gocv and is not on notYet, and for
// each package on notYet that no longer does.
func TestOpenCVStaysInItsPackages(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go tool is not on PATH")
	}
	cmd := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Deps}} {{.}}{{end}}`, module+"...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	links := map[string]bool{}
	n := 0
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 || !strings.HasPrefix(f[0], module) {
			continue
		}
		n++
		rel := strings.TrimPrefix(f[0], module)
		for _, d := range f[1:] {
			if d == gocv {
				links[rel] = true
				break
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n < 20 || !links["vision"] {
		t.Fatalf("go list found %d packages, vision linking gocv: %v: the listing is not what this test expects", n, links["vision"])
	}
	var bad []string
	for rel := range links {
		if !isAllowed(rel) && notYet[rel] == "" {
			bad = append(bad, rel)
		}
	}
	sort.Strings(bad)
	for _, rel := range bad {
		t.Errorf("%s links OpenCV (gocv) but is not calibrate, vision, render or cmd/boardcam: take the contract types from package sight and have the OpenCV parts injected (go list -deps %s%s | grep gocv)", rel, module, rel)
	}
	for rel, why := range notYet {
		if !links[rel] {
			t.Errorf("%s no longer links OpenCV: take it off notYet in importgraph_test.go (the reason it had: %s)", rel, why)
		}
	}
}

// TestAllowedPrefixes guards isAllowed itself.
func TestAllowedPrefixes(t *testing.T) {
	for rel, want := range map[string]bool{
		"vision": true, "vision/hands": true, "render/sheet": true, "cmd/boardcam": true, "calibrate": true,
		"visionary": false, "tracker": false, "cmd/other": false, "sight": false, "daemon": false,
	} {
		if got := isAllowed(rel); got != want {
			t.Errorf("isAllowed(%q) = %v, want %v", rel, got, want)
		}
	}
}

// cgoFree are packages that must build with CGO_ENABLED=0: nothing they
// depend on outside the standard library has cgo files (OpenCV, libjpeg,
// libav…); the picture work they need comes through interfaces
// (overlay.Painter, sight.Image) from cmd/boardcam.
var cgoFree = []string{"corpus", "eval", "pipeline/evalpipe", "render/look", "internal/realboards", "evidence", "internal/overlay", "web", "web/webtest", "web/internal/fakeserver", "sight", "tracker", "match", "mqtt", "tournament"}

// TestCgoFreePackages lists the dependencies of cgoFree (go list, no
// build) and fails for each package outside the standard library with cgo
// files.
func TestCgoFreePackages(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go tool is not on PATH")
	}
	args := []string{"list", "-deps", "-f", `{{.ImportPath}} {{.Standard}} {{len .CgoFiles}}`}
	for _, p := range cgoFree {
		args = append(args, module+p)
	}
	cmd := exec.Command("go", args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) != 3 {
			continue
		}
		n++
		if f[1] == "false" && f[2] != "0" {
			t.Errorf("%s has cgo files, yet one of %v depends on it: they must build with CGO_ENABLED=0 (go list -deps … | grep %s)", f[0], cgoFree, f[0])
		}
	}
	if n < len(cgoFree) {
		t.Fatalf("go list listed %d packages: not what this test expects", n)
	}
}
