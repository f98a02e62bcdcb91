package match

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/referee"
	"github.com/boardcam/boardcam/rules"
)

// The match journal is a stroke log (docs/stroke-log.md): the header of the
// match, then one rules.FormatEvent line per event applied, so that
// `boardcam score` replays it as it is. What the daemon needs besides the
// events rides on comments that start with "#@" and hold one JSON object
// ([Meta]): the source and position each event came from, the pending
// decisions, the umpire's confirmations and overrulings, where a video
// ended. Every commit is one write of whole lines followed by fsync, and
// nothing is announced before its commit returned: after a crash the
// journal holds everything that was announced. A commit of several lines
// tags them "b":"i/n", so that a commit torn by a power cut is recognised
// and dropped whole; a line without its newline is dropped too.

// JournalVersion is the version of the "#@" information this build writes.
const JournalVersion = 1

// Meta is the daemon's information on one journal line.
type Meta struct {
	// Journal is the format version, on the file's first line, with
	// Created.
	Journal int        `json:"journal,omitempty"`
	Created *time.Time `json:"created,omitempty"`

	// Session numbers the daemon runs that wrote to the journal; a session
	// line names the Source (and whether it can be replayed from its
	// start), the Stream the frame positions refer to, and the position
	// (From, FromE) before which the stream's frames belong to no event of
	// this match. Resume marks a session that continued a stream.
	Session    int    `json:"session,omitempty"`
	Source     string `json:"source,omitempty"`
	Replayable bool   `json:"replayable,omitempty"`
	Stream     int    `json:"stream,omitempty"`
	From       *int64 `json:"from,omitempty"`
	FromE      int    `json:"from_e,omitempty"`
	Resume     bool   `json:"resume,omitempty"`

	// F and E place the line in the stream: it was written after the
	// referee had seen E events of frame F (F -1: before any frame).
	F *int64 `json:"f,omitempty"`
	E int    `json:"e,omitempty"`
	// B is "i/n": line i of a commit of n lines.
	B string `json:"b,omitempty"`
	// By says who decided: auto (the referee), umpire (the console),
	// button (a hardware button), log (a line of the stroke log the match
	// was resumed from, see Daemon.Resume).
	By string `json:"by,omitempty"`
	// P is the pending decision the line belongs to.
	P    string `json:"p,omitempty"`
	Note string `json:"note,omitempty"`

	// Pending records a decision put before the umpire, with Decision;
	// Held marks one that is not applied until decided (delay and confirm
	// modes); Due is when a delayed one applies itself; Hist is, for one
	// already applied, the length of the match history right after it.
	Pending string `json:"pending,omitempty"`
	Held    bool   `json:"held,omitempty"`
	// Queued marks a held decision the camera is sure of that waits only
	// behind an uncertain one (decisions: auto): it applies itself once
	// the decisions before it are settled.
	Queued   bool              `json:"queued,omitempty"`
	Due      *time.Time        `json:"due,omitempty"`
	Hist     int               `json:"hist,omitempty"`
	Decision *referee.Decision `json:"decision,omitempty"`
	// Folded replaces the decision of the pending decision it names, held
	// for the umpire, by Decision: the referee folded later evidence of the
	// same stroke into it (referee.Decision.Folds): one question, every
	// reason of both.
	Folded string `json:"folded,omitempty"`
	// Confirmed, Overruled and Withdrawn settle a pending decision without
	// changing the match (its event lines carry P instead).
	Confirmed string `json:"confirmed,omitempty"`
	Overruled string `json:"overruled,omitempty"`
	Withdrawn string `json:"withdrawn,omitempty"`
	// Corrected settles a pending decision the umpire replaced by nothing
	// (its replacement events, when there are some, carry P instead).
	Corrected string `json:"corrected,omitempty"`
	// Wait lists held decisions that no longer apply themselves (queued,
	// or delayed): they were decided on an earlier decision's best guess,
	// which the umpire changed.
	Wait []string `json:"wait,omitempty"`
	// Rejected is a decision the rules engine refused, with the reason.
	Rejected string `json:"rejected,omitempty"`
	// UmpireFoul is a foul the umpire declared against the striker during
	// a stroke: it joined the referee's stroke in progress.
	UmpireFoul *UmpireFoul `json:"umpire_foul,omitempty"`
	// End says the stream ended ("eof"); Closed that the journal is
	// finished with (the video ended, a new match was started).
	End    string `json:"end,omitempty"`
	Closed string `json:"closed,omitempty"`
	// T is the wall time of the commit.
	T *time.Time `json:"t,omitempty"`
}

