package calibrate

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/boardcam/boardcam/internal/realboards"
	"github.com/boardcam/boardcam/render/mounting"
)

// perturbOutcome is what the board search made of one perturbed view.
type perturbOutcome struct {
	found, refused, wrong int
	// over counts the found views with a corner more than 0.5% of the
	// board's width from the annotation but within that plus the
	// annotation's own uncertainty there (the truth is no closer).
	over       int
	worst, sum float64 // corner error of the found, fraction of the board's width
}

func (o *perturbOutcome) add(p perturbOutcome) {
	o.found += p.found
	o.refused += p.refused
	o.wrong += p.wrong
	o.over += p.over
	o.sum += p.sum
	o.worst = math.Max(o.worst, p.worst)
}

func (o perturbOutcome) String() string {
	mean := 0.0
	if o.found > 0 {
		mean = o.sum / float64(o.found)
	}
	return fmt.Sprintf("found %3d (corners mean %.3f%%, worst %.3f%%; %d within the annotation's uncertainty of 0.5%%)  refused %3d  WRONG %d", o.found, 100*mean, 100*o.worst, o.over, o.refused, o.wrong)
}

// perturbSample says which (photo, perturbation) pairs a run checks: all
// of them with BOARDCAM_PERTURB=all (the developer's sweep, a few
// minutes; its figures are in docs/calibration.md), those whose view name
// holds the text of BOARDCAM_PERTURB otherwise when set, else each
// perturbation on one photo in turn (a few seconds in CI).
func perturbSample(photo, pert int, nPhotos int, view string) bool {
	switch sel := os.Getenv("BOARDCAM_PERTURB"); sel {
	case "all":
		return true
	case "":
		return pert%3 == 0 && (pert/3)%nPhotos == photo
	default:
		return strings.Contains(view, sel)
	}
}

// TestPerturbedRealBoards is the robustness check of the board search on
// photos it was not built around: each photo in scope under each of
// realboards.Perturbations (what a real mount and camera do: scale,
// turn, tilt, crop, light and glare, white balance, blur, noise, JPEG),
// the annotation carried through the same transform. Every view is
// found with its worst corner within 0.5% of the board's width (plus
// the annotation's own uncertainty at that corner: the truth is known no
// better), or refused; a view accepted with a corner further off is a
// wrong acceptance and fails the test whatever the view. A view of the whole
// surface (every corner in the picture) of a photo whose own board is
// found must be found too, unless its perturbation is listed in
// perturbMayRefuse with the reason.
func TestPerturbedRealBoards(t *testing.T) {
	dir := realboardsDir(t)
	perts := realboards.Perturbations()
	var anns []realboards.Annotation
	for _, a := range loadAnnotations(t) {
		if a.InScope {
			anns = append(anns, a)
		}
	}
	byPert := map[string]*perturbOutcome{}
	byFamily := map[string]*perturbOutcome{}
	var total perturbOutcome
	var misses []string
	for ai, a := range anns {
		img := readImage(t, filepath.Join(dir, a.File))
		photoFound := func() func() bool {
			var done, found bool
			return func() bool {
				if !done {
					_, _, err := Detect(img, Options{})
					done, found = true, err == nil
				}
				return found
			}
		}()
		for pi, m := range perts {
			if !perturbSample(ai, pi, len(anns), a.File+" ["+m.Name+"]") {
				continue
			}
			if os.Getenv("BOARDCAM_PERTURB") == "" {
				// CI's sample: at most 1.2 mm/px (a 720p camera's view of
				// the board), so that the large photo costs no more.
				m.MMPerPx = math.Max(m.MMPerPx, 1.2)
			}
			view, b, err := mounting.Apply(m, img, a)
			if err != nil {
				t.Fatal(err)
			}
			cal, rep, err := Detect(view, Options{})
			if cal != nil {
				writeDebug(t, safeName(b.File)+".png", view, cal, rep)
			}
			view.Close()
			whole := true
			for _, o := range b.Outside {
				whole = whole && !o
			}
			width := b.Width()
			var o perturbOutcome
			switch {
			case err != nil:
				o.refused = 1
				t.Logf("%-58s refused: %v", b.File, err)
				if whole && photoFound() {
					misses = append(misses, b.File)
				}
			default:
				e := cornerErrors(rep.ImageCorners, annCorners(b))
				mx := math.Max(math.Max(e[0], e[1]), math.Max(e[2], e[3])) / width
				// Beyond the annotation's own uncertainty at some corner.
				beyond := 0.0
				for i := range e {
					beyond = math.Max(beyond, (e[i]-b.Uncertainty[i])/width)
				}
				t.Logf("%-58s width %6.1f px  worst corner %.3f%% (%.1f %.1f %.1f %.1f px)  confidence %.2f  tilt %.0f°  edges %v", b.File, width, 100*mx, e[0], e[1], e[2], e[3], cal.Quality.Score, cal.Tilt(), cal.Quality.Edges)
				if mx > 0.005 {
					o.over = 1
				}
				if beyond > 0.005 {
					o.wrong = 1
					t.Errorf("%s: WRONGLY ACCEPTED: worst corner %.2f px from the annotation, %.2f%% of the %.0f px board beyond the annotation's uncertainty (confidence %.2f)", b.File, mx*width, 100*beyond, width, cal.Quality.Score)
				} else {
					o.found, o.sum, o.worst = 1, mx, mx
				}
			}
			for _, k := range []string{m.Name} {
				if byPert[k] == nil {
					byPert[k] = &perturbOutcome{}
				}
				byPert[k].add(o)
			}
			if byFamily[m.Family()] == nil {
				byFamily[m.Family()] = &perturbOutcome{}
			}
			byFamily[m.Family()].add(o)
			total.add(o)
		}
		img.Close()
	}
	logOutcomes(t, "%-26s %v", byPert)
	logOutcomes(t, "family %-10s %v", byFamily)
	t.Logf("all: %v", total)
	if total.found+total.refused+total.wrong == 0 {
		t.Fatal("no perturbed view checked")
	}
	var unexpected []string
	for _, v := range misses {
		if !perturbMayRefuse(v) {
			unexpected = append(unexpected, v)
		}
	}
	if len(unexpected) > 0 {
		t.Errorf("views of the whole surface refused although the photo's own board is found: %s", strings.Join(unexpected, ", "))
	}
}

// perturbMayRefuse tells whether a perturbed view of the whole surface is
// among those the board search still refuses although the photo itself is
// found (a refusal is safe and says why, but a camera can make these; see
// docs/calibration.md, "Perturbed photos"): defocus of 2 px and more, a
// saturated glare on a corner, light falling to a quarter across the
// board, and the Pi-camera combination on the large photo.
func perturbMayRefuse(view string) bool {
	for _, p := range []string{"[blur/2px]", "[blur/3px]", "[light/glare-corner]", "[light/ramp-0.25-left]", "[combo/pi-cam]"} {
		if strings.HasSuffix(view, p) {
			return true
		}
	}
	return false
}

// logOutcomes logs each key's outcome in the keys' order.
func logOutcomes(t *testing.T, format string, by map[string]*perturbOutcome) {
	t.Helper()
	var keys []string
	for k := range by {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf(format, k, *by[k])
	}
}
