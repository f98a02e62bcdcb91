package main

import (
	"strings"
	"testing"
)

// A package whose binary timed out: the output of the test that never
// ended (the panic and the test it names) is shown, and the run fails.
func TestTimedOutPackageShowsWhy(t *testing.T) {
	in := strings.Join([]string{
		`{"Action":"start","Package":"m/a/b"}`,
		`{"Action":"run","Package":"m/a/b","Test":"TestQuick"}`,
		`{"Action":"output","Package":"m/a/b","Test":"TestQuick","Output":"=== RUN   TestQuick\n"}`,
		`{"Action":"pass","Package":"m/a/b","Test":"TestQuick","Elapsed":0.5}`,
		`{"Action":"run","Package":"m/a/b","Test":"TestSlow"}`,
		`{"Action":"output","Package":"m/a/b","Test":"TestSlow","Output":"=== RUN   TestSlow\n"}`,
		`{"Action":"output","Package":"m/a/b","Test":"TestSlow","Output":"panic: test timed out after 20m0s\n"}`,
		`{"Action":"output","Package":"m/a/b","Output":"FAIL\tm/a/b\t1200.1s\n"}`,
		`{"Action":"fail","Package":"m/a/b","Elapsed":1200.1}`,
	}, "\n")
	var out strings.Builder
	if code := report(strings.NewReader(in), &out, 5, ""); code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	got := out.String()
	for _, want := range []string{"panic: test timed out after 20m0s", "=== RUN   TestSlow", "FAIL\tm/a/b"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "=== RUN   TestQuick") {
		t.Errorf("a passed test's output shown:\n%s", got)
	}
}

func TestTestEvent(t *testing.T) {
	for line, want := range map[string][2]string{
		"\x16=== RUN   TestA\n":                {"RUN", "TestA"},
		"    \x16--- PASS: TestA/b (0.00s)\n":  {"PASS", "TestA/b"},
		"=== PAUSE TestB\n":                    {"PAUSE", "TestB"},
		"\x16=== CONT  TestB\n":                {"CONT", "TestB"},
		"\x16--- FAIL: TestC (1.20s)\n":        {"FAIL", "TestC"},
		"some output --- PASS: not an event\n": {"", ""},
	} {
		v, n, _ := testEvent([]byte(line))
		if v != want[0] || n != want[1] {
			t.Errorf("%q: %q %q, want %q %q", line, v, n, want[0], want[1])
		}
	}
}

// CPU between two events goes to the tests running then, shared.
func TestAttributeSharesAmongRunning(t *testing.T) {
	lines := "=== RUN   TestA\n=== PAUSE TestA\n=== RUN   TestB\n--- PASS: TestB (1s)\n=== CONT  TestA\n=== RUN   TestC\n=== PAUSE TestC\n=== CONT  TestC\n--- PASS: TestA (1s)\n--- PASS: TestC (1s)\n"
	cpu := 0.0
	var w strings.Builder
	got := attribute(strings.NewReader(lines), &w, func() float64 { cpu++; return cpu })
	if w.String() != lines {
		t.Errorf("output not passed through: %q", w.String())
	}
	// one second before each event and after the last: to the tests
	// running then (none: outside tests)
	want := map[string]float64{"TestA": 1 + 1 + 0.5 + 1 + 0.5, "TestB": 1, "TestC": 0.5 + 0.5 + 1, outsideTests: 4}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %.2f s, want %.2f (all %v)", k, got[k], v, got)
		}
	}
}
