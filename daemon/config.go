package daemon

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/camera"
	"github.com/boardcam/boardcam/evidence"
	"github.com/boardcam/boardcam/hardware"
	"github.com/boardcam/boardcam/match"
	"github.com/boardcam/boardcam/mqtt"
	"github.com/boardcam/boardcam/rules"
	"github.com/boardcam/boardcam/web"
)

// Config is boardcam's configuration file (deploy/boardcam.example.yaml is
// a commented example). Every field has a default; flags of `boardcam run`
// override the file.
type Config struct {
	Source SourceConfig `yaml:"source"`
	// Board is a board description file (board.Load); empty: the ICF board.
	Board string `yaml:"board"`
	// Calibration is a calibration file made by `boardcam calibrate`;
	// empty: the daemon finds the board by itself in the first frames.
	Calibration string `yaml:"calibration"`
	// Lens is a lens file made by `boardcam calibrate --lens` from
	// chessboard photos: the board found in the frames is then
	// undistorted with it (a calibration file carries its own lens).
	Lens string `yaml:"lens"`
	// SouthAt is the image side nearest board side S, as the camera is
	// installed: bottom (default), right, top or left; first-stroke
	// learns it from the first stroke, played from the seat whose turn it
	// is when the daemon starts. A calibration file's orientation wins.
	SouthAt  string          `yaml:"south_at"`
	Match    MatchConfig     `yaml:"match"`
	Referee  RefereeConfig   `yaml:"referee"`
	Journal  JournalConfig   `yaml:"journal"`
	Evidence EvidenceConfig  `yaml:"evidence"`
	Web      WebConfig       `yaml:"web"`
	Display  string          `yaml:"display"`
	Hardware hardware.Config `yaml:"hardware"`
	Pipeline PipelineConfig  `yaml:"pipeline"`
	Log      LogConfig       `yaml:"log"`
	// Set overrides the set of pieces that calibration learned from the
	// camera (sizes in mm; zero keeps what was learned): for a striker the
	// camera measures only to about 10%, or a set whose sizes are known.
	Set SetConfig `yaml:"set"`

	// MQTT publishes the match to a broker (package mqtt, docs/mqtt.md);
	// no broker: off.
	MQTT mqtt.Config `yaml:"mqtt"`

	// file is the configuration file's name and where holds the line of
	// every field read from it ("source.uri" → 12); flag names the flag
	// that last set a field.
	file  string
	where map[string]int
	flag  map[string]string
}

// SourceConfig says where frames come from.
type SourceConfig struct {
	// URI is a video file, a V4L2 device (/dev/video0), an RTSP or HTTP
	// URL (rtsp://…), a GStreamer pipeline ("gst:libcamerasrc ! … !
	// appsink") or a file of physical events ("events:FILE.jsonl", the
	// output of `boardcam simulate --json` or `boardcam analyze --json`).
	// Empty: the bundled demo clip testdata/videos/demo.mp4.
	URI string `yaml:"uri"`
	// Kind forces the kind: auto (default, from the URI), file, v4l2,
	// gstreamer, rtsp, events.
	Kind string `yaml:"kind"`
	// Width, Height and FPS are asked of a camera (V4L2, libcamera; 0:
	// the camera's default). 15 to 120 fps are supported; faster is
	// better for the referee as long as the analysis keeps up (see
	// pipeline.frame_queue).
	Width  int     `yaml:"width"`
	Height int     `yaml:"height"`
	FPS    float64 `yaml:"fps"`
	// Format is the V4L2 pixel format asked of a USB camera: mjpg (what
	// most of them need for 60 fps and more at 720p), yuyv; empty: the
	// camera's own.
	Format string `yaml:"format"`
	// Exposure is the exposure time asked of a camera (V4L2,
	// libcamera): default 4ms (1/250 s: a striker at 5 m/s blurs by half
	// its width); auto leaves it to the camera (which lengthens it in a
	// dim room: fast strokes then blur). It must be shorter than a frame.
	Exposure Exposure `yaml:"exposure"`
	// Focus is asked of a libcamera camera with a focus motor (Camera
	// Module 3): a lens position in dioptres, 1 / the distance from the
	// lens to the board in metres (0.95 at 1.05 m), or continuous; empty:
	// the camera's own. deploy/raspberry-pi.md has the heights.
	Focus Focus `yaml:"focus"`
	// Pace plays files at their own frame rate (default true); false reads
	// them as fast as the pipeline takes frames, dropping none.
	Pace *bool `yaml:"pace"`
	// Speed multiplies the pace of files (default 1: real time).
	Speed float64 `yaml:"speed"`
	// StallTimeout: a live source that delivers no frame for this long is
	// stalled (default 3s).
	StallTimeout Duration `yaml:"stall_timeout"`
	// ReconnectMin and ReconnectMax bound the exponential backoff between
	// reconnection attempts (defaults 500ms and 30s).
	ReconnectMin Duration `yaml:"reconnect_min"`
	ReconnectMax Duration `yaml:"reconnect_max"`
	// ExitAtEnd ends the daemon when a file ends (default true); false
	// keeps the web server up with the final state until SIGTERM.
	ExitAtEnd *bool `yaml:"exit_at_end"`
}

