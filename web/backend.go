package web

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/match"
	"github.com/boardcam/boardcam/rules"
	"github.com/boardcam/boardcam/sight"
)

// The daemon implements these small interfaces; tests use the fake in
// package webtest.

// StateSource gives the current picture of the match and the camera. The
// server asks it once in Initialize and again on [Server.Resync]; in between
// it keeps its own copy up to date from what the daemon publishes, so a
// client that connects gets a snapshot consistent with the messages that
// follow it. Snapshot must not call the Server.
type StateSource interface {
	Snapshot() Snapshot
}

// CommandSink carries out the umpire's commands. Do returns a short message
// for the console on success, or an error the console shows to the umpire
// (keep it human: "no pending decision p7", "W3 is not on the board").
// The effects reach the clients through what the daemon publishes (state,
// decided, …), not through Do's result. Do is called from the umpire's
// connection goroutine with a context that ends after Config.CommandTimeout;
// commands from one connection arrive one at a time, from several
// connections concurrently.
type CommandSink interface {
	Do(ctx context.Context, c Command) (string, error)
}

// FrameSource gives camera frames for /preview.mjpg and for the console's
// still frame.
type FrameSource interface {
	// CopyFrame copies the most recent camera frame (8-bit BGR) into dst,
	// a picture made by Server.Painter, which it may reallocate, and
	// returns its frame number. ok is false when there is no frame yet.
	CopyFrame(dst sight.Image) (frame int64, ok bool)
}

// Command names: the match keeper's (one list, match.Cmd*).
const (
	CmdConfirm     = match.CmdConfirm
	CmdOverrule    = match.CmdOverrule
	CmdUndo        = match.CmdUndo
	CmdFoul        = match.CmdFoul
	CmdDemand      = match.CmdDemand
	CmdConcede     = match.CmdConcede
	CmdReplayBoard = match.CmdReplayBoard
	CmdNextBoard   = match.CmdNextBoard
	CmdStartMatch  = match.CmdStartMatch
	CmdCalibrate   = match.CmdCalibrate
	CmdCorrect     = match.CmdCorrect
)

// CommandNames lists every command.
var CommandNames = []string{CmdConfirm, CmdOverrule, CmdUndo, CmdFoul, CmdDemand, CmdConcede, CmdReplayBoard, CmdNextBoard, CmdStartMatch, CmdCalibrate, CmdCorrect}

// Command is one umpire command: the data of a "command" message. Fields
// that do not apply to Name are left out.
type Command struct {
	Name string `json:"name"`
	// Pending is the id of a pending decision (confirm, overrule).
	Pending string `json:"pending,omitempty"`
	// Seat is the offending player (foul).
	Seat *board.Side `json:"seat,omitempty"`
	// Code is a foul code of the match's profile (foul).
	Code string `json:"code,omitempty"`
	// Team is 0 or 1: for demand the team the points go to, which must
	// be the winner of the board just finished (the daemon checks); for
	// concede the team conceding.
	Team *int `json:"team,omitempty"`
	// Points is what is demanded: 1 or 2, or 0 for all that are
	// available (demand).
	Points int `json:"points,omitempty"`
	// Note is the umpire's free-text remark, kept in the journal.
	Note string `json:"note,omitempty"`
	// Notation is what happened instead of a pending decision (correct):
	// stroke-log lines (docs/stroke-log.md), separated by newlines or ";",
	// applied in order; empty when nothing happened.
	Notation string `json:"notation,omitempty"`
	// Match describes the new match (start_match).
	Match *MatchSetup `json:"match,omitempty"`
	// Still is the id of the still frame the corners were clicked on, and
	// CornersPx the corners of the playing surface in its pixels: top-left
	// (NW), top-right (NE), bottom-right (SE), bottom-left (SW) (calibrate).
	Still     string       `json:"still,omitempty"`
	CornersPx [][2]float64 `json:"corners_px,omitempty"`

	// StillFrame is the camera frame number of the still (calibrate);
	// filled by the server, not sent by clients.
	StillFrame int64 `json:"-"`
}

// MatchSetup is what the start-match form sends.
type MatchSetup struct {
	Profile string         `json:"profile"`
	Doubles bool           `json:"doubles"`
	Players []rules.Player `json:"players"`
	// Breaker is the seat of the player who breaks the first board.
	Breaker board.Side `json:"breaker"`
}

const maxNote = 500

