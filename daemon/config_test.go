package daemon

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/camera"
)

func TestConfigDefaults(t *testing.T) {
	c, err := ParseConfig([]byte(""), "empty.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if c.Source.StallTimeout.D() != 3*time.Second || c.Match.Profile != "icf" || *c.Web.Listen != "localhost:8080" ||
		c.Match.Decisions != DecideAuto || c.Pipeline.FrameQueue != 30 || !c.Source.pace() || !c.Source.exitAtEnd() {
		t.Errorf("defaults %+v", c)
	}
	h, err := c.Header()
	if err != nil || h.Break != board.S || h.Teams != [2]string{"South", "North"} {
		t.Errorf("default header %+v %v", h, err)
	}
}

// The Go runtime's memory limit follows the evidence buffer unless set.
func TestConfigGoMemoryLimit(t *testing.T) {
	for _, c := range []struct {
		src  string
		want int64
	}{
		{"", 36},
		{"evidence:\n  buffer_mb: 64\n", 88},
		{"evidence:\n  off: true\n", 24},
		{"pipeline:\n  go_memory_mb: 200\n", 200},
	} {
		cfg, err := ParseConfig([]byte(c.src), "mem.yaml")
		if err != nil {
			t.Fatal(err)
		}
		if got := cfg.GoMemoryLimit(); got != c.want<<20 {
			t.Errorf("%q: limit %d MiB, want %d", c.src, got>>20, c.want)
		}
	}
}

// The example configuration in deploy/ is valid.
func TestConfigExample(t *testing.T) {
	c, err := LoadConfig("../deploy/boardcam.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	h, err := c.Header()
	if err != nil || len(h.Players) != 2 {
		t.Errorf("example header %+v: %v", h, err)
	}
}

func TestConfigFull(t *testing.T) {
	src := `
source:
  uri: /dev/video0
  width: 1280
  height: 720
  fps: 30
  stall_timeout: 2s
  reconnect_max: 1m
match:
  profile: team-3board
  format: points-29
  players: [E=Sameer, N=Rohan, W=Nikhil, S=Aditya]
  teams: [Hostel 12, Hostel 4]
  breaker: S
  decisions: delay
  delay: 8s
referee:
  tolerance_mm: 0.5
journal:
  dir: /var/lib/boardcam/matches
web:
  listen: ":8080"
display: term
hardware:
  gpio:
    buzzer: GPIO18
log:
  level: debug
  format: json
`
	c, err := ParseConfig([]byte(src), "club.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if c.Source.StallTimeout.D() != 2*time.Second || c.Source.ReconnectMax.D() != time.Minute || c.Match.Delay.D() != 8*time.Second {
		t.Errorf("durations %+v", c.Source)
	}
	h, err := c.Header()
	if err != nil {
		t.Fatal(err)
	}
	if !h.Doubles() || h.Break != board.S || h.Teams[0] != "Hostel 12" || h.Format != "points-29" {
		t.Errorf("header %+v", h)
	}
	for _, p := range h.Players {
		if want := map[board.Side]int{board.E: 0, board.W: 0, board.N: 1, board.S: 1}[p.Seat]; p.Team != want {
			t.Errorf("%s at %s in team %d, want %d", p.Name, p.Seat, p.Team, want)
		}
	}
	if c.Hardware.GPIO == nil || c.Hardware.GPIO.Buzzer != "GPIO18" {
		t.Errorf("hardware %+v", c.Hardware)
	}
}

// Every error names the file, the line and the field; unknown keys are
// rejected with a suggestion.
func TestConfigErrors(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string
	}{
		{"unknown top key", "sourc:\n  uri: x.mp4\n", []string{"bad.yaml:1: sourc: unknown key", `did you mean "source"`}},
		{"unknown nested key", "source:\n  uri: x.mp4\n  widht: 3\n", []string{"bad.yaml:3: source.widht: unknown key", `"width"`}},
		{"unknown far key", "match:\n  frobnicate: 1\n", []string{"bad.yaml:2: match.frobnicate: unknown key", "known:"}},
		{"bad kind", "source:\n  kind: webcam\n", []string{"bad.yaml:2: source.kind", `unknown kind "webcam"`}},
		{"bad duration", "source:\n  stall_timeout: 3 seconds\n", []string{"bad.yaml", "line 2", "not a duration"}},
		{"bad profile", "match:\n  profile: olympic\n", []string{"bad.yaml:2: match.profile", "olympic"}},
		{"bad players", "match:\n  players: [S=Asha, E=Ravi]\n", []string{"bad.yaml:2: match.players", "opposite"}},
		{"bad player", "match:\n  players: [Asha, N=Ravi]\n", []string{"bad.yaml:2: match.players", "SEAT=NAME"}},
		{"bad decisions", "match:\n  decisions: maybe\n", []string{"bad.yaml:2: match.decisions", "auto, delay or confirm"}},
		{"bad display", "display: lcd\n", []string{"bad.yaml:1: display", "term or none"}},
		{"bad hash", "web:\n  umpire_hash: secret\n", []string{"bad.yaml:2: web", "umpire_hash"}},
		{"bad queue", "pipeline:\n  frame_queue: 0\n", nil},
		{"bad queue 2", "pipeline:\n  frame_queue: 1000\n", []string{"bad.yaml:2: pipeline.frame_queue"}},
		{"bad go memory", "pipeline:\n  go_memory_mb: 8\n", []string{"bad.yaml:2: pipeline.go_memory_mb", "16…65536"}},
		{"bad hardware", "hardware:\n  max7219:\n    brightness: 99\n", []string{"bad.yaml", "line 3", "brightness"}},
		{"hardware unknown key", "hardware:\n  max7219:\n    brite: 9\n", []string{"bad.yaml", "line 3", "brite"}},
		{"bad type", "source:\n  width: wide\n", []string{"bad.yaml", "line 2"}},
		{"not a mapping", "- a\n- b\n", []string{"bad.yaml:1", "mapping"}},
		{"bad level", "log:\n  level: loud\n", []string{"bad.yaml:2: log.level"}},
		{"bad set", "set:\n  striker_mm: 200\n", []string{"bad.yaml:2: set", "striker_mm 200"}},
		{"tls cert without key", "web:\n  tls:\n    cert: /etc/boardcam/console.crt\n", []string{"bad.yaml:3: web.tls", "cert and key go together"}},
		{"tls both", "web:\n  tls:\n    cert: a.crt\n    key: a.key\n    self_signed: true\n", []string{"bad.yaml:3: web.tls", "not both"}},
		{"tls hosts without self_signed", "web:\n  tls:\n    cert: a.crt\n    key: a.key\n    hosts: [x]\n", []string{"bad.yaml:3: web.tls", "for self_signed"}},
		{"bad trusted proxy", "web:\n  trusted_proxies: [10.0.0.0/8, proxy.lan]\n", []string{"bad.yaml:", "trusted_proxies[1]", "proxy.lan"}},
		{"two errors", "display: lcd\nlog:\n  format: xml\n", []string{"bad.yaml:1: display", "bad.yaml:3: log.format"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseConfig([]byte(c.src), "bad.yaml")
			if c.want == nil {
				if err != nil {
					t.Errorf("unexpected error %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}

// A value set by a flag is blamed on the flag.
func TestConfigFlagBlame(t *testing.T) {
	c, err := ParseConfig([]byte("display: term\n"), "club.yaml")
	if err != nil {
		t.Fatal(err)
	}
	c.Display = "led"
	c.SetByFlag("display", "--display")
	err = c.Validate()
	if err == nil || !strings.HasPrefix(err.Error(), "--display: ") {
		t.Errorf("flag error %v", err)
	}
}

func TestLoadConfigMissing(t *testing.T) {
	_, err := LoadConfig(filepath.Join(t.TempDir(), "none.yaml"))
	if err == nil || !os.IsNotExist(unwrapAll(err)) {
		t.Errorf("missing file: %v", err)
	}
}

func unwrapAll(err error) error {
	for {
		u, ok := err.(interface{ Unwrap() error })
		if !ok {
			return err
		}
		err = u.Unwrap()
	}
}

func TestParseSource(t *testing.T) {
	cases := []struct{ uri, kind, want, target string }{
		{"clip.mp4", "", KindFile, "clip.mp4"},
		{"/dev/video0", "", KindV4L2, "/dev/video0"},
		{"rtsp://cam/stream", "", KindRTSP, "rtsp://cam/stream"},
		{"gst:libcamerasrc ! videoconvert ! appsink", "", KindGStreamer, "libcamerasrc ! videoconvert ! appsink"},
		{"videotestsrc ! appsink", "auto", KindGStreamer, "videotestsrc ! appsink"},
		{"events:game.jsonl", "", KindEvents, "game.jsonl"},
		{"game.jsonl", "", KindEvents, "game.jsonl"},
		{"/dev/video2", "file", KindFile, "/dev/video2"},
	}
	for _, c := range cases {
		s, err := ParseSource(c.uri, c.kind)
		if err != nil || s.Kind != c.want || s.Target != c.target {
			t.Errorf("%q: %+v %v", c.uri, s, err)
		}
	}
	if _, err := ParseSource("", ""); err == nil {
		t.Error("empty source accepted")
	}
	if got := redactURL("rtsp://admin:hunter2@10.0.0.5/live"); strings.Contains(got, "hunter2") {
		t.Errorf("password shown: %s", got)
	}
}

// YAML syntax errors point to the line where the file stops being valid
// YAML (yaml.v3 itself says one line early for parser errors, the line
// before a stray tab, and nothing on the first line).
func TestConfigSyntaxErrorLines(t *testing.T) {
	cases := []struct {
		name, src string
		line      int
		says      string
	}{
		{"unclosed flow sequence", "source:\n  uri: demo.mp4\nmatch:\n  players: [S=Asha, N=Ravi\n", 4, "did not find expected ',' or ']'"},
		{"unclosed flow mapping", "source:\n  uri: demo.mp4\nmatch: {profile: icf\n", 3, "did not find expected ',' or '}'"},
		{"tab indentation", "source:\n  uri: demo.mp4\n\twidth: 1280\n", 3, "tab character"},
		{"unclosed quote", "source:\n  uri: demo.mp4\nmatch:\n  profile: \"icf\n", 4, "unexpected end of stream"},
		{"bad indentation", "source:\n  uri: demo.mp4\nmatch:\n profile: icf\n  players: [S=A, N=B]\n", 5, "mapping values are not allowed"},
		{"colon on the first line", "source: uri: demo.mp4\n", 1, "mapping values are not allowed"},
		{"sequence item in a mapping", "source:\n  uri: demo.mp4\n- width: 3\n", 3, "did not find expected key"},
		// "uri demo.mp4" continues as a plain scalar onto line 3, where the
		// colon makes it invalid: line 3 is where YAML can tell.
		{"missing colon", "source:\n  uri demo.mp4\n  width: 1280\n", 3, "mapping values are not allowed"},
		{"missing colon at the end", "source:\n  width: 1280\n  uri demo.mp4\n", 3, "could not find expected ':'"},
		{"after comments", "# boardcam\n\n# source\nsource:\n  uri: demo.mp4\n\n  width: [1280\nlog:\n  level: info\n", 7, "did not find expected ',' or ']'"},
		{"duplicate key", "source:\n  uri: a.mp4\n  uri: b.mp4\n", 3, "already defined at line 2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseConfig([]byte(c.src), "bad.yaml")
			if err == nil {
				t.Fatal("no error")
			}
			want := fmt.Sprintf("bad.yaml:%d: ", c.line)
			if c.name == "duplicate key" {
				want = fmt.Sprintf("bad.yaml: line %d: ", c.line) // the decoder's own, exact
			}
			if !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), c.says) {
				t.Errorf("error %q, want %q… %q", err, want, c.says)
			}
		})
	}
}

// pipeline.detector is read; the name is checked when the analysis is
// made (the registry is the OpenCV side's).
func TestConfigDetector(t *testing.T) {
	c, err := ParseConfig([]byte("pipeline:\n  detector: learned\n"), "d.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if c.Pipeline.Detector != "learned" {
		t.Errorf("pipeline.detector = %q", c.Pipeline.Detector)
	}
	if _, err := NewVisionAnalyzer(testSight, board.ICF(), nil, nil, board.S, camera.Bottom, nil, nil, "nope"); err == nil || !strings.Contains(err.Error(), `no detector "nope"`) {
		t.Errorf("an unknown detector: %v", err)
	}
	if _, err := NewVisionAnalyzer(Sight{}, board.ICF(), nil, nil, board.S, camera.Bottom, nil, nil, ""); err == nil || !strings.Contains(err.Error(), "OpenCV side") {
		t.Errorf("no Sight: %v", err)
	}
}