// MatchConfig describes the match started when no unfinished journal is
// found (the umpire console can start another).
type MatchConfig struct {
	// Profile is the rule profile (icf, team-3board, nit-delhi,
	// jamshedpur, four-break); default icf.
	Profile string `yaml:"profile"`
	// Format is the profile's match format ("" for its default).
	Format string `yaml:"format"`
	// Players are "SEAT=NAME": two opposite seats (singles) or four
	// (doubles, partners opposite). Default S=South, N=North.
	Players []string `yaml:"players"`
	// Teams names the two doubles pairs, the first player's pair first.
	Teams []string `yaml:"teams"`
	// Breaker is the seat that breaks the first board (default: the first
	// player's seat).
	Breaker string `yaml:"breaker"`
	// Title is written in the journal's header.
	Title string `yaml:"title"`
	// Decisions says what happens to the referee's automatic decisions:
	// "auto" (default: applied at once; those with fouls are listed for the
	// umpire to confirm or overrule), "delay" (held for Delay, then applied
	// unless the umpire decided first) or "confirm" (held until the umpire
	// confirms or overrules).
	Decisions string   `yaml:"decisions"`
	Delay     Duration `yaml:"delay"`
}

// RefereeConfig tunes the automatic referee.
type RefereeConfig struct {
	// ToleranceMM is the camera's measurement noise: calls closer to the
	// line than this are low-confidence and only offered to the umpire
	// (default 1 mm; 0 for the simulator's exact events).
	ToleranceMM *float64 `yaml:"tolerance_mm"`
	// TimeToleranceS: contacts this close in time are simultaneous
	// (default 0.02 s).
	TimeToleranceS *float64 `yaml:"time_tolerance_s"`
	// ApplyLowConfidence applies low-confidence calls instead of offering
	// them.
	ApplyLowConfidence bool `yaml:"apply_low_confidence"`
}

// JournalConfig is where matches are journaled.
type JournalConfig struct {
	// Dir holds one journal per match (default
	// $XDG_STATE_HOME/boardcam/matches, i.e. ~/.local/state/boardcam/matches).
	Dir string `yaml:"dir"`
}

// EvidenceConfig configures the replay buffer and the evidence written for
// the umpire (package evidence; docs/evidence.md).
type EvidenceConfig struct {
	// Off turns the replay buffer and the evidence off.
	Off bool `yaml:"off"`
	// ReplaySeconds of frames are kept (default 8), besides the frames of
	// the last stroke from the placement to the rest.
	ReplaySeconds float64 `yaml:"replay_seconds"`
	// ReplayInMemory keeps those frames (compressed) in the daemon's
	// memory. By default they are in files in Dir, unlinked as soon as
	// made, and read back only for a decision's still and clip: 10–12 MiB
	// less resident at 720p, about 1.3 MiB/s written while a match is
	// played (most of it deleted before the kernel writes it out). A Dir
	// in memory (tmpfs) keeps them in memory anyway (docs/evidence.md).
	ReplayInMemory bool `yaml:"replay_in_memory"`
	// MaxWidth: wider frames are kept scaled down to it (default 960: a
	// 720p or 1080p camera's frames are kept at 960×540, half the memory
	// of 1280×720; 1280 keeps a 720p camera's frames whole, with
	// buffer_mb 20 or more for its 8 s).
	MaxWidth int `yaml:"max_width"`
	// BufferMB bounds the bytes of all the frames kept (the replay
	// seconds, the stroke in play and the last stroke; default 12, the 8 s
	// ring of a 720p camera kept at 960×540, 10.5 MiB, and a stroke about
	// a second longer; 20 with max_width 1280), on disk or in memory:
	// past it the oldest go. Stills and clips being written are on disk.
	BufferMB int64 `yaml:"buffer_mb"`
	// Dir holds the stills and clips (default DIR/evidence, DIR the
	// journal directory).
	Dir string `yaml:"dir"`
	// MaxAge and MaxMB are the deletion policy: older files go, then the
	// oldest until the directory holds at most MaxMB (defaults 720h and
	// 1024).
	MaxAge Duration `yaml:"max_age"`
	MaxMB  int64    `yaml:"max_mb"`
}

