package daemon

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/corpus"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/match"
	"github.com/boardcam/boardcam/rules"
)

const videosDir = "../testdata/videos"

func foulsIn(e rules.Event) []string {
	var fs []rules.Foul
	switch v := e.(type) {
	case rules.Stroke:
		fs = v.Fouls
	case rules.Place:
		fs = v.Fouls
	case rules.FoulCall:
		fs = v.Fouls
	}
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = string(f)
	}
	return out
}

// The corpus with perfect vision: the daemon fed each clip's true physical
// events (as a perfect tracker would report them) journals exactly the
// decisions of the clip's ground truth and ends with the truth's score (a
// clip that starts mid-board is resumed from its position line).
func TestCorpusTruthEvents(t *testing.T) {
	truths, _ := filepath.Glob(filepath.Join(videosDir, "*.truth.json*"))
	if len(truths) == 0 {
		t.Skip("no corpus truth files")
	}
	sort.Strings(truths)
	for _, tp := range truths {
		name := strings.SplitN(filepath.Base(tp), ".", 2)[0]
		t.Run(name, func(t *testing.T) {
			truth, err := corpus.ReadTruth(tp)
			if err != nil {
				t.Fatal(err)
			}
			if truth.Judgement == nil {
				t.Skip("no judgement in the truth")
			}
			path := filepath.Join(t.TempDir(), name+".jsonl")
			f, err := os.Create(path)
			if err != nil {
				t.Fatal(err)
			}
			w := bufio.NewWriter(f)
			// A perfect calibration carries the board's lines as drawn
			// (as a real one carries the lines it measured), so the
			// referee judges a clip drawn off the figures by its lines.
			m, err := truth.DrawnMarkings(videosDir, board.ICF())
			if err != nil {
				t.Fatal(err)
			}
			if m != nil && len(truth.Cameras) > 0 {
				c := truth.Cameras[0].CornersPx
				cal := events.Event{Type: events.Calibrated, CornersPx: c[:], Markings: m}
				b, _ := cal.Marshal()
				w.Write(append(b, '\n'))
			}
			for _, e := range truth.Events {
				b, _ := e.Marshal()
				w.Write(append(b, '\n'))
			}
			w.Flush()
			f.Close()
			rs := truth.Referee
			cfg := testConfig(t)
			cfg.Source.URI = "events:" + path
			nopace := false
			cfg.Source.Pace = &nopace
			cfg.Match.Profile = rs.Profile
			cfg.Match.Players = nil
			for _, p := range rs.Players {
				cfg.Match.Players = append(cfg.Match.Players, fmt.Sprintf("%s=%s", p.Seat, p.Name))
			}
			if len(rs.Players) == 4 {
				cfg.Match.Teams = []string{rs.Teams[0], rs.Teams[1]}
			}
			cfg.Match.Breaker = rs.Break.String()
			d := &Daemon{Sight: testSight, Config: cfg, Logger: quietLogger()}
			if rs.Mode == corpus.ModeResume || rs.Mode == corpus.ModeMidBoard {
				d.Resume = filepath.Join(t.TempDir(), "so-far.log")
				if err := os.WriteFile(d.Resume, []byte(rs.Log), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			waitRun(t, runDaemon(t, d))
			d.Close()
			jf, err := match.ReadJournal(d.JournalPath(), false)
			if err != nil {
				t.Fatal(err)
			}
			var got, want []string
			for _, r := range jf.Records {
				if r.Event != nil && r.Meta.By != match.ByLog {
					got = append(got, rules.FormatEvent(r.Event))
				}
				if r.Meta.Rejected != "" {
					got = append(got, "rejected "+r.Meta.Rejected)
				}
			}
			for _, dc := range truth.Judgement.Decisions {
				if dc.Log != "" {
					want = append(want, dc.Log)
				}
			}
			t.Logf("%s (%s): daemon %v; truth %v", name, rs.Mode, got, want)
			{
				if strings.Join(got, "|") != strings.Join(want, "|") {
					t.Errorf("decisions %v, want %v", got, want)
				}
				fin := truth.Judgement.Final
				st := d.State()
				if fingerprintOf(st) != fingerprintOf(*fin) {
					t.Errorf("final %+v, want %+v", fingerprintOf(st), fingerprintOf(*fin))
				}
			}
		})
	}
}
