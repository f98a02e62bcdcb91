package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/corpus"
	"github.com/boardcam/boardcam/eval"
	"github.com/boardcam/boardcam/match"
	"github.com/boardcam/boardcam/rules"
)

// A corpus clip played through `boardcam run` is judged against its truth
// by what the journal says: the events the daemon applied, then the
// decisions it holds for the umpire. "Never silently wrong" is then a
// property of the journal:
//
//   - right: no decision held, and the events applied are the truth's,
//     one for one (so are the score and the fouls);
//   - held: the events applied are the first of the truth's, one for one,
//     and the next decision waits for the umpire, uncertain, with its
//     reasons (the ones after it wait behind it);
//   - wrong: anything else — an event applied that the truth does not
//     have at that place, or one missing with nothing held.

// Verdicts.
const (
	verdictRight = "right"
	verdictHeld  = "held"
	verdictWrong = "wrong"
)

// clipVerdict is how one run of a clip ended.
type clipVerdict struct {
	Verdict string `json:"verdict"`
	// Applied are the events the daemon applied (not those of a stroke log
	// resumed from); Want the truth's.
	Applied []string `json:"applied"`
	Want    []string `json:"want"`
	// Held are the decisions waiting for the umpire at the end: the best
	// guess ("-" for none) and, for uncertain ones, the reasons.
	Held []heldDecision `json:"held,omitempty"`
	// Why says what is wrong ("" when right or held).
	Why string `json:"why,omitempty"`
}

type heldDecision struct {
	ID      string   `json:"id"`
	Guess   string   `json:"guess"`
	Reasons []string `json:"reasons,omitempty"`
	Queued  bool     `json:"queued,omitempty"`
}

// judgeJournal judges the journal of a run against the clip's truth.
func judgeJournal(path string, truth *corpus.Truth) (clipVerdict, error) {
	return judgeJournalEither(path, truth, nil)
}