// WebConfig configures the web server.
type WebConfig struct {
	// Listen is the address of the web server (default "localhost:8080";
	// "" turns it off).
	Listen *string `yaml:"listen"`
	// UmpireHash is the hash of the umpire's password (`boardcam
	// passwd`-style PBKDF2 hash, web.HashPassword); empty: the console is
	// read-only.
	UmpireHash string `yaml:"umpire_hash"`
	// AllowedOrigins lists other origins whose pages may read the
	// websocket.
	AllowedOrigins []string `yaml:"allowed_origins"`
	// TLS serves the console over HTTPS.
	TLS TLSConfig `yaml:"tls"`
	// TrustedProxies lists reverse proxies (addresses or CIDR blocks)
	// whose X-Forwarded-For/-Proto are believed: login lock-outs are then
	// per client behind the proxy, not per proxy.
	TrustedProxies []string `yaml:"trusted_proxies"`
}

// TLSConfig chooses the console's certificate: a certificate file and its
// key, or self_signed, a certificate made at the first start and kept in
// dir. Neither: plain HTTP.
type TLSConfig struct {
	Cert string `yaml:"cert"`
	Key  string `yaml:"key"`
	// SelfSigned makes a certificate at the first start for localhost,
	// this machine's name (and name.local) and Hosts, and keeps it in Dir
	// (default $XDG_STATE_HOME/boardcam/tls, /var/lib/boardcam/tls under
	// the package's unit).
	SelfSigned bool     `yaml:"self_signed"`
	Hosts      []string `yaml:"hosts"`
	Dir        string   `yaml:"dir"`
}

// enabled reports whether TLS is configured.
func (t TLSConfig) enabled() bool { return t.Cert != "" || t.Key != "" || t.SelfSigned }

// PipelineConfig sizes the queues between the components.
type PipelineConfig struct {
	// FrameQueue is the number of frames waiting for analysis at most
	// (default 30, about a second at 30 fps; FrameQueueMB bounds it by
	// the frames' size: 4 frames at 720p by default). A stroke's
	// frames queue up while the analysis is slower than the camera, and
	// the queue drains while the board is at rest (frames checked
	// unchanged are left out). Half full, the analysis leaves out every
	// other frame while pieces move; full, a live frame is dropped. Either
	// way the decisions those frames concern wait for the umpire.
	FrameQueue int `yaml:"frame_queue"`
	// FrameQueueMB bounds the frames waiting for analysis in memory
	// (MiB, default 12): at most frame_queue frames, and no more than
	// this many bytes of the source's frames counted as BGR, at least 2
	// frames (4 at 720p, 2 at 1080p, 13 at 640×480). A video file's
	// frames wait as the decoder made them (YUV 4:2:0, half of that). Frames that find the queue full
	// are dropped and counted like any other (metrics, the umpire).
	FrameQueueMB int64 `yaml:"frame_queue_mb"`
	// GoMemoryMB is a soft limit of the memory the Go runtime holds (MiB;
	// runtime/debug.SetMemoryLimit): the evidence frames kept, the web
	// server's and the journal's data, not OpenCV's or FFmpeg's images.
	// Near it the collector runs more often instead of the heap growing.
	// Default (0): evidence.buffer_mb + 24, or 24 with evidence off (the
	// frames are on disk unless evidence.replay_in_memory: then the
	// limit simply does not bite). The environment variable GOMEMLIMIT,
	// when set, wins.
	GoMemoryMB int64 `yaml:"go_memory_mb"`
	// EventQueue is the number of analysed frames waiting for the referee
	// (default 256). Frames with events are never dropped: the analysis
	// waits instead (and capture drops frames before it).
	EventQueue int `yaml:"event_queue"`
	// PublishQueue is the number of announcements waiting for the
	// publishers (default 1024; never dropped).
	PublishQueue int `yaml:"publish_queue"`
	// Detector names the disc detector in vision's registry (default
	// "": vision's own, "classic"; `boardcam detect --detector` takes the
	// same names).
	Detector string `yaml:"detector"`
}

