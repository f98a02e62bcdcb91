package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardcam/boardcam/referee"
	"github.com/boardcam/boardcam/rules"
)

const scenarioDir = "../../testdata/scenarios/"

// simEvents runs `boardcam simulate --json` on an example scenario.
func simEvents(t *testing.T, name string, extra ...string) string {
	t.Helper()
	args := append([]string{"simulate", "--json"}, extra...)
	code, out, errOut := runCmd(t, "", append(args, scenarioDir+name)...)
	if code != 0 {
		t.Fatalf("simulate %s: exit %d: %s", name, code, errOut)
	}
	return out
}

// The stroke log printed with --log replays, with the rules engine, to the
// state the referee's own engine reached: simulate | referee --log | score.
func TestRefereeLogReplays(t *testing.T) {
	evs := simEvents(t, "autoplay-board.yaml")
	code, logText, errOut := runCmd(t, evs, "referee", "--log", "-")
	if code != 0 {
		t.Fatalf("referee: exit %d: %s", code, errOut)
	}
	lg, err := rules.ParseLog(strings.NewReader(logText))
	if err != nil {
		t.Fatalf("the log does not parse: %v\n%s", err, logText)
	}
	if lg.Header.Profile != "icf" || lg.Header.Break.String() != "S" || len(lg.Entries) < 20 {
		t.Errorf("header %+v, %d entries", lg.Header, len(lg.Entries))
	}
	m, err := lg.Play(nil)
	if err != nil {
		t.Fatalf("the log does not play: %v", err)
	}
	st := m.State()
	if len(st.Boards) != 1 || st.Boards[0].Winner < 0 {
		t.Errorf("boards %+v", st.Boards)
	}
	// The same through `boardcam score`.
	code, out, errOut := runCmd(t, logText, "score", "-")
	if code != 0 || !strings.Contains(out, "board 1") {
		t.Errorf("score: exit %d %s %s", code, out, errOut)
	}
	// The text form ends with the same result.
	code, text, _ := runCmd(t, evs, "referee", "-")
	if code != 0 || !strings.Contains(text, st.Boards[0].Reason) {
		t.Errorf("text output lacks %q", st.Boards[0].Reason)
	}
}

