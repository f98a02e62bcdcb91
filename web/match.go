package web

import "github.com/boardcam/boardcam/match"

// The match keeper announces typed values (package match); this is where
// they become websocket messages. Nothing else in the daemon speaks the
// websocket's types for the match.

// Messages converts an announcement into the websocket messages it
// stands for, in order (a new match's announcement is a Snapshot and
// converts to nothing here: see SnapshotOf).
func Messages(a match.Announcement) []Message {
	out := make([]Message, 0, len(a.Items))
	for _, it := range a.Items {
		if m := MessageOf(it); m != nil {
			out = append(out, m)
		}
	}
	return out
}

// MessageOf converts one announced item.
func MessageOf(it match.Item) Message {
	switch v := it.(type) {
	case match.Score:
		return StateUpdate(v.State)
	case match.Stroke:
		return strokeOf(v)
	case match.Foul:
		return foulOf(v)
	case match.Pending:
		return pendingOf(v)
	case match.Decided:
		return Decided{ID: v.ID, Decision: v.Decision, By: v.By, Note: v.Note}
	case match.Notice:
		return Notice{Text: v.Text, Level: v.Level}
	}
	return nil
}

func strokeOf(s match.Stroke) Stroke {
	return Stroke{Seat: s.Seat, Player: s.Player, Frame: s.Frame,
		Pocketed:  Pocketed{White: s.Pocketed.White, Black: s.Pocketed.Black, Queen: s.Pocketed.Queen, Striker: s.Pocketed.Striker},
		Overboard: s.Overboard, Fouls: s.Fouls, Notation: s.Notation, Pending: s.Pending}
}

func foulOf(f match.Foul) Foul {
	w := Foul{Code: f.Code, Rule: f.Rule, Text: f.Text, Seat: f.Seat, Frame: f.Frame, Source: f.Source, Pending: f.Pending}
	e := f.Evidence
	w.Evidence = Evidence{Note: e.Note, Marking: e.Marking, MarginMM: e.MarginMM, Confidence: e.Confidence,
		LowConfidence: e.LowConfidence, Contacts: e.Contacts, Frames: e.Frames, HandMM: e.HandMM}
	for _, p := range f.Evidence.Positions {
		w.Evidence.Positions = append(w.Evidence.Positions, Piece{ID: p.ID, Kind: p.Kind, MM: p.MM, State: PieceRest})
	}
	return w
}

func pendingOf(p match.Pending) Pending {
	w := Pending{ID: p.ID, Summary: p.Summary, IfConfirmed: p.IfConfirmed, IfOverruled: p.IfOverruled,
		Frame: p.Frame, Guess: p.Guess, Queued: p.Queued}
	if p.Stroke != nil {
		s := strokeOf(*p.Stroke)
		w.Stroke = &s
	}
	for _, f := range p.Fouls {
		w.Fouls = append(w.Fouls, foulOf(f))
	}
	for _, d := range p.Doubts {
		w.Doubts = append(w.Doubts, Doubt{Kind: d.Kind, Reason: d.Reason, Frames: d.Frames, IDs: d.IDs})
	}
	return w
}

// SnapshotOf is the match's part of a websocket snapshot (state,
// profile, the profiles a new match can use, pending decisions); the
// caller adds the camera, calibration, analysis and pieces.
func SnapshotOf(s match.Snapshot) Snapshot {
	w := Snapshot{State: s.State, Profile: ProfileInfoFrom(s.Profile), Profiles: AllProfiles(), Pending: []Pending{}}
	for _, p := range s.Pending {
		w.Pending = append(w.Pending, pendingOf(p))
	}
	return w
}

// CommandOf converts a console command for the match keeper; by says who
// gave it (match.ByUmpire).
func CommandOf(c Command, by string) match.Command {
	mc := match.Command{Name: c.Name, By: by, Pending: c.Pending, Seat: c.Seat, Code: c.Code, Team: c.Team,
		Points: c.Points, Note: c.Note, Notation: c.Notation, CornersPx: c.CornersPx}
	if m := c.Match; m != nil {
		mc.Match = &match.Setup{Profile: m.Profile, Players: m.Players, Breaker: m.Breaker}
	}
	return mc
}