// SetConfig is the configuration's set of pieces: diameters in mm, zero
// for what calibration learned (or the board geometry's figure).
type SetConfig struct {
	ManMM     float64 `yaml:"man_mm"`
	QueenMM   float64 `yaml:"queen_mm"`
	StrikerMM float64 `yaml:"striker_mm"`
}

// set returns the override as a board.Set (nil when nothing is set).
func (s SetConfig) set() *board.Set {
	if s == (SetConfig{}) {
		return nil
	}
	return &board.Set{Source: "config", ManMM: s.ManMM, QueenMM: s.QueenMM, StrikerMM: s.StrikerMM}
}

// LogConfig configures the structured log on standard error.
type LogConfig struct {
	// Level is debug, info (default), warn or error.
	Level string `yaml:"level"`
	// Format is text (default) or json.
	Format string `yaml:"format"`
}

// SouthAtFirstStroke is the south_at setting that learns the orientation
// from the first stroke.
const SouthAtFirstStroke = "first-stroke"

// Duration is a time.Duration written as "3s", "500ms", "1m30s".
type Duration time.Duration

// UnmarshalYAML reads a duration.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("line %d: want a duration such as 3s or 500ms", n.Line)
	}
	v, err := time.ParseDuration(n.Value)
	if err != nil {
		return fmt.Errorf("line %d: %q is not a duration (write e.g. 3s, 500ms, 1m30s)", n.Line, n.Value)
	}
	*d = Duration(v)
	return nil
}

// MarshalYAML writes the duration as text.
func (d Duration) MarshalYAML() (any, error) { return time.Duration(d).String(), nil }

// D returns the time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }

// Decision modes (MatchConfig.Decisions).
const (
	DecideAuto    = match.DecideAuto
	DecideDelay   = match.DecideDelay
	DecideConfirm = match.DecideConfirm
)

// Source kinds (SourceConfig.Kind).
const (
	KindAuto      = "auto"
	KindFile      = "file"
	KindV4L2      = "v4l2"
	KindGStreamer = "gstreamer"
	KindRTSP      = "rtsp"
	KindEvents    = "events"
	KindLibcamera = "libcamera"
)

// DemoClip is the bundled demo clip played when no source is given,
// relative to the working directory or the binary.
const DemoClip = "testdata/videos/demo.mp4"

// DefaultConfig returns the configuration with every default.
func DefaultConfig() Config {
	c := Config{}
	c.applyDefaults()
	return c
}

func (c *Config) applyDefaults() {
	s := &c.Source
	if s.Kind == "" {
		s.Kind = KindAuto
	}
	if s.Speed == 0 {
		s.Speed = 1
	}
	if s.StallTimeout == 0 {
		s.StallTimeout = Duration(3 * time.Second)
	}
	if s.ReconnectMin == 0 {
		s.ReconnectMin = Duration(500 * time.Millisecond)
	}
	if s.ReconnectMax == 0 {
		s.ReconnectMax = Duration(30 * time.Second)
	}
	m := &c.Match
	if m.Profile == "" {
		m.Profile = "icf"
	}
	if len(m.Players) == 0 {
		m.Players = []string{"S=South", "N=North"}
	}
	if m.Decisions == "" {
		m.Decisions = DecideAuto
	}
	if m.Delay == 0 {
		m.Delay = Duration(10 * time.Second)
	}
	if c.Journal.Dir == "" {
		c.Journal.Dir = defaultJournalDir()
	}
	{
		e := &c.Evidence
		if e.ReplaySeconds == 0 {
			e.ReplaySeconds = 8
		}
		if e.MaxWidth == 0 {
			e.MaxWidth = evidence.DefaultMaxWidth
		}
		if e.BufferMB == 0 {
			e.BufferMB = evidence.DefaultMaxBytes >> 20
		}
		if e.MaxAge == 0 {
			e.MaxAge = Duration(720 * time.Hour)
		}
		if e.MaxMB == 0 {
			e.MaxMB = 1024
		}
	}
	if c.Web.Listen == nil {
		l := "localhost:8080"
		c.Web.Listen = &l
	}
	if c.Web.TLS.SelfSigned && c.Web.TLS.Dir == "" {
		c.Web.TLS.Dir = filepath.Join(defaultStateDir(), "tls")
	}
	if c.Display == "" {
		c.Display = "none"
	}
	p := &c.Pipeline
	if p.FrameQueue == 0 {
		p.FrameQueue = 30
	}
	if p.FrameQueueMB == 0 {
		p.FrameQueueMB = 12
	}
	if p.EventQueue == 0 {
		p.EventQueue = 256
	}
	if p.PublishQueue == 0 {
		p.PublishQueue = 1024
	}
	if c.Log.Level == "" {
		c.Log.Level = "info"
	}
	if c.Log.Format == "" {
		c.Log.Format = "text"
	}
}

