package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/boardcam/boardcam/rules"
)

func init() {
	register(command{Name: "profiles", Summary: "list the rule profiles and their key parameters", Run: cmdProfiles})
}

const profilesDescription = `
Lists the rule profiles (one per rule document) with their key parameters.
With a NAME, prints that profile in full: parameters, match formats, the fouls
it recognises with their rule references and penalties, the special board
endings, and how the document was read where it is silent or ambiguous
(docs/profiles.md).`

func cmdProfiles(ctx context.Context, args []string, s stdio) error {
	fs := newFlags("profiles", "[--json] [NAME]", profilesDescription, s)
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 1 {
		return usageError("profiles takes at most one profile name")
	}
	ps := rules.Profiles()
	if fs.NArg() == 1 {
		p, err := rules.ProfileByName(fs.Arg(0))
		if err != nil {
			return usageError("%v", err)
		}
		ps = []*rules.Profile{p}
	}
	if *asJSON {
		views := make([]profileJSON, len(ps))
		for i, p := range ps {
			views[i] = profileJSONOf(p)
		}
		enc := json.NewEncoder(s.Out)
		enc.SetIndent("", "  ")
		if fs.NArg() == 1 {
			return enc.Encode(views[0])
		}
		return enc.Encode(views)
	}
	if fs.NArg() == 1 {
		writeProfileText(s.Out, ps[0])
		return nil
	}
	tw := tabwriter.NewWriter(s.Out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "PROFILE\tQUEEN\tCUT-OFF\tMATCH\tDOUBLES\tDUES TAKEN OUT\tDEMANDS\tFOULS\tDOCUMENT")
	for _, p := range ps {
		var formats []string
		for _, f := range p.Formats {
			formats = append(formats, f.Name)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\t%s\t%s\t%d\t%s\n", p.Name, p.QueenValue, p.QueenCutoff,
			strings.Join(formats, ", "), p.Direction, p.DueTiming, profileYesNo(p.Demands), len(p.Fouls), p.Document)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(s.Out, "\nRun 'boardcam profiles NAME' for a profile's fouls, board endings and readings.")
	return nil
}

func profileYesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// profileJSON is a profile as JSON.
type profileJSON struct {
	Name                 string              `json:"name"`
	Title                string              `json:"title"`
	Document             string              `json:"document"`
	QueenValue           int                 `json:"queen_value"`
	QueenCutoff          int                 `json:"queen_cutoff"`
	Formats              []profileFormatJSON `json:"formats"`
	Direction            string              `json:"doubles_direction"`
	BreakAttempts        int                 `json:"break_attempts"`
	BreakFailFoul        bool                `json:"break_fail_foul"`
	DueTiming            string              `json:"dues_taken_out"`
	DuePlacer            string              `json:"dues_placed_by"`
	QueenPlacedBy        string              `json:"queen_placed_by"`
	StrikerPocketFoul    bool                `json:"striker_pocket_foul"`
	StrikerJumpFoul      bool                `json:"striker_jump_foul"`
	PieceJumpFoul        bool                `json:"piece_jump_foul"`
	OpponentManFoul      bool                `json:"opponent_man_foul"`
	OpponentManEndsTurn  bool                `json:"opponent_man_ends_turn"`
	Demands              bool                `json:"demands"`
	FoulsCalledByPlayers bool                `json:"fouls_called_by_players"`
	Fouls                []profileFoulJSON   `json:"fouls"`
	Finish               []profileFinishJSON `json:"finish"`
	PlainFinish          string              `json:"plain_finish"`
	Notes                []string            `json:"notes"`
	CameraFouls          []rules.Foul        `json:"camera_fouls"`
}

type profileFormatJSON struct {
	Name      string `json:"name"`
	Summary   string `json:"summary"`
	Target    int    `json:"target,omitempty"`
	Boards    int    `json:"boards,omitempty"`
	TimeLimit string `json:"time_limit,omitempty"`
	Ref       string `json:"ref"`
}

type profileFoulJSON struct {
	Code     rules.Foul `json:"code"`
	Summary  string     `json:"summary"`
	Ref      string     `json:"ref"`
	Effect   string     `json:"effect"`
	Derived  bool       `json:"derived,omitempty"`
	Camera   bool       `json:"camera,omitempty"`
	Fallback bool       `json:"fallback,omitempty"`
}

type profileFinishJSON struct {
	Ref      string `json:"ref"`
	When     string `json:"when"`
	Winner   string `json:"winner"`
	Award    string `json:"award"`
	AtCutoff string `json:"at_cutoff"`
	Demand   int    `json:"demand,omitempty"`
	Analogy  bool   `json:"analogy,omitempty"`
}

func profileJSONOf(p *rules.Profile) profileJSON {
	v := profileJSON{
		Name: p.Name, Title: p.Title, Document: p.Document, QueenValue: p.QueenValue, QueenCutoff: p.QueenCutoff,
		Direction: p.Direction.String(), BreakAttempts: p.BreakAttempts, BreakFailFoul: p.BreakFailFoul,
		DueTiming: p.DueTiming.String(), DuePlacer: p.DuePlacer, QueenPlacedBy: "umpire", StrikerPocketFoul: p.StrikerPocketFoul,
		StrikerJumpFoul: p.StrikerJumpFoul, PieceJumpFoul: p.PieceJumpFoul, OpponentManFoul: p.OpponentManFoul,
		OpponentManEndsTurn: p.OpponentManEndsTurn || p.OpponentManFoul, Demands: p.Demands,
		FoulsCalledByPlayers: p.FoulsCalledByPlayers, PlainFinish: p.PlainFinish, Notes: p.Notes, CameraFouls: p.CameraFouls(),
	}
	if p.QueenByOpponent {
		v.QueenPlacedBy = "opponent"
	}
	for _, f := range p.Formats {
		fv := profileFormatJSON{Name: f.Name, Summary: f.Summary(), Target: f.Target, Boards: f.Boards, Ref: f.Ref}
		if f.TimeLimit > 0 {
			fv.TimeLimit = f.TimeLimit.String()
		}
		v.Formats = append(v.Formats, fv)
	}
	for _, f := range p.Fouls {
		v.Fouls = append(v.Fouls, profileFoulJSON{Code: f.Code, Summary: f.Code.Summary(), Ref: f.Ref, Effect: f.Effect.String(),
			Derived: f.Derived, Camera: f.Camera, Fallback: f.Fallback})
	}
	for _, r := range p.Finish {
		v.Finish = append(v.Finish, profileFinishJSON{Ref: r.Ref, When: profileFinishWhen(r), Winner: profileFinishWinner(r),
			Award: r.Award.String(), AtCutoff: r.AtCutoff.String(), Demand: r.Demand, Analogy: r.Analogy})
	}
	return v
}

func profileFinishWhen(r rules.FinishRule) string {
	var last string
	switch {
	case r.OwnLast && r.OppLast:
		last = "both sides' last men"
	case r.OwnLast:
		last = "own last man"
	default:
		last = "opponents' last man"
	}
	s := last + ", queen " + r.Queen.String()
	switch r.Striker {
	case rules.Yes:
		s += ", with the striker"
	case rules.No:
		s += ", without the striker"
	}
	switch r.Improper {
	case rules.Yes:
		s += ", improper stroke"
	case rules.No:
		s += ", proper stroke"
	}
	return s
}

func profileFinishWinner(r rules.FinishRule) string {
	if r.StrikerWins {
		return "striker's side"
	}
	return "opponents"
}

func writeProfileText(w io.Writer, p *rules.Profile) {
	v := profileJSONOf(p)
	fmt.Fprintf(w, "%s: %s (%s)\n\n", p.Name, p.Title, p.Document)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	row := func(k string, val any) { fmt.Fprintf(tw, "  %s\t%v\n", k, val) }
	row("queen value", p.QueenValue)
	row("queen cut-off", fmt.Sprintf("%d (from this score the queen earns nothing; 5/3-point awards become 1 where the rule says so: see the board endings)", p.QueenCutoff))
	for i, f := range v.Formats {
		k := "format"
		if i == 0 {
			k = "format (default)"
		}
		row(k, fmt.Sprintf("%s: %s [%s]", f.Name, f.Summary, f.Ref))
	}
	row("doubles turn order", p.Direction)
	row("break attempts", fmt.Sprintf("%d%s", p.BreakAttempts, map[bool]string{true: ", failing is a foul", false: ""}[p.BreakFailFoul]))
	row("dues taken out", p.DueTiming)
	row("dues placed by", p.DuePlacer)
	row("queen placed by", v.QueenPlacedBy)
	row("striker pocketed", map[bool]string{true: "a foul (penalty, turn ends)", false: "a due"}[p.StrikerPocketFoul])
	row("striker leaves the board", map[bool]string{true: "a foul", false: "no foul"}[p.StrikerJumpFoul])
	row("piece leaves the board", map[bool]string{true: "a foul (put back in the centre)", false: "put back in the centre, no foul"}[p.PieceJumpFoul])
	row("opponent's man pocketed", map[bool]string{true: "a foul", false: map[bool]string{true: "ends the turn", false: "ends the turn unless own men went in"}[p.OpponentManEndsTurn]}[p.OpponentManFoul])
	row("\"if demanded\" points", profileYesNo(p.Demands))
	row("fouls called by players only", profileYesNo(p.FoulsCalledByPlayers))
	row("plain finish", p.PlainFinish)
	_ = tw.Flush()

	fmt.Fprintf(w, "\nfouls (%d):\n", len(v.Fouls))
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, f := range v.Fouls {
		var tags []string
		if f.Camera {
			tags = append(tags, "camera")
		}
		if f.Derived {
			tags = append(tags, "derived")
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", f.Code, f.Effect, strings.Join(tags, ","), f.Ref)
	}
	_ = tw.Flush()

	if len(v.Finish) > 0 {
		fmt.Fprintf(w, "\nspecial board endings, tried in order (%d):\n", len(v.Finish))
		for _, r := range v.Finish {
			d := ""
			if r.Demand > 0 {
				d = fmt.Sprintf(", +%d if demanded", r.Demand)
			}
			a := ""
			if r.Analogy {
				a = " (by analogy)"
			}
			fmt.Fprintf(w, "  %s%s: %s → %s score %s; at the cut-off %s%s\n", r.Ref, a, r.When, r.Winner, r.Award, r.AtCutoff, d)
		}
	}
	fmt.Fprintf(w, "\nreadings and fallbacks:\n")
	for _, n := range p.Notes {
		fmt.Fprintf(w, "  - %s\n", n)
	}
}
