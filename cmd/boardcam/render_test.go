package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"image/png"
)

func TestRenderCommand(t *testing.T) {
	dir := t.TempDir()
	settings := filepath.Join(dir, "s.yaml")
	if err := os.WriteFile(settings, []byte("width: 320\nheight: 180\nsensor: {supersample: 1}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "f.png")
	code, stdout, stderr := runCmd(t, "", "render", "--settings", settings, "--out", out, "--truth", "--breaker", "E")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "320x180") {
		t.Errorf("output %q", stdout)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 320 || b.Dy() != 180 {
		t.Errorf("wrote %v", b)
	}
	// A scene file.
	sc := filepath.Join(dir, "scene.json")
	os.WriteFile(sc, []byte(`{"t":0,"discs":[{"id":"Q","piece":"queen","pos":{"X":0,"Y":0},"vel":{"X":0,"Y":0},"angle":0,"state":"rest"}]}`), 0o644)
	if code, _, stderr := runCmd(t, "", "render", "--settings", settings, "--scene", sc, "--out", out); code != 0 {
		t.Errorf("with a scene: exit %d: %s", code, stderr)
	}
	// Errors name what is wrong.
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("camera:\n  tilt: 99\n"), 0o644)
	if code, _, stderr := runCmd(t, "", "render", "--settings", bad, "--out", out); code != 1 || !strings.Contains(stderr, "line 2: camera.tilt") {
		t.Errorf("bad settings: exit %d, %q", code, stderr)
	}
	if code, _, stderr := runCmd(t, "", "render", "--out", filepath.Join(dir, "x.gif")); code != 2 || !strings.Contains(stderr, ".png") {
		t.Errorf("bad --out: exit %d, %q", code, stderr)
	}
	if code, _, _ := runCmd(t, "", "render", "--breaker", "up"); code != 2 {
		t.Errorf("bad --breaker: exit %d", code)
	}
	if code, _, stderr := runCmd(t, "", "render", "--scene", filepath.Join(dir, "missing.json"), "--out", out); code != 1 || !strings.Contains(stderr, "missing.json") {
		t.Errorf("missing scene: exit %d, %q", code, stderr)
	}
}