// validate checks the command's shape; the daemon checks its meaning.
// profile is the current profile (for foul codes); still gives the size of
// the still frame with that id (ok false when there is none).
func (c *Command) validate(profile ProfileInfo, still func(id string) (w, h int, ok bool)) error {
	if len(c.Note) > maxNote {
		return fmt.Errorf("note is %d characters long; at most %d", len(c.Note), maxNote)
	}
	switch c.Name {
	case CmdConfirm, CmdOverrule:
		if c.Pending == "" {
			return fmt.Errorf("%s needs \"pending\": the id of a pending decision", c.Name)
		}
	case CmdCorrect:
		if c.Pending == "" {
			return errors.New("correct needs \"pending\": the id of a pending decision")
		}
		if len(c.Notation) > maxNote {
			return fmt.Errorf("notation is %d characters long; at most %d", len(c.Notation), maxNote)
		}
	case CmdUndo, CmdReplayBoard, CmdNextBoard:
	case CmdFoul:
		if c.Seat == nil {
			return errors.New("foul needs \"seat\": S, E, N or W")
		}
		if c.Code == "" {
			return errors.New("foul needs \"code\": a foul code of the profile")
		}
		if len(profile.Fouls) > 0 {
			known := false
			for _, f := range profile.Fouls {
				known = known || f.Code == c.Code
			}
			if !known {
				codes := make([]string, len(profile.Fouls))
				for i, f := range profile.Fouls {
					codes[i] = f.Code
				}
				return fmt.Errorf("foul code %q is not in profile %s (known: %s)", c.Code, profile.Name, strings.Join(codes, ", "))
			}
		}
	case CmdDemand:
		if err := validTeam(c.Team); err != nil {
			return fmt.Errorf("demand: %w", err)
		}
		if c.Points < 0 || c.Points > 2 {
			return fmt.Errorf("demand: \"points\" must be 1 or 2 (or 0 for all available), got %d", c.Points)
		}
	case CmdConcede:
		if err := validTeam(c.Team); err != nil {
			return fmt.Errorf("concede: %w", err)
		}
	case CmdStartMatch:
		if c.Match == nil {
			return errors.New("start_match needs \"match\"")
		}
		return c.Match.validate()
	case CmdCalibrate:
		if c.Still == "" {
			return errors.New("calibrate needs \"still\": the id of the still frame the corners were clicked on")
		}
		w, h, ok := still(c.Still)
		if !ok {
			return fmt.Errorf("calibrate: still frame %q is gone; take a new one", c.Still)
		}
		return validCorners(c.CornersPx, w, h)
	case "":
		return errors.New("command has no \"name\"")
	default:
		return fmt.Errorf("unknown command %q (known: %s)", c.Name, strings.Join(CommandNames, ", "))
	}
	return nil
}

func validTeam(t *int) error {
	if t == nil {
		return errors.New("\"team\" is missing (0 or 1)")
	}
	if *t != 0 && *t != 1 {
		return fmt.Errorf("\"team\" must be 0 or 1, got %d", *t)
	}
	return nil
}

func (m *MatchSetup) validate() error {
	if strings.TrimSpace(m.Profile) == "" {
		return errors.New("start_match: \"profile\" is missing")
	}
	want := 2
	if m.Doubles {
		want = 4
	}
	if len(m.Players) != want {
		return fmt.Errorf("start_match: a %s match needs %d players, got %d", map[bool]string{false: "singles", true: "doubles"}[m.Doubles], want, len(m.Players))
	}
	seats := map[board.Side]bool{}
	teams := [2]int{}
	breakerSeated := false
	for i, p := range m.Players {
		if strings.TrimSpace(p.Name) == "" {
			return fmt.Errorf("start_match: player %d has no name", i+1)
		}
		if len(p.Name) > 40 {
			return fmt.Errorf("start_match: player %d's name is longer than 40 characters", i+1)
		}
		if p.Seat < board.S || p.Seat > board.W {
			return fmt.Errorf("start_match: player %d (%s) has no valid seat", i+1, p.Name)
		}
		if seats[p.Seat] {
			return fmt.Errorf("start_match: two players sit at %v", p.Seat)
		}
		seats[p.Seat] = true
		if p.Team != 0 && p.Team != 1 {
			return fmt.Errorf("start_match: player %d (%s) has team %d; want 0 or 1", i+1, p.Name, p.Team)
		}
		teams[p.Team]++
		breakerSeated = breakerSeated || p.Seat == m.Breaker
	}
	if teams[0] != teams[1] {
		return fmt.Errorf("start_match: teams are uneven (%d and %d players)", teams[0], teams[1])
	}
	if !m.Doubles {
		a, b := m.Players[0], m.Players[1]
		if a.Seat.Opposite() != b.Seat {
			return fmt.Errorf("start_match: in singles the players sit opposite each other; %s sits at %v and %s at %v", a.Name, a.Seat, b.Name, b.Seat)
		}
	} else {
		for _, p := range m.Players {
			for _, q := range m.Players {
				if p.Team == q.Team && p.Seat != q.Seat && p.Seat.Opposite() != q.Seat {
					return fmt.Errorf("start_match: partners %s (%v) and %s (%v) must sit opposite each other", p.Name, p.Seat, q.Name, q.Seat)
				}
			}
		}
	}
	if !breakerSeated {
		return fmt.Errorf("start_match: nobody sits at %v, the breaker's seat", m.Breaker)
	}
	return nil
}

// validCorners checks four corners inside a w×h frame forming a convex
// quadrilateral in the order NW, NE, SE, SW (clockwise on screen).
func validCorners(c [][2]float64, w, h int) error {
	if len(c) != 4 {
		return fmt.Errorf("calibrate: need 4 corners (NW, NE, SE, SW), got %d", len(c))
	}
	names := [4]string{"NW", "NE", "SE", "SW"}
	for i, p := range c {
		if math.IsNaN(p[0]) || math.IsNaN(p[1]) || p[0] < 0 || p[1] < 0 || p[0] > float64(w) || p[1] > float64(h) {
			return fmt.Errorf("calibrate: corner %s (%.1f, %.1f) is outside the %d×%d frame", names[i], p[0], p[1], w, h)
		}
	}
	// Screen coordinates (y down): going NW→NE→SE→SW is clockwise, so every
	// cross product of successive edges is positive.
	area := 0.0
	for i := 0; i < 4; i++ {
		a, b, d := c[i], c[(i+1)%4], c[(i+2)%4]
		cross := (b[0]-a[0])*(d[1]-b[1]) - (b[1]-a[1])*(d[0]-b[0])
		if cross <= 0 {
			return fmt.Errorf("calibrate: the corners do not form a convex quadrilateral in the order NW, NE, SE, SW (check the corner after %s)", names[(i+1)%4])
		}
		area += a[0]*b[1] - b[0]*a[1]
	}
	if area/2 < float64(w*h)/100 {
		return fmt.Errorf("calibrate: the corners enclose %.0f px², less than 1%% of the frame; click the corners of the playing surface", area/2)
	}
	return nil
}
