package realboards

import (
	"strings"
	"testing"
)

func TestLoadCommittedAnnotations(t *testing.T) {
	anns, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if len(anns) < 6 {
		t.Fatalf("%d annotations, want every photo", len(anns))
	}
	var inScope, pieces int
	for _, a := range anns {
		if a.InScope {
			inScope++
		}
		pieces += len(a.Pieces)
	}
	if inScope == 0 || pieces == 0 {
		t.Errorf("%d in scope, %d pieces", inScope, pieces)
	}
}

func TestValidateRejects(t *testing.T) {
	good := Annotation{Version: 1, ImageSize: [2]int{100, 100}, InScope: true,
		Corners:     [4][2]float64{{10, 10}, {90, 10}, {90, 90}, {10, 90}},
		Uncertainty: [4]float64{1, 1, 1, 1},
		Pieces:      []Piece{{Class: "white", Center: [2]float64{50, 50}, Radius: 5}}}
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	cases := map[string]func(a *Annotation){
		"version":         func(a *Annotation) { a.Version = 2 },
		"corners_outside": func(a *Annotation) { a.Corners[0] = [2]float64{-20, 10} },
		"uncertainty":     func(a *Annotation) { a.Uncertainty[2] = 0 },
		"scope_note":      func(a *Annotation) { a.InScope = false },
		"class":           func(a *Annotation) { a.Pieces[0].Class = "red" },
		"radius":          func(a *Annotation) { a.Pieces[0].Radius = 0 },
		"partial":         func(a *Annotation) { a.Pieces[0].Center = [2]float64{120, 50} },
	}
	for want, mutate := range cases {
		a := good
		a.Pieces = append([]Piece(nil), good.Pieces...)
		mutate(&a)
		if err := a.Validate(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v", want, err)
		}
	}
}
