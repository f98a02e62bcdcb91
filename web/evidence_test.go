package web_test

import (
	"net/http"
	"testing"
)

// The evidence and the match sheet: nothing without a source, and the
// sheet only for the umpire.
func TestEvidenceAndSheetRoutes(t *testing.T) {
	e := newEnv(t, nil)
	for path, want := range map[string]int{
		"/api/sheet.pdf":           http.StatusUnauthorized,
		"/api/sheet.csv":           http.StatusUnauthorized,
		"/api/evidence/m-p1.mp4":   http.StatusNotFound,
		"/api/evidence/..%2Fx.jpg": http.StatusNotFound,
		"/overlay/replay":          http.StatusOK,
	} {
		if r, _ := e.get(path, nil); r.StatusCode != want {
			t.Errorf("GET %s: %d, want %d", path, r.StatusCode, want)
		}
	}
	ck, csrf := e.login()
	if r, _ := e.post("/api/replay", "", map[string]string{"X-CSRF-Token": csrf}, ck); r.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("POST /api/replay without evidence: %d", r.StatusCode)
	}
}
