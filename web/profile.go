package web

import "github.com/boardcam/boardcam/rules"

// ProfileInfoFrom describes a rules profile for the console: its name,
// title and the fouls the umpire can declare (those the engine derives by
// itself from a stroke's outcome are left out), each with the profile's
// rule reference and a summary.
func ProfileInfoFrom(p *rules.Profile) ProfileInfo {
	info := ProfileInfo{Name: p.Name, Title: p.Title, Fouls: []FoulCode{}}
	for _, f := range p.Fouls {
		if f.Derived {
			continue
		}
		info.Fouls = append(info.Fouls, FoulCode{Code: string(f.Code), Rule: f.Ref, Text: f.Code.Summary(), Camera: f.Camera})
	}
	return info
}

// AllProfiles describes every profile of package rules.
func AllProfiles() []ProfileInfo {
	var out []ProfileInfo
	for _, p := range rules.Profiles() {
		out = append(out, ProfileInfoFrom(p))
	}
	return out
}