// UmpireFoul is a foul declared by the umpire.
type UmpireFoul struct {
	Seat  board.Side   `json:"seat"`
	Fouls []rules.Foul `json:"fouls"`
}

// Line is one line to commit: an event with its information, or
// information alone.
type Line struct {
	Event rules.Event
	Meta  Meta
}

// Record is one line read back from a journal.
type Record struct {
	Line  int
	Event rules.Event // nil for an information line
	Meta  Meta
}

// tag is the stream position of a record: after E events of frame F.
func (r Record) tag() (int64, int) {
	if r.Meta.F == nil {
		return -1, 0
	}
	return *r.Meta.F, r.Meta.E
}

// Journal is an open match journal, appended to by one writer.
type Journal struct {
	path string
	f    *os.File
	// Sync is called after each write; tests replace it to count or fail
	// syncs. It defaults to the file's Sync (fsync).
	sync func() error
}

// Path is the journal's file.
func (j *Journal) Path() string { return j.path }

// CreateJournal starts the journal of a new match in dir: the header is
// written to a temporary file, synced and renamed into place, and the
// directory synced, so that a journal either exists whole or not at all.
func CreateJournal(dir string, h rules.Header, now time.Time) (*Journal, error) {
	if err := h.Validate(); err != nil {
		return nil, fmt.Errorf("journal: header: %w", err)
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	base := "match-" + now.Format("20060102-150405")
	path := filepath.Join(dir, base+".log")
	for i := 2; ; i++ {
		if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
			break
		}
		path = filepath.Join(dir, fmt.Sprintf("%s-%d.log", base, i))
	}
	var b strings.Builder
	b.WriteString("# boardcam match journal: a stroke log (docs/stroke-log.md) that `boardcam score` replays;\n")
	b.WriteString("# lines starting with #@ are the daemon's own (docs/daemon.md).\n")
	created := now.UTC()
	info, _ := json.Marshal(Meta{Journal: JournalVersion, Created: &created})
	b.WriteString("#@ " + string(info) + "\n")
	b.WriteString(rules.FormatHeader(h))
	b.WriteString("\n")
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o640)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	if _, err := f.WriteString(b.String()); err != nil {
		f.Close()
		os.Remove(tmp)
		return nil, fmt.Errorf("journal: write %s: %w", tmp, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		os.Remove(tmp)
		return nil, fmt.Errorf("journal: sync %s: %w", tmp, err)
	}
	f.Close()
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return nil, fmt.Errorf("journal: %w", err)
	}
	syncDir(dir)
	return openAppend(path)
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

func openAppend(path string) (*Journal, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	j := &Journal{path: path, f: f}
	j.sync = f.Sync
	return j, nil
}

// FormatLine writes one journal line (without the newline).
func FormatLine(l Line) string {
	meta, _ := json.Marshal(l.Meta)
	if l.Event == nil {
		return "#@ " + string(meta)
	}
	return rules.FormatEvent(l.Event) + "  #@ " + string(meta)
}

// Commit appends lines in one write and syncs the file. When it returns
// nil, the lines are on disk. A failed commit may have left part of the
// lines: it is cut off when the journal is next opened (lines of a
// several-line commit are tagged "b":"i/n" for that).
func (j *Journal) Commit(lines []Line) error {
	if len(lines) == 0 {
		return nil
	}
	var b strings.Builder
	for i, l := range lines {
		if len(lines) > 1 {
			l.Meta.B = fmt.Sprintf("%d/%d", i+1, len(lines))
		}
		b.WriteString(FormatLine(l))
		b.WriteByte('\n')
	}
	if _, err := j.f.WriteString(b.String()); err != nil {
		return fmt.Errorf("journal: write %s: %w", j.path, err)
	}
	if err := j.sync(); err != nil {
		return fmt.Errorf("journal: sync %s: %w", j.path, err)
	}
	return nil
}

// Close closes the file.
func (j *Journal) Close() error {
	if j == nil || j.f == nil {
		return nil
	}
	err := j.f.Close()
	j.f = nil
	return err
}

// JournalFile is a journal read back.
type JournalFile struct {
	Path   string
	Header rules.Header
	// Records are the lines after the header that carry an event or
	// information, in order.
	Records []Record
	// Repaired says what was cut off the end (a line torn by a crash, an
	// incomplete commit); empty when the file was whole.
	Repaired string
}

// Closed reports whether the journal was closed, and why.
func (jf *JournalFile) Closed() (bool, string) {
	for i := len(jf.Records) - 1; i >= 0; i-- {
		if c := jf.Records[i].Meta.Closed; c != "" {
			return true, c
		}
	}
	return false, ""
}

