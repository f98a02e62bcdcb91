package match

import "github.com/boardcam/boardcam/rules"

// Profile describes a rules profile for the people who run a match: its
// name, its title and the fouls the umpire can declare (those the rules
// engine derives by itself from a stroke's outcome are left out). It is
// the one description the daemon, the websocket and the console use.
type Profile struct {
	Name, Title string
	Fouls       []FoulInfo
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
