package sheet

import (
	"bytes"
	"compress/zlib"
	"encoding/csv"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/boardcam/boardcam/rules"
)

// the demo match (testdata/logs/demo.log), with its 26th line decided by
// the umpire and its 27th by a button
func demo(t *testing.T) (*rules.Log, []Line) {
	t.Helper()
	f, err := os.Open("../testdata/logs/demo.log")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lg, err := rules.ParseLog(f)
	if err != nil {
		t.Fatal(err)
	}
	var lines []Line
	for _, e := range lg.Entries {
		l := Line{Line: e.Line, Event: e.Event, By: "auto"}
		switch e.Line {
		case 26:
			l.By, l.Note = "umpire", "seen on the replay"
		case 27:
			l.By = "button"
		}
		lines = append(lines, l)
	}
	return lg, lines
}

func TestCSV(t *testing.T) {
	lg, lines := demo(t)
	s, err := Build(lg.Header, lines)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteCSV(&b, s); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rows[0], ",") != strings.Join(CSVHeader, ",") {
		t.Fatalf("header %v", rows[0])
	}
	by := map[string][][]string{}
	for _, r := range rows[1:] {
		if len(r) != len(CSVHeader) {
			t.Fatalf("row %v", r)
		}
		by[r[0]] = append(by[r[0]], r)
	}
	// the players and the score: Asha 29 (3 boards), Ravi 6 (1)
	if ts := by["team"]; len(ts) != 2 || ts[0][4] != "Asha" || ts[0][5] != "29" || ts[0][2] != "3" || ts[0][6] != "Asha (S)" ||
		ts[1][4] != "Ravi" || ts[1][5] != "6" || ts[1][2] != "1" {
		t.Errorf("teams %v", ts)
	}
	// every board with its winner, points and how; the points add up to
	// the winners' scores
	sum := map[string]int{}
	for _, r := range by["board"] {
		p, d, _ := strings.Cut(r[5], "+")
		n, _ := strconv.Atoi(p)
		m, _ := strconv.Atoi(d)
		sum[r[4]] += n + m
		if r[6] == "" || r[7] == "" {
			t.Errorf("board %s: no how or rule: %v", r[1], r)
		}
	}
	if len(by["board"]) != 4 || sum["Asha"] != 29 || sum["Ravi"] != 6 {
		t.Errorf("boards %v: points %v", by["board"], sum)
	}
	if by["board"][1][5] != "5+1" || !strings.Contains(by["board"][1][6], "last man with the striker") {
		t.Errorf("board 2 (a demand): %v", by["board"][1])
	}
	// every line, each foul line, each decision of the umpire's
	if len(by["stroke"]) != len(lg.Entries) {
		t.Errorf("%d stroke rows for %d lines", len(by["stroke"]), len(lg.Entries))
	}
	wantFouls := 0
	for _, r := range by["stroke"] {
		if r[7] != "" {
			wantFouls++
		}
	}
	if wantFouls == 0 || len(by["foul"]) != wantFouls {
		t.Errorf("%d foul rows, %d stroke rows with a foul", len(by["foul"]), wantFouls)
	}
	if f := by["foul"][0]; f[2] != "26" || f[4] != "Ravi" || f[7] != "push" || f[8] != "umpire" {
		t.Errorf("first foul %v", f)
	}
	if d := by["decision"]; len(d) != 2 || d[0][2] != "26" || !strings.Contains(d[0][6], "seen on the replay") || d[1][8] != "button" {
		t.Errorf("decisions %v", d)
	}
	if r := by["stroke"][0]; r[8] != "camera" {
		t.Errorf("a line the referee decided: by %q", r[8])
	}
	if len(by["signature"]) != 4 || by["signature"][0][4] != "Umpire" {
		t.Errorf("signatures %v", by["signature"])
	}
	if r := by["result"]; len(r) != 1 || !strings.HasPrefix(r[0][6], "Asha wins") {
		t.Errorf("result %v", r)
	}
}

// pdfText is the text shown by the PDF's content streams (fpdf writes
// each string with Tj, its streams deflated).
func pdfText(t *testing.T, pdf []byte) string {
	t.Helper()
	var out strings.Builder
	streams := regexp.MustCompile(`(?s)stream\r?\n(.*?)\r?\nendstream`).FindAllSubmatch(pdf, -1)
	tj := regexp.MustCompile(`\(((?:\\.|[^\\)])*)\) ?Tj`)
	for _, s := range streams {
		content := s[1]
		if r, err := zlib.NewReader(bytes.NewReader(content)); err == nil {
			if b, err := io.ReadAll(r); err == nil {
				content = b
			}
		}
		for _, m := range tj.FindAllSubmatch(content, -1) {
			str := strings.NewReplacer(`\(`, "(", `\)`, ")", `\\`, `\`).Replace(string(m[1]))
			out.WriteString(str)
			out.WriteByte('\n')
		}
	}
	return out.String()
}

func TestPDF(t *testing.T) {
	lg, lines := demo(t)
	s, err := Build(lg.Header, lines)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WritePDF(&b, s); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b.Bytes(), []byte("%PDF-")) {
		t.Fatalf("not a PDF: %q", b.Bytes()[:20])
	}
	text := pdfText(t, b.Bytes())
	flat := strings.Join(strings.Fields(text), " ") // cells wrap their text
	for _, want := range []string{
		"Match sheet", "Rules: icf, singles, first to 29 points", "Asha: Asha (S)", "Ravi: Ravi (N)",
		"Result: Asha wins", "Boards", "Asha pocketed their last man with the striker", "5 (+1 demanded)",
		"Fouls", "push", "Umpire's decisions", "seen on the replay", "button",
		"Signatures", "Umpire", "Asha (captain or player)", "Ravi (captain or player)", "Referee",
		"Every line of the match", "N b !push",
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("the PDF does not show %q", want)
		}
	}
	if t.Failed() {
		t.Logf("text:\n%s", text)
	}
}

// A line the rules refuse names its line.
func TestBuildRefusesIllegalLine(t *testing.T) {
	lg, lines := demo(t)
	lines[3], lines[4] = lines[4], lines[3]
	if _, err := Build(lg.Header, lines); err == nil || !strings.Contains(err.Error(), "line ") {
		t.Errorf("error %v", err)
	}
}