// Events returns the events in order (undo lines included).
func (jf *JournalFile) Events() []rules.Event {
	var out []rules.Event
	for _, r := range jf.Records {
		if r.Event != nil {
			out = append(out, r.Event)
		}
	}
	return out
}

// Replay plays the journal's events on a new match.
func (jf *JournalFile) Replay() (*rules.Match, error) {
	m, err := rules.NewMatch(jf.Header)
	if err != nil {
		return nil, fmt.Errorf("journal %s: header: %w", jf.Path, err)
	}
	for _, r := range jf.Records {
		if r.Event == nil {
			continue
		}
		if err := m.Apply(r.Event); err != nil {
			return nil, fmt.Errorf("journal %s:%d: %w", jf.Path, r.Line, err)
		}
	}
	return m, nil
}

// OpenDecision is a decision still pending at the end of a journal:
// Held ones were not applied (their Decision is the referee's best guess
// when it has Doubts); the others were applied and await review.
type OpenDecision struct {
	ID       string
	Decision referee.Decision
	Held     bool
	Queued   bool
}

// Open replays the journal and returns the decisions still pending at its
// end, oldest first.
func (jf *JournalFile) Open() ([]OpenDecision, error) {
	m, err := rules.NewMatch(jf.Header)
	if err != nil {
		return nil, fmt.Errorf("journal %s: header: %w", jf.Path, err)
	}
	var pend []*pending
	for _, r := range jf.Records {
		if err := applyRecord(m, &pend, r); err != nil {
			return nil, fmt.Errorf("journal %s:%d: %w", jf.Path, r.Line, err)
		}
	}
	out := make([]OpenDecision, len(pend))
	for i, p := range pend {
		out[i] = OpenDecision{ID: p.ID, Decision: p.D, Held: p.Held, Queued: p.Queued}
	}
	return out, nil
}

// ReadJournal reads a journal. When repair is true, a torn end (a line
// without its newline, NUL bytes, an incomplete commit) is cut off the
// file, which is synced, and Repaired says what was cut; otherwise it is
// only left out of the result.
func ReadJournal(path string, repair bool) (*JournalFile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	keep, why := intactLength(data)
	if keep < len(data) && repair {
		if err := os.Truncate(path, int64(keep)); err != nil {
			return nil, fmt.Errorf("journal: cut the torn end of %s: %w", path, err)
		}
		if f, err := os.OpenFile(path, os.O_WRONLY, 0); err == nil {
			_ = f.Sync()
			f.Close()
		}
	}
	data = data[:keep]
	lg, err := rules.ParseLog(bytes.NewReader(data))
	if err != nil {
		var le *rules.LineError
		if errors.As(err, &le) {
			return nil, fmt.Errorf("journal %s:%d: %s", path, le.Line, strings.TrimPrefix(le.Error(), fmt.Sprintf("line %d: ", le.Line)))
		}
		return nil, fmt.Errorf("journal %s: %w", path, err)
	}
	jf := &JournalFile{Path: path, Header: lg.Header, Repaired: why}
	byLine := map[int]rules.Event{}
	for _, e := range lg.Entries {
		byLine[e.Line] = e.Event
	}
	lines := strings.Split(string(data), "\n")
	for i, raw := range lines {
		n := i + 1
		ev, isEvent := byLine[n]
		trimmed := strings.TrimSpace(raw)
		if !isEvent && !strings.HasPrefix(trimmed, "#@") {
			continue
		}
		r := Record{Line: n, Event: ev}
		if k := strings.Index(raw, "#@"); k >= 0 && (!isEvent || !strings.ContainsRune(raw[:k], '"')) {
			text := strings.TrimSpace(raw[k+2:])
			if err := json.Unmarshal([]byte(text), &r.Meta); err != nil {
				return nil, fmt.Errorf("journal %s:%d: the daemon's information (#@ …) is not valid: %v", path, n, err)
			}
		}
		if r.Event == nil && r.Meta.Journal != 0 {
			continue // the file's first line
		}
		jf.Records = append(jf.Records, r)
	}
	return jf, nil
}