func TestRefereeJSONEvidence(t *testing.T) {
	evs := simEvents(t, "arm-foul.yaml")
	code, out, errOut := runCmd(t, evs, "referee", "--json", "--state", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 1 {
		t.Fatalf("%d lines: %s", len(lines), out)
	}
	var d struct {
		referee.Decision
		Accepted *bool       `json:"accepted"`
		State    rules.State `json:"state"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &d); err != nil {
		t.Fatal(err)
	}
	if d.Kind != referee.KindStroke || d.Accepted == nil || !*d.Accepted || d.Log != "W - !hand_over_foul_line" {
		t.Errorf("decision %s", lines[0])
	}
	if len(d.Calls) != 1 || d.Calls[0].Rule == "" || d.Calls[0].Frame == 0 || d.Calls[0].Status != referee.Applied {
		t.Errorf("calls %+v", d.Calls)
	}
	if d.State.Turn.String() != "E" || d.State.Fouls[0] != "hand_over_foul_line" {
		t.Errorf("state %+v", d.State)
	}
	// The text form shows the call and its rule.
	_, text, _ := runCmd(t, evs, "referee", "-")
	if !strings.Contains(text, "foul hand_over_foul_line against W [applied]") || !strings.Contains(text, "Striking 5") {
		t.Errorf("text:\n%s", text)
	}
}

func TestRefereeSeating(t *testing.T) {
	evs := simEvents(t, "four-sides.yaml")
	// Four sides strike: doubles, inferred.
	code, out, errOut := runCmd(t, evs, "referee", "--log", "-")
	if code != 0 || !strings.Contains(out, `team "South & North" S:South N:North`) {
		t.Errorf("inferred doubles: exit %d %s\n%s", code, errOut, out)
	}
	code, out, errOut = runCmd(t, evs, "referee", "--log", "--players", "S=Ravi,E=Asha,N=Meena,W=Kiran", "--teams", "Blue,Red", "-")
	if code != 0 || !strings.Contains(out, "team Blue S:Ravi N:Meena") || !strings.Contains(out, "team Red E:Asha W:Kiran") {
		t.Errorf("named doubles: exit %d %s\n%s", code, errOut, out)
	}
	// Singles given, streamed: --breaker names the breaker.
	code, out, errOut = runCmd(t, simEvents(t, "break.yaml"), "referee", "--log", "--players", "S=Ravi,N=Meena", "--breaker", "S", "-")
	if code != 0 || !strings.Contains(out, "player S Ravi") || !strings.Contains(out, "break S") {
		t.Errorf("singles: exit %d %s\n%s", code, errOut, out)
	}
}

func TestRefereeRejected(t *testing.T) {
	// queen-covered.yaml starts in the middle of a board, which the rules
	// engine cannot: S's second stroke is out of turn for it.
	code, out, errOut := runCmd(t, simEvents(t, "queen-covered.yaml"), "referee", "--log", "-")
	if code != 1 || !strings.Contains(errOut, "rejected 1 of 2") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	if !strings.Contains(out, "# rejected at frame") || !strings.Contains(out, "it is North (N)'s turn") {
		t.Errorf("log:\n%s", out)
	}
	if _, err := rules.ParseLog(strings.NewReader(out)); err != nil {
		t.Errorf("the log with a rejection does not parse: %v", err)
	}
}

func TestRefereeSkipsSceneLines(t *testing.T) {
	evs := simEvents(t, "single-pocket.yaml", "--frames", "--fps", "30")
	code, out, errOut := runCmd(t, evs, "referee", "-")
	if code != 0 || !strings.Contains(out, "stroke: S w") || !strings.Contains(out, "scene lines skipped") {
		t.Errorf("exit %d %s\n%s", code, errOut, out)
	}
}

func TestRefereeErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	start := `{"type":"stroke_start","frame":1,"t":0.1,"side":"S","striker_mm":[0,246.6]}` + "\n"
	for _, tc := range []struct {
		name, text, want string
	}{
		{"bad.jsonl", start + "{not json\n", "bad.jsonl:2: not a JSON event"},
		{"field.jsonl", start + `{"type":"contact","frame":2,"a":"S","b":"W1","speed":3}` + "\n", `field.jsonl:2: contact event: json: unknown field "speed"`},
		{"invalid.jsonl", start + `{"type":"pocketed","frame":3,"id":"W1"}` + "\n", "invalid.jsonl:2: events: pocketed event at frame 3 has no piece"},
		{"type.jsonl", `{"type":"teleport","frame":3}` + "\n", `type.jsonl:1: events: unknown event type "teleport"`},
	} {
		code, _, errOut := runCmd(t, "", "referee", write(tc.name, tc.text))
		if code != 1 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%s: exit %d, %q, want %q", tc.name, code, errOut, tc.want)
		}
	}
	for _, args := range [][]string{
		{"referee"},
		{"referee", "--json", "--log", "-"},
		{"referee", "--profile", "fide", "-"},
		{"referee", "--players", "S=Ravi", "-"},
		{"referee", "--players", "S=Ravi,E=Asha", "-"},
		{"referee", "--breaker", "X", "-"},
		{"referee", "--tolerance", "-1", "-"},
		{"referee", "--format", "points-99", "-"},
	} {
		if code, _, errOut := runCmd(t, start, args...); code != 2 {
			t.Errorf("%v: exit %d, %q", args, code, errOut)
		}
	}
	if code, _, errOut := runCmd(t, "", "referee", filepath.Join(dir, "missing.jsonl")); code != 1 || !strings.Contains(errOut, "missing.jsonl") {
		t.Errorf("missing file: exit %d %q", code, errOut)
	}
}

// --play plays a scenario under the rules: a doubles match with no
// decision refused, whose log replays.
func TestRefereePlay(t *testing.T) {
	code, logText, errOut := runCmd(t, "", "referee", "--play", scenarioDir+"autoplay-match.yaml", "--seed", "5", "--log")
	if code != 0 || strings.Contains(logText, "# rejected") {
		t.Fatalf("exit %d: %s\n%s", code, errOut, logText)
	}
	lg, err := rules.ParseLog(strings.NewReader(logText))
	if err != nil {
		t.Fatal(err)
	}
	m, err := lg.Play(nil)
	if err != nil {
		t.Fatalf("the log does not play: %v", err)
	}
	if st := m.State(); !st.Doubles || len(st.Boards) != 3 {
		t.Errorf("boards %+v", st.Boards)
	}
	for _, args := range [][]string{
		{"referee", "--play", scenarioDir + "break.yaml", "events.jsonl"},
		{"referee", "--seed", "3", "-"},
		{"referee", "--play", scenarioDir + "break.yaml", "--breaker", "N"},
	} {
		if code, _, errOut := runCmd(t, "", args...); code != 2 {
			t.Errorf("%v: exit %d %q", args, code, errOut)
		}
	}
	if code, _, errOut := runCmd(t, "", "referee", "--play", scenarioDir+"single-pocket.yaml"); code != 1 || !strings.Contains(errOut, "nineteen") {
		t.Errorf("mid-board scenario: exit %d %q", code, errOut)
	}
}