func defaultJournalDir() string { return filepath.Join(defaultStateDir(), "matches") }

// defaultStateDir is $XDG_STATE_HOME/boardcam (~/.local/state/boardcam;
// /var/lib/boardcam under the package's unit).
func defaultStateDir() string {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "boardcam")
	}
	if h, err := os.UserHomeDir(); err == nil && h != "" {
		return filepath.Join(h, ".local", "state", "boardcam")
	}
	return filepath.Join(os.TempDir(), "boardcam")
}

// LoadConfig reads a configuration file: unknown keys are rejected and
// every error names the file, the line and the field. The result has every
// default applied and is validated.
func LoadConfig(path string) (Config, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("config: %w", err)
	}
	return ParseConfig(b, path)
}

// ParseConfig reads a configuration from b; name is the file's name in
// errors.
func ParseConfig(b []byte, name string) (Config, error) {
	c := Config{file: name, where: map[string]int{}}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			c.applyDefaults()
			return c, c.Validate()
		}
		return Config{}, fmt.Errorf("%s:%s", name, syntaxError(b, err))
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) > 0 {
		root = root.Content[0]
	}
	if root.Kind != yaml.MappingNode {
		if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
			c.applyDefaults()
			return c, c.Validate()
		}
		return Config{}, fmt.Errorf("%s:%d: the configuration must be a mapping of sections (source:, match:, …)", name, root.Line)
	}
	if errs := checkKeys(root, reflect.TypeOf(c), "", c.where); len(errs) > 0 {
		for i := range errs {
			errs[i] = fmt.Errorf("%s:%w", name, errs[i])
		}
		return Config{}, errors.Join(errs...)
	}
	if err := root.Decode(&c); err != nil {
		return Config{}, fmt.Errorf("%s: %s", name, cleanYAMLError(err))
	}
	c.applyDefaults()
	return c, c.Validate()
}

// syntaxError is "LINE: message" for a YAML syntax error in b.
//
// yaml.v3 numbers the lines of its syntax errors inconsistently: a parser
// error gives the 0-based line of its context (one line early), a scanner
// error the 1-based line of its context (where a scalar began, not where
// the tab or colon is), and an error on the first line no line at all. The
// error does not carry its position, so it is found here: the line is the
// last line of the shortest prefix of the document that already fails
// with the same message, the line where the document could no longer
// become valid YAML.
func syntaxError(b []byte, err error) string {
	msg := yamlMessage(err)
	lines := bytes.SplitAfter(b, []byte("\n"))
	for n := 1; n <= len(lines); n++ {
		prefix := bytes.Join(lines[:n], nil)
		var v yaml.Node
		if e := yaml.Unmarshal(prefix, &v); e != nil && yamlMessage(e) == msg {
			return fmt.Sprintf("%d: %s", n, msg)
		}
	}
	return " " + strings.TrimPrefix(err.Error(), "yaml: ")
}

// yamlMessage is a yaml.v3 syntax error's message without its line.
func yamlMessage(err error) string {
	s := strings.TrimPrefix(err.Error(), "yaml: ")
	if rest, ok := strings.CutPrefix(s, "line "); ok {
		if i := strings.Index(rest, ": "); i > 0 && strings.Trim(rest[:i], "0123456789") == "" {
			s = rest[i+2:]
		}
	}
	return s
}

func cleanYAMLError(err error) string {
	s := strings.TrimPrefix(err.Error(), "yaml: unmarshal errors:\n")
	s = strings.TrimPrefix(s, "yaml: ")
	lines := strings.Split(s, "\n")
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	return strings.Join(lines, "; ")
}

