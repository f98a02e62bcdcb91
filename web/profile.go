package web

import (
	"github.com/boardcam/boardcam/match"
	"github.com/boardcam/boardcam/rules"
)

// ProfileInfoFrom converts the description of a rules profile
// (match.DescribeProfile: the one description) for the console.
func ProfileInfoFrom(p match.Profile) ProfileInfo {
	info := ProfileInfo{Name: p.Name, Title: p.Title, Fouls: []FoulCode{},
		Format: p.Format, FormatText: p.FormatText, Target: p.Target, Boards: p.Boards, TimeLimitS: p.TimeLimit.Seconds(), Started: p.Started}
	for _, f := range p.Fouls {
		info.Fouls = append(info.Fouls, FoulCode{Code: f.Code, Rule: f.Rule, Text: f.Text, Camera: f.Camera})
	}
	return info
}

// ProfileInfoOf describes a rules profile for the console.
func ProfileInfoOf(p *rules.Profile) ProfileInfo { return ProfileInfoFrom(match.DescribeProfile(p)) }

// AllProfiles describes every profile of package rules.
func AllProfiles() []ProfileInfo {
	var out []ProfileInfo
	for _, p := range match.Profiles() {
		out = append(out, ProfileInfoFrom(p))
	}
	return out
}
