package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// helpFlags is the flags a command's --help lists (old names are not).
func helpFlags(t *testing.T, name string) map[string]bool {
	t.Helper()
	_, _, help := runCmd(t, "", name, "--help")
	flags := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^  -([a-z][a-z0-9-]*)`).FindAllStringSubmatch(help, -1) {
		flags[m[1]] = true
	}
	return flags
}

// The README's command table lists every command, and its flag table
// ("Command-line flags") says which commands have each flag it lists: each
// command's --help must list the flag, and no other command's may. A row's
// command with a note naming flags ("run (`--profile`)") has those only.
func TestReadmeCommandsAndFlags(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	cmdSec := readme[strings.Index(readme, "\n## Commands"):]
	cmdSec = cmdSec[:strings.Index(cmdSec, "\n### ")]
	for name := range commands {
		if !strings.Contains(cmdSec, "\n| `"+name+"` |") {
			t.Errorf("README's command table does not list %s", name)
		}
	}
	sec := readme[strings.Index(readme, "\n### Command-line flags"):]
	table := strings.Index(sec, "| --- |")
	sec = sec[:table+strings.Index(sec[table:], "\n\n")]
	have := map[string]map[string]bool{}
	for name := range commands {
		have[name] = helpFlags(t, name)
	}
	flagRe := regexp.MustCompile("`--([a-z][a-z0-9-]*)")
	rows := 0
	for _, line := range strings.Split(sec, "\n") {
		cells := strings.Split(line, " | ")
		if len(cells) != 3 || strings.HasPrefix(line, "| flag") || strings.HasPrefix(line, "| ---") {
			continue
		}
		rows++
		var flags []string
		for _, m := range flagRe.FindAllStringSubmatch(cells[0], -1) {
			flags = append(flags, m[1])
		}
		listed := map[string]map[string]bool{} // flag → commands the row lists it for
		for _, f := range flags {
			listed[f] = map[string]bool{}
		}
		for _, item := range regexp.MustCompile(`,\s*(?:[^,(]|\([^)]*\))*`).FindAllString(", "+strings.TrimSuffix(cells[2], " |"), -1) {
			item = strings.TrimSpace(strings.TrimPrefix(item, ","))
			name, note, _ := strings.Cut(item, " (")
			only := flags
			if named := flagRe.FindAllStringSubmatch(note, -1); len(named) > 0 {
				only = nil
				for _, m := range named {
					only = append(only, m[1])
				}
			}
			if _, ok := commands[name]; !ok {
				t.Errorf("README's flag table: %q is not a command (%s)", name, cells[0])
				continue
			}
			for _, f := range only {
				if listed[f] == nil {
					t.Errorf("README's flag table: %s names --%s, not in its row", name, f)
					continue
				}
				listed[f][name] = true
			}
		}
		for _, f := range flags {
			for name := range commands {
				switch {
				case listed[f][name] && !have[name][f]:
					t.Errorf("README's flag table lists --%s for %s, whose --help has no such flag", f, name)
				case !listed[f][name] && have[name][f]:
					t.Errorf("%s has --%s, not listed for it in README's flag table", name, f)
				}
			}
		}
	}
	if rows < 10 {
		t.Errorf("README's flag table: %d rows read", rows)
	}
}

// The daemon's and the eval's documents name every flag of their command.
func TestDocsNameEveryFlag(t *testing.T) {
	for name, doc := range map[string]string{"run": "../../docs/daemon.md", "eval": "../../docs/eval.md"} {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		flags := helpFlags(t, name)
		if len(flags) < 5 {
			t.Errorf("%s --help: %d flags read", name, len(flags))
		}
		for f := range flags {
			if !regexp.MustCompile(`(^|[^a-z0-9-])--` + f + `($|[^a-z0-9-])`).Match(b) {
				t.Errorf("%s does not name %s's --%s", doc, name, f)
			}
		}
	}
}
