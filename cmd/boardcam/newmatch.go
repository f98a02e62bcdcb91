package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/boardcam/boardcam/daemon"
	"github.com/boardcam/boardcam/match"
	"github.com/boardcam/boardcam/rules"
)

func init() {
	register(command{Name: "new-match", Summary: "start a new match: close the unfinished one; the next run referees the new one", Run: cmdNewMatch})
}

const newMatchHelp = `
Start a new match in the journal directory, explicitly. boardcam run always
continues the unfinished match of its journal directory, whatever flags it
was started with (a restart by systemd, a crash, a power cut lose nothing):
this command is how a new one begins when the daemon is not running (while
it runs, the umpire console's "new match" does the same).

The unfinished match's journal, if any, is closed (it stays on disk and
replays with boardcam score), and the new match's journal is created with
the configuration's profile and players (--profile, --players, --teams,
--breaker override them) or, with --resume LOG, with a stroke log's header
and lines (a match begun without boardcam). The next boardcam run referees
it.
`

func cmdNewMatch(ctx context.Context, args []string, s stdio) error {
	fs := newFlags("new-match", "[flags]", newMatchHelp, s)
	configFile := fs.String("config", "", "configuration `FILE` (YAML; see deploy/boardcam.example.yaml)")
	journalDir := fs.String("journal-dir", "", "directory of the match journals (default ~/.local/state/boardcam/matches)")
	profile := fs.String("profile", "", "rule profile of the new match")
	players := fs.String("players", "", "players of the new match: S=Asha,N=Ravi (four for doubles)")
	teams := fs.String("teams", "", "doubles team names: Blue,Red")
	breaker := fs.String("breaker", "", "`seat` of the player who breaks the first board (default: the first player's)")
	alias(fs, "break", "breaker")
	resume := fs.String("resume", "", "the new match continues the stroke log `FILE` (its rules, players and strokes so far)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("new-match takes no arguments")
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if *resume != "" {
		for _, f := range []string{"profile", "players", "teams", "breaker"} {
			if set[f] {
				return usageError("--%s with --resume: the stroke log's header says who plays what", f)
			}
		}
	}
	cfg := daemon.DefaultConfig()
	if *configFile != "" {
		var err error
		if cfg, err = daemon.LoadConfig(*configFile); err != nil {
			return err
		}
	}
	override := func(flagName, path string, apply func()) {
		if set[flagName] {
			apply()
			cfg.SetByFlag(path, "--"+flagName)
		}
	}
	override("profile", "match.profile", func() { cfg.Match.Profile = *profile })
	override("players", "match.players", func() { cfg.Match.Players = splitList(*players) })
	override("teams", "match.teams", func() { cfg.Match.Teams = splitList(*teams) })
	override("breaker", "match.breaker", func() { cfg.Match.Breaker = *breaker })
	override("journal-dir", "journal.dir", func() { cfg.Journal.Dir = *journalDir })
	if err := cfg.Validate(); err != nil {
		return err
	}
	var lg *rules.Log
	if *resume != "" {
		var err error
		if lg, err = match.ReadResumeLog(*resume); err != nil {
			return err
		}
	}
	lock, err := match.LockDir(cfg.Journal.Dir)
	if err != nil {
		return fmt.Errorf("journal.dir: %w", err)
	}
	defer lock.Close()
	mc := match.Config{Dir: cfg.Journal.Dir, Header: cfg.Header, Resume: lg, ResumePath: *resume}
	res, err := match.StartNew(mc, cfg.Logger(s.Err))
	if err != nil {
		return err
	}
	if res.Closed != "" {
		fmt.Fprintf(s.Out, "closed the unfinished match: %s\n", res.Closed)
	}
	st := res.State
	fmt.Fprintf(s.Out, "new match: %s v %s (%s), board %d, %s to strike\njournal: %s\nboardcam run referees it.\n",
		st.Teams[0].Name, st.Teams[1].Name, st.Profile, st.Board, st.Turn, res.Journal)
	return nil
}
