package sight

import "testing"

type fakeImage struct{ w, h int }

func (f *fakeImage) Rows() int    { return f.h }
func (f *fakeImage) Cols() int    { return f.w }
func (f *fakeImage) Empty() bool  { return f.w == 0 || f.h == 0 }
func (f *fakeImage) Close() error { f.w, f.h = 0, 0; return nil }

func TestSize(t *testing.T) {
	img := &fakeImage{w: 1280, h: 720}
	if w, h := Size(img); w != 1280 || h != 720 {
		t.Fatalf("Size = %d×%d, want 1280×720", w, h)
	}
	img.Close()
	if w, h := Size(img); w != 0 || h != 0 {
		t.Fatalf("Size of a closed image = %d×%d, want 0×0", w, h)
	}
	if w, h := Size(nil); w != 0 || h != 0 {
		t.Fatalf("Size(nil) = %d×%d, want 0×0", w, h)
	}
}
