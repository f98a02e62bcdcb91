package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestProfilesList(t *testing.T) {
	code, out, errOut := runCmd(t, "", "profiles")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"icf          5      24       points-29",
		"team-3board  5      23       three-boards, points-29",
		"nit-delhi    5      24       best-of-three            clockwise",
		"jamshedpur   5      24       points-29",
		"four-break   3      22       four-breaks",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("list does not contain %q:\n%s", want, out)
		}
	}
}

func TestProfilesDetail(t *testing.T) {
	code, out, _ := runCmd(t, "", "profiles", "team-3board")
	if code != 0 {
		t.Fatal("exit", code)
	}
	for _, want := range []string{
		"team-3board: Team event, 3 boards",
		"three-boards: 3 boards: first to 15 points",
		"no_contact",
		"team-event-3-board.md: General Rules 7",
		"team-3board: Points 8",
		"fouls called by players only  yes",
		"Fines add up",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("team-3board detail does not contain %q:\n%s", want, out)
		}
	}
	code, _, errOut := runCmd(t, "", "profiles", "snooker")
	if code != 2 || !strings.Contains(errOut, "unknown profile") {
		t.Errorf("unknown profile: exit %d %q", code, errOut)
	}
}

func TestProfilesJSON(t *testing.T) {
	code, out, _ := runCmd(t, "", "profiles", "--json")
	if code != 0 {
		t.Fatal("exit", code)
	}
	var all []struct {
		Name        string `json:"name"`
		QueenValue  int    `json:"queen_value"`
		QueenCutoff int    `json:"queen_cutoff"`
		Fouls       []struct {
			Code   string `json:"code"`
			Ref    string `json:"ref"`
			Effect string `json:"effect"`
		} `json:"fouls"`
		CameraFouls []string `json:"camera_fouls"`
	}
	if err := json.Unmarshal([]byte(out), &all); err != nil {
		t.Fatalf("bad JSON: %v", err)
	}
	if len(all) != 5 || all[4].Name != "four-break" || all[4].QueenValue != 3 || all[4].QueenCutoff != 22 {
		t.Fatalf("profiles %+v", all)
	}
	for _, p := range all {
		if len(p.Fouls) == 0 || len(p.CameraFouls) == 0 {
			t.Errorf("%s: no fouls", p.Name)
		}
		for _, f := range p.Fouls {
			if f.Ref == "" || f.Effect == "" {
				t.Errorf("%s: foul %s without reference or effect", p.Name, f.Code)
			}
		}
	}
	code, out, _ = runCmd(t, "", "profiles", "--json", "icf")
	var one struct {
		Name   string `json:"name"`
		Finish []struct {
			Ref string `json:"ref"`
		} `json:"finish"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &one) != nil || one.Name != "icf" || len(one.Finish) < 21 {
		t.Errorf("icf JSON: %s", out)
	}
}