// intactLength returns how much of a journal is whole, and what was left
// out.
func intactLength(data []byte) (int, string) {
	keep := len(data)
	var why []string
	if i := bytes.IndexByte(data, 0); i >= 0 {
		// NUL bytes: blocks allocated but never written before a power
		// cut. Keep the whole lines before them.
		keep = bytes.LastIndexByte(data[:i], '\n') + 1
		why = append(why, fmt.Sprintf("%d bytes of NULs and partial data", len(data)-keep))
	}
	if keep > 0 && data[keep-1] != '\n' {
		cut := bytes.LastIndexByte(data[:keep], '\n') + 1
		why = append(why, fmt.Sprintf("an incomplete last line %q", truncate(string(data[cut:keep]), 60)))
		keep = cut
	}
	// An incomplete commit of several lines.
	lines := strings.SplitAfter(string(data[:keep]), "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	end := keep
	for i := len(lines) - 1; i >= 0; i-- {
		b := batchOf(lines[i])
		if b == "" {
			break
		}
		pos, n, ok := parseBatch(b)
		if !ok || pos == n {
			break // the last line of its commit: complete
		}
		// Walk back to the commit's first line and cut there.
		start := i
		for start > 0 {
			if p, _, ok := parseBatch(batchOf(lines[start])); ok && p == 1 {
				break
			}
			start--
		}
		cut := 0
		for _, l := range lines[:start] {
			cut += len(l)
		}
		why = append(why, fmt.Sprintf("an incomplete commit (%d of %d lines)", i-start+1, n))
		end = cut
		break
	}
	return end, strings.Join(why, " and ")
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// batchOf returns the "b" tag of a journal line, or "".
func batchOf(line string) string {
	k := strings.Index(line, "#@")
	if k < 0 {
		return ""
	}
	var m struct {
		B string `json:"b"`
	}
	if json.Unmarshal([]byte(strings.TrimSpace(line[k+2:])), &m) != nil {
		return ""
	}
	return m.B
}

func parseBatch(b string) (pos, n int, ok bool) {
	a, c, found := strings.Cut(b, "/")
	if !found {
		return 0, 0, false
	}
	p, err1 := strconv.Atoi(a)
	q, err2 := strconv.Atoi(c)
	if err1 != nil || err2 != nil || p < 1 || p > q {
		return 0, 0, false
	}
	return p, q, true
}

// LatestJournal returns the newest journal in dir ("" when there is none):
// the one created last, by the time and sequence number in its name
// (match-YYYYMMDD-HHMMSS[-N].log), then by modification time. Not the
// last modified: closing a match appends to its journal just before the
// next one is created, within the file system's timestamp resolution.
func LatestJournal(dir string) (string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", nil
		}
		return "", fmt.Errorf("journal: %w", err)
	}
	type cand struct {
		name, stamp string
		seq         int
		mod         time.Time
	}
	var cs []cand
	for _, e := range ents {
		if e.IsDir() || !strings.HasPrefix(e.Name(), "match-") || !strings.HasSuffix(e.Name(), ".log") {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		c := cand{name: e.Name(), mod: info.ModTime(), seq: 1}
		c.stamp = strings.TrimSuffix(strings.TrimPrefix(e.Name(), "match-"), ".log")
		if i := strings.LastIndexByte(c.stamp, '-'); i > 0 && len(c.stamp) > len("20060102-150405") {
			if n, err := strconv.Atoi(c.stamp[i+1:]); err == nil {
				c.stamp, c.seq = c.stamp[:i], n
			}
		}
		cs = append(cs, c)
	}
	if len(cs) == 0 {
		return "", nil
	}
	sort.Slice(cs, func(i, j int) bool {
		a, b := cs[i], cs[j]
		if a.stamp != b.stamp {
			return a.stamp < b.stamp
		}
		if a.seq != b.seq {
			return a.seq < b.seq
		}
		if !a.mod.Equal(b.mod) {
			return a.mod.Before(b.mod)
		}
		return a.name < b.name
	})
	return filepath.Join(dir, cs[len(cs)-1].name), nil
}

// ByLog marks the journal lines copied from the stroke log a match was
// resumed from (Daemon.Resume).
const ByLog = "log"

// ReadResumeLog reads a stroke log to resume a match from and checks that
// it replays: every line legal, the match not over. Errors name the file
// and line.
func ReadResumeLog(path string) (*rules.Log, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("resume: %w", err)
	}
	defer f.Close()
	lg, err := rules.ParseLog(f)
	if err != nil {
		return nil, fmt.Errorf("resume: %s: %w", path, err)
	}
	m, err := lg.Play(nil)
	if err != nil {
		var le *rules.LineError
		if errors.As(err, &le) && le.Line > 0 {
			return nil, fmt.Errorf("resume: %s:%d: %w", path, le.Line, le.Err)
		}
		return nil, fmt.Errorf("resume: %s: %w", path, err)
	}
	if st := m.State(); st.MatchOver {
		return nil, fmt.Errorf("resume: %s: the match is over (%s): nothing to continue", path, strings.TrimSpace(st.Teams[0].Name+" v "+st.Teams[1].Name))
	}
	return lg, nil
}
