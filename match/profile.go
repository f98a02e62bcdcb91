package match

import (
	"path/filepath"
	"strings"
	"time"

	"github.com/boardcam/boardcam/rules"
)

// Profile describes a rules profile for the people who run a match: its
// name, its title and the fouls the umpire can declare (those the rules
// engine derives by itself from a stroke's outcome are left out). It is
// the one description the daemon, the websocket and the console use.
type Profile struct {
	Name, Title string
	Fouls       []FoulInfo
	// For the match in play (DescribeMatch): its format's name and
	// summary, the points to win (Target, 0: none), the boards to play
	// (Boards), and in timed formats the time limit and the start (the
	// journal's creation).
	Format, FormatText string
	Target, Boards     int
	TimeLimit          time.Duration
	Started            *time.Time
}

// FoulInfo is one foul a profile recognises.
type FoulInfo struct {
	// Code is the stable snake_case code (see package rules).
	Code string
	// Rule is the profile's rule reference; Text says the foul in words.
	Rule, Text string
	// Camera is true when the automatic referee calls it.
	Camera bool
}

// DescribeProfile describes p.
func DescribeProfile(p *rules.Profile) Profile {
	d := Profile{Name: p.Name, Title: p.Title, Fouls: []FoulInfo{}}
	for _, code := range p.FoulCodes() {
		r, _ := p.Foul(code)
		if r.Derived {
			continue
		}
		d.Fouls = append(d.Fouls, FoulInfo{Code: string(code), Rule: r.Ref, Text: code.Summary(), Camera: r.Camera})
	}
	return d
}

// Profiles describes every profile of package rules.
func Profiles() []Profile {
	var out []Profile
	for _, p := range rules.Profiles() {
		out = append(out, DescribeProfile(p))
	}
	return out
}

// DescribeMatch describes the profile of a match with its format
// (rules.Header.Format) and, for a timed format, its start, read from the
// name of its journal.
func DescribeMatch(p *rules.Profile, format, journal string) Profile {
	d := DescribeProfile(p)
	f, err := p.Format(format)
	if err != nil {
		return d
	}
	d.Format, d.FormatText, d.Target, d.Boards = f.Name, f.Summary(), f.Target, f.Boards
	if f.TimeLimit > 0 {
		d.TimeLimit = f.TimeLimit
		if t, err := time.ParseInLocation("match-20060102-150405", strings.TrimSuffix(filepath.Base(journal), ".log"), time.Local); err == nil {
			d.Started = &t
		}
	}
	return d
}
