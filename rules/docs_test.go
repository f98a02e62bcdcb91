package rules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProfilesDoc keeps docs/profiles.md in step with the code: every
// profile's section, reading notes, fouls with their references and
// effects, special board endings, and every rule test case must appear in
// it.
func TestProfilesDoc(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "docs", "profiles.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	sections := map[string]string{}
	parts := strings.Split(doc, "\n## ")
	for _, p := range parts[1:] {
		name, body, _ := strings.Cut(p, "\n")
		sections[strings.TrimSpace(name)] = body
	}
	for _, p := range Profiles() {
		sec, ok := sections[p.Name]
		if !ok {
			t.Errorf("docs/profiles.md has no section \"## %s\"", p.Name)
			continue
		}
		for _, n := range p.Notes {
			if !strings.Contains(sec, "- "+n) {
				t.Errorf("%s: note missing from the doc: %q", p.Name, n)
			}
		}
		for _, f := range p.Fouls {
			if !strings.Contains(sec, "| `"+string(f.Code)+"` | "+f.Effect.String()+" |") || !strings.Contains(sec, f.Ref) {
				t.Errorf("%s: foul %s (%s, %s) missing or different in the doc", p.Name, f.Code, f.Effect, f.Ref)
			}
		}
		for _, r := range p.Finish {
			if !strings.Contains(sec, "| "+r.Ref) {
				t.Errorf("%s: board ending %q missing from the doc", p.Name, r.Ref)
			}
		}
		for _, want := range []string{
			"| queen value | " + itoa(p.QueenValue) + " |",
			"| queen cut-off | " + itoa(p.QueenCutoff) + " ",
			"| dues placed by | " + p.DuePlacer + " |",
			"| dues and penalties taken out | " + p.DueTiming.String() + " |",
			"| doubles turn order (and break rotation) | " + p.Direction.String() + " |",
		} {
			if !strings.Contains(sec, want) {
				t.Errorf("%s: the doc does not say %q", p.Name, want)
			}
		}
	}
	for _, list := range [][]ruleCase{icfCases, team3BoardCases, nitDelhiCases, jamshedpurCases, fourBreakCases} {
		for _, c := range list {
			if strings.Contains(c.name, "/illegal/") {
				continue
			}
			if !strings.Contains(doc, "`"+c.name+"`") {
				t.Errorf("test case %s is not listed in docs/profiles.md", c.name)
			}
		}
	}
}

// TestStrokeLogDoc: the worked example of docs/stroke-log.md is
// testdata/logs/demo.log.
func TestStrokeLogDoc(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "stroke-log.md"))
	if err != nil {
		t.Fatal(err)
	}
	demo, err := os.ReadFile(filepath.Join(logsDir, "demo.log"))
	if err != nil {
		t.Fatal(err)
	}
	body := string(demo)
	body = body[strings.Index(body, "profile icf"):]
	if !strings.Contains(string(doc), "```\n"+body+"```") {
		t.Error("the worked example in docs/stroke-log.md is not testdata/logs/demo.log (from its profile line)")
	}
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