// checkKeys rejects the keys of mapping n that are not yaml fields of struct
// type t, recursively, and records the line of every field it meets.
// hardware.Config checks its own keys (its UnmarshalYAML).
func checkKeys(n *yaml.Node, t reflect.Type, prefix string, where map[string]int) []error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if n.Kind != yaml.MappingNode || t.Kind() != reflect.Struct || t == reflect.TypeOf(hardware.Config{}) {
		return nil
	}
	fields := map[string]reflect.Type{}
	var names []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name == "" || name == "-" || !f.IsExported() {
			continue
		}
		fields[name] = f.Type
		names = append(names, name)
	}
	var errs []error
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		path := k.Value
		if prefix != "" {
			path = prefix + "." + k.Value
		}
		ft, ok := fields[k.Value]
		if !ok {
			msg := fmt.Sprintf("%d: %s: unknown key", k.Line, path)
			if s := closest(k.Value, names); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			} else {
				sort.Strings(names)
				msg += " (known: " + strings.Join(names, ", ") + ")"
			}
			errs = append(errs, errors.New(msg))
			continue
		}
		where[path] = v.Line
		if v.Kind == yaml.MappingNode {
			errs = append(errs, checkKeys(v, ft, path, where)...)
		}
	}
	return errs
}

// closest returns the name nearest to s by edit distance, if close enough
// to be a typo.
func closest(s string, names []string) string {
	best, bd := "", 3
	for _, n := range names {
		if d := editDistance(strings.ToLower(s), n); d < bd {
			best, bd = n, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := 1
			if a[i-1] == b[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// SetByFlag records that flag set the field at path, so that an error
// about it names the flag rather than the file.
// goMemoryBaseMB is the Go runtime's memory besides the evidence frames
// that pipeline.go_memory_mb's default allows for: the demo holds 3 MB
// of heap in use without evidence, the runtime's own 4 MB (collector
// metadata, stacks); the rest is room for web clients and a collector
// that does not run at every allocation.
const goMemoryBaseMB = 24

// GoMemoryLimit is the soft limit of the Go runtime's memory in bytes
// (pipeline.go_memory_mb, or its default from evidence.buffer_mb).
func (c *Config) GoMemoryLimit() int64 {
	mb := c.Pipeline.GoMemoryMB
	if mb == 0 {
		mb = goMemoryBaseMB
		if !c.Evidence.Off {
			mb += c.Evidence.BufferMB
		}
	}
	return mb << 20
}

func (c *Config) SetByFlag(path, flag string) {
	if c.flag == nil {
		c.flag = map[string]string{}
	}
	c.flag[path] = flag
}

// at names where the field at path comes from: "--flag", "FILE:LINE:
// path" or "path".
func (c *Config) at(path string) string {
	if f, ok := c.flag[path]; ok {
		return f
	}
	if l, ok := c.where[path]; ok && c.file != "" {
		return fmt.Sprintf("%s:%d: %s", c.file, l, path)
	}
	if c.file != "" {
		return fmt.Sprintf("%s: %s", c.file, path)
	}
	return path
}

// Validate checks the configuration and reports every problem at once,
// each naming the flag or the file, line and field.
func (c *Config) Validate() error {
	var errs []error
	bad := func(path, format string, a ...any) {
		errs = append(errs, fmt.Errorf("%s: %s", c.at(path), fmt.Sprintf(format, a...)))
	}
	if st := c.Set.set(); st != nil {
		if err := st.Validate(); err != nil {
			bad("set", "%v", err)
		}
	}
	s := c.Source
	switch s.Kind {
	case KindAuto, KindFile, KindV4L2, KindGStreamer, KindRTSP, KindEvents, KindLibcamera:
	default:
		bad("source.kind", "unknown kind %q (want auto, file, v4l2, libcamera, gstreamer, rtsp or events)", s.Kind)
	}
	if e := s.Exposure; !e.Auto && (e.D < 0 || e.D > time.Second) {
		bad("source.exposure", "%v: want auto, or a time up to 1s (e.g. 4ms)", e.D)
	} else if s.FPS > 0 && e.Time() > time.Duration(float64(time.Second)/s.FPS) {
		bad("source.exposure", "%v is longer than a frame at %g fps", e.Time(), s.FPS)
	}
	switch strings.ToLower(s.Format) {
	case "", "mjpg", "yuyv", "h264":
	default:
		bad("source.format", "%q: want mjpg, yuyv or h264 (V4L2 pixel formats), or leave it out", s.Format)
	}
	if s.Width < 0 || s.Height < 0 || s.Width > 8192 || s.Height > 8192 {
		bad("source.width", "%d×%d is not a frame size", s.Width, s.Height)
	}
	if s.FPS < 0 || s.FPS > 1000 {
		bad("source.fps", "%v is not a frame rate (0…1000)", s.FPS)
	}
	if !(s.Speed > 0 && s.Speed <= 1000) {
		bad("source.speed", "%v: want a speed above 0 and at most 1000 (1 = real time)", s.Speed)
	}
	if s.StallTimeout.D() < 100*time.Millisecond {
		bad("source.stall_timeout", "%v is too short (at least 100ms)", s.StallTimeout.D())
	}
	if s.ReconnectMin.D() <= 0 {
		bad("source.reconnect_min", "must be positive, got %v", s.ReconnectMin.D())
	}
	if s.ReconnectMax.D() < s.ReconnectMin.D() {
		bad("source.reconnect_max", "%v is shorter than reconnect_min %v", s.ReconnectMax.D(), s.ReconnectMin.D())
	}
	if c.Board != "" {
		if _, err := board.Load(c.Board); err != nil {
			bad("board", "%v", err)
		}
	}
	if c.Calibration != "" {
		if _, err := os.Stat(c.Calibration); err != nil {
			bad("calibration", "%v", err)
		}
	}
	if c.Lens != "" {
		if _, err := camera.LoadLens(c.Lens); err != nil {
			bad("lens", "%v", err)
		}
	}
	if c.SouthAt != "" && c.SouthAt != SouthAtFirstStroke {
		if _, err := camera.ParseDirection(c.SouthAt); err != nil {
			bad("south_at", "%q: want bottom, right, top, left or %s", c.SouthAt, SouthAtFirstStroke)
		}
	}
	if _, err := c.Header(); err != nil {
		errs = append(errs, err)
	}
	switch c.Match.Decisions {
	case DecideAuto, DecideConfirm:
	case DecideDelay:
		if c.Match.Delay.D() <= 0 {
			bad("match.delay", "must be positive, got %v", c.Match.Delay.D())
		}
	default:
		bad("match.decisions", "unknown mode %q (want auto, delay or confirm)", c.Match.Decisions)
	}
	if t := c.Referee.ToleranceMM; t != nil && (*t < 0 || *t > 50) {
		bad("referee.tolerance_mm", "%v: want 0…50 mm", *t)
	}
	if t := c.Referee.TimeToleranceS; t != nil && (*t < 0 || *t > 1) {
		bad("referee.time_tolerance_s", "%v: want 0…1 s", *t)
	}
	if c.Journal.Dir == "" {
		bad("journal.dir", "empty")
	}
	if t := c.Web.TLS; t.enabled() {
		switch {
		case t.SelfSigned && (t.Cert != "" || t.Key != ""):
			bad("web.tls", "either cert and key, or self_signed, not both")
		case !t.SelfSigned && (t.Cert == "" || t.Key == ""):
			bad("web.tls", "cert and key go together (or self_signed: true)")
		case !t.SelfSigned && (len(t.Hosts) > 0 || t.Dir != ""):
			bad("web.tls", "hosts and dir are for self_signed")
		}
	}
	if c.Web.UmpireHash != "" || len(c.Web.AllowedOrigins) > 0 || len(c.Web.TrustedProxies) > 0 {
		// web checks the hash and the origins in Initialize; check them
		// here too, so that the error names the file and line.
		probe := web.Config{UmpireHash: c.Web.UmpireHash, AllowedOrigins: c.Web.AllowedOrigins, TrustedProxies: c.Web.TrustedProxies}
		srv := &web.Server{Config: probe}
		if err := srv.Initialize(); err != nil {
			bad("web", "%s", strings.TrimPrefix(err.Error(), "web: config: "))
		} else {
			srv.Close()
		}
	}
	switch c.Display {
	case "term", "none":
	default:
		bad("display", "unknown display %q (want term or none)", c.Display)
	}
	if err := c.Hardware.Validate(); err != nil {
		bad("hardware", "%v", err)
	}
	p := c.Pipeline
	if p.FrameQueue < 1 || p.FrameQueue > 256 {
		bad("pipeline.frame_queue", "%d: want 1…256", p.FrameQueue)
	}
	if p.FrameQueueMB < 1 || p.FrameQueueMB > 1<<16 {
		bad("pipeline.frame_queue_mb", "%d: want 1…65536", p.FrameQueueMB)
	}
	if p.GoMemoryMB != 0 && (p.GoMemoryMB < 16 || p.GoMemoryMB > 1<<16) {
		bad("pipeline.go_memory_mb", "%d: want 16…65536 (0: evidence.buffer_mb + %d)", p.GoMemoryMB, goMemoryBaseMB)
	}
	if p.EventQueue < 1 || p.EventQueue > 1<<16 {
		bad("pipeline.event_queue", "%d: want 1…65536", p.EventQueue)
	}
	if p.PublishQueue < 1 || p.PublishQueue > 1<<16 {
		bad("pipeline.publish_queue", "%d: want 1…65536", p.PublishQueue)
	}
	if e := c.Evidence; e.ReplaySeconds < 1 || e.ReplaySeconds > 120 {
		bad("evidence.replay_seconds", "%g: want 1…120", e.ReplaySeconds)
	}
	if e := c.Evidence; e.MaxWidth < 160 {
		bad("evidence.max_width", "%d: want 160 or more", e.MaxWidth)
	}
	if e := c.Evidence; e.BufferMB < 4 || e.BufferMB > 4096 {
		bad("evidence.buffer_mb", "%d: want 4…4096", e.BufferMB)
	}
	if e := c.Evidence; e.MaxMB < 1 {
		bad("evidence.max_mb", "%d: want 1 or more", e.MaxMB)
	}
	if _, err := parseLevel(c.Log.Level); err != nil {
		bad("log.level", "%v", err)
	}
	if c.Log.Format != "text" && c.Log.Format != "json" {
		bad("log.format", "unknown format %q (want text or json)", c.Log.Format)
	}
	if c.MQTT.Enabled() {
		if err := c.MQTT.Check(true); err != nil {
			bad("mqtt", "%v", err)
		}
	}
	return errors.Join(errs...)
}

func parseLevel(s string) (slog.Level, error) {
	switch strings.ToLower(s) {
	case "debug":
		return slog.LevelDebug, nil
	case "info", "":
		return slog.LevelInfo, nil
	case "warn", "warning":
		return slog.LevelWarn, nil
	case "error":
		return slog.LevelError, nil
	}
	return 0, fmt.Errorf("unknown level %q (want debug, info, warn or error)", s)
}

// Logger makes the structured logger the configuration asks for, writing
// to w.
func (c *Config) Logger(w interface{ Write([]byte) (int, error) }) *slog.Logger {
	lvl, _ := parseLevel(c.Log.Level)
	o := &slog.HandlerOptions{Level: lvl}
	if c.Log.Format == "json" {
		return slog.New(slog.NewJSONHandler(w, o))
	}
	return slog.New(slog.NewTextHandler(w, o))
}

// Header is the match the configuration describes.
func (c *Config) Header() (rules.Header, error) {
	m := c.Match
	h := rules.Header{Profile: m.Profile, Format: m.Format}
	if _, err := rules.ProfileByName(m.Profile); err != nil {
		return h, fmt.Errorf("%s: %v (known: %s)", c.at("match.profile"), err, strings.Join(rules.ProfileNames(), ", "))
	}
	first, err := h.Seat(m.Players, m.Teams)
	if err != nil {
		field := "match.players"
		if errors.Is(err, rules.ErrTeamNames) {
			field = "match.teams"
		}
		return h, fmt.Errorf("%s: %v", c.at(field), err)
	}
	h.Break = first
	if m.Breaker != "" {
		b, err := board.ParseSide(m.Breaker)
		if err != nil {
			return h, fmt.Errorf("%s: %v", c.at("match.breaker"), err)
		}
		h.Break = b
	}
	if m.Title != "" {
		h.Meta = append(h.Meta, rules.Meta{Key: "title", Value: m.Title})
	}
	if err := h.Validate(); err != nil {
		return h, fmt.Errorf("%s: %v", c.at("match.players"), err)
	}
	return h, nil
}

// Pace reports whether files are played at their frame rate.
func (s SourceConfig) pace() bool { return s.Pace == nil || *s.Pace }

// Paced reports whether video files are played at their frame rate.
func (s SourceConfig) Paced() bool { return s.pace() }

func (s SourceConfig) exitAtEnd() bool { return s.ExitAtEnd == nil || *s.ExitAtEnd }