// judgeJournalEither is judgeJournal where the truth's event i may also be
// applied as either[i] (the independent set: a placement closer to a
// marking than its renderer's markings and ours agree, eval_independent.go).
func judgeJournalEither(path string, truth *corpus.Truth, either map[int]string) (clipVerdict, error) {
	var v clipVerdict
	jf, err := match.ReadJournal(path, false)
	if err != nil {
		return v, err
	}
	for _, r := range jf.Records {
		if r.Event != nil && r.Meta.By != match.ByLog {
			v.Applied = append(v.Applied, rules.FormatEvent(r.Event))
		}
	}
	for _, d := range truth.Judgement.Decisions {
		if e := d.Event(); e != nil {
			v.Want = append(v.Want, rules.FormatEvent(e))
		}
	}
	open, err := jf.Open()
	if err != nil {
		return v, err
	}
	for _, o := range open {
		if !o.Held {
			continue
		}
		v.Held = append(v.Held, heldDecision{ID: o.ID, Guess: orDash(o.Decision.Log), Reasons: o.Decision.Reasons(), Queued: o.Queued})
	}
	for i, alt := range either {
		if i < len(v.Applied) && i < len(v.Want) && v.Applied[i] == alt {
			v.Want[i] = alt
		}
	}
	for i, a := range v.Applied {
		if i >= len(v.Want) {
			v.Verdict, v.Why = verdictWrong, fmt.Sprintf("applied %q, which the truth does not have (it has %d events)", a, len(v.Want))
			return v, nil
		}
		if a != v.Want[i] {
			v.Verdict, v.Why = verdictWrong, fmt.Sprintf("event %d applied %q, the truth %q", i+1, a, v.Want[i])
			return v, nil
		}
	}
	switch {
	case len(v.Held) == 0 && len(v.Applied) == len(v.Want):
		v.Verdict = verdictRight
	case len(v.Held) == 0:
		v.Verdict, v.Why = verdictWrong, fmt.Sprintf("%d events applied, the truth has %d, and nothing waits for the umpire (next: %q)", len(v.Applied), len(v.Want), v.Want[len(v.Applied)])
	case len(v.Held[0].Reasons) == 0:
		v.Verdict, v.Why = verdictWrong, fmt.Sprintf("%s (%s) waits for the umpire without a reason", v.Held[0].ID, v.Held[0].Guess)
	default:
		v.Verdict = verdictHeld
	}
	return v, nil
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// clipRun is how `boardcam run` plays a corpus clip as its installation
// and its match would have it.
type clipRun struct {
	Name  string
	Video string
	Truth *corpus.Truth
	// Args are the run flags (source, match or resumed log, orientation,
	// lens), without --journal-dir, --listen and pacing.
	Args []string
	// Either: the truth's event i may also be applied as Either[i]
	// (judgeJournalEither).
	Either map[int]string
	// cleanup removes the resume log written for the run.
	cleanup func()
}

// corpusClips lists the clips of dir that keep a score (their truth has a
// final state), with the flags to play each; southAt "" is each clip's
// installation orientation.
func corpusClips(dir, southAt string) ([]clipRun, error) {
	videos, _ := filepath.Glob(filepath.Join(dir, "*.mp4"))
	lenses, err := corpus.ReadLensIndex(dir)
	if err != nil {
		return nil, err
	}
	var out []clipRun
	for _, v := range videos {
		name := strings.TrimSuffix(filepath.Base(v), ".mp4")
		tp, err := corpus.FindTruth(dir, name)
		if err != nil {
			continue
		}
		truth, err := corpus.ReadTruth(tp)
		if err != nil {
			return nil, err
		}
		if truth.Judgement == nil || truth.Judgement.Final == nil {
			continue
		}
		c, err := newClipRun(dir, v, name, truth, lenses, southAt)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

func newClipRun(dir, v, name string, truth *corpus.Truth, lenses *corpus.LensIndex, southAt string) (clipRun, error) {
	c := clipRun{Name: name, Video: v, Truth: truth, cleanup: func() {}}
	rs := truth.Referee
	var players []string
	for _, p := range rs.Players {
		players = append(players, fmt.Sprintf("%s=%s", p.Seat, p.Name))
	}
	args := []string{"--source", v}
	if southAt != "" {
		args = append(args, "--south-at", southAt)
	} else if len(truth.Cameras) > 0 {
		if d, ok := eval.SouthAtOf(&truth.Cameras[0], board.ICF()); ok {
			args = append(args, "--south-at", string(d))
		}
	}
	if e, ok := lenses.Clips[name]; ok {
		args = append(args, "--lens-file", filepath.Join(dir, corpus.LensDir, e.File))
	}
	if truth.Clip.BoardFile != "" {
		// The clip's board and set, as a club configures them.
		abs, err := filepath.Abs(filepath.Join(dir, truth.Clip.BoardFile))
		if err != nil {
			return c, err
		}
		cfg, err := tempFile(name, ".yaml", fmt.Sprintf("board: %q\n", abs))
		if err != nil {
			return c, err
		}
		c.cleanup = func() { os.Remove(cfg) }
		args = append(args, "--config", cfg)
	}
	switch {
	case rs.Mode == corpus.ModeResume || rs.Mode == corpus.ModeMidBoard:
		log, err := tempFile(name, ".log", rs.Log)
		if err != nil {
			c.cleanup()
			return c, err
		}
		prev := c.cleanup
		c.cleanup = func() { prev(); os.Remove(log) }
		args = append(args, "--resume", log)
	case len(rs.Players) == 4:
		args = append(args, "--profile", rs.Profile, "--players", strings.Join(players, ","), "--breaker", rs.Break.String(),
			"--teams", rs.Teams[0]+","+rs.Teams[1])
	default:
		args = append(args, "--profile", rs.Profile, "--players", strings.Join(players, ","), "--breaker", rs.Break.String())
	}
	c.Args = args
	return c, nil
}

// tempFile writes content to a new temporary file named after the clip and
// returns its path; on an error nothing is left behind.
func tempFile(name, ext, content string) (string, error) {
	f, err := os.CreateTemp("", "boardcam-"+name+"-*"+ext)
	if err != nil {
		return "", err
	}
	_, err = f.WriteString(content)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}
