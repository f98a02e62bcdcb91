package mqtt

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// spool is the board's outbox: every event message, numbered per match,
// is appended to the match's file in the spool directory before it is
// published, and a line records each seq the broker acknowledged. After a
// broker outage, a cut network or a restart of the board (kill -9
// included), what the broker has not acknowledged is published again, in
// order, from the file. The journal stays the source of truth: the
// snapshot the board publishes when it starts is replayed from it.
//
// A match's file: one JSON envelope per line (the payload published), and
// {"acked":N} lines. A torn last line (a crash mid-write) is dropped.
type spool struct {
	dir string

	mu      sync.Mutex
	files   map[string]*os.File // match → its file
	next    map[string]uint64   // match → the next seq
	queue   []queued            // written, not yet acknowledged, in order
	written uint64              // entries written in this process
}

type queued struct {
	match   string
	seq     uint64
	payload []byte
}

const spoolExt = ".jsonl"

func openSpool(dir string) (*spool, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("mqtt spool: %w", err)
	}
	s := &spool{dir: dir, files: map[string]*os.File{}, next: map[string]uint64{}}
	names, err := filepath.Glob(filepath.Join(dir, "*"+spoolExt))
	if err != nil {
		return nil, err
	}
	type pend struct {
		q     []queued
		mtime int64
	}
	var all []pend
	for _, n := range names {
		match := strings.TrimSuffix(filepath.Base(n), spoolExt)
		q, next, err := readSpool(n, match)
		if err != nil {
			return nil, err
		}
		s.next[match] = next
		if len(q) == 0 {
			continue
		}
		st, _ := os.Stat(n)
		all = append(all, pend{q, st.ModTime().UnixNano()})
	}
	// The older match's leftovers go first.
	sort.Slice(all, func(i, j int) bool { return all[i].mtime < all[j].mtime })
	for _, p := range all {
		s.queue = append(s.queue, p.q...)
	}
	return s, nil
}

// readSpool reads a match's file: the unacknowledged entries and the next
// seq. It truncates a torn last line.
func readSpool(path, match string) ([]queued, uint64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, 0, fmt.Errorf("mqtt spool: %w", err)
	}
	if n := bytes.LastIndexByte(b, '\n'); n != len(b)-1 {
		b = b[:n+1] // torn end
		if err := os.Truncate(path, int64(n+1)); err != nil {
			return nil, 0, fmt.Errorf("mqtt spool: %w", err)
		}
	}
	var entries []queued
	var acked, last uint64
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), 2*MaxPayload)
	for sc.Scan() {
		line := sc.Bytes()
		var h struct {
			Acked *uint64 `json:"acked"`
			Seq   uint64  `json:"seq"`
		}
		if err := json.Unmarshal(line, &h); err != nil {
			return nil, 0, fmt.Errorf("mqtt spool %s: %w", path, err)
		}
		if h.Acked != nil {
			acked = max(acked, *h.Acked)
			continue
		}
		last = max(last, h.Seq)
		entries = append(entries, queued{match: match, seq: h.Seq, payload: bytes.Clone(line)})
	}
	if err := sc.Err(); err != nil {
		return nil, 0, fmt.Errorf("mqtt spool %s: %w", path, err)
	}
	var q []queued
	for _, e := range entries {
		if e.seq > acked {
			q = append(q, e)
		}
	}
	return q, last + 1, nil
}

// add numbers an envelope for its match, writes it and queues it.
func (s *spool) add(e *Envelope) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := s.file(e.Match)
	if err != nil {
		return err
	}
	if s.next[e.Match] == 0 {
		s.next[e.Match] = 1
	}
	e.Seq = s.next[e.Match]
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("mqtt spool: %w", err)
	}
	s.next[e.Match]++
	s.written++
	s.queue = append(s.queue, queued{match: e.Match, seq: e.Seq, payload: b})
	return nil
}

// lastSeq is the last seq given in match (0 when none).
func (s *spool) lastSeq(match string) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n := s.next[match]; n > 0 {
		return n - 1
	}
	return 0
}

func (s *spool) file(match string) (*os.File, error) {
	if f := s.files[match]; f != nil {
		return f, nil
	}
	if match == "" || strings.ContainsAny(match, "/\\") {
		return nil, fmt.Errorf("mqtt spool: bad match id %q", match)
	}
	f, err := os.OpenFile(filepath.Join(s.dir, match+spoolExt), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, fmt.Errorf("mqtt spool: %w", err)
	}
	s.files[match] = f
	return f, nil
}

// head is the oldest entry not acknowledged.
func (s *spool) head() (queued, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.queue) == 0 {
		return queued{}, false
	}
	return s.queue[0], true
}

// pending is how many entries wait.
func (s *spool) pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queue)
}

// ack records that the broker acknowledged the head.
func (s *spool) ack(q queued) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.queue) == 0 || s.queue[0].seq != q.seq || s.queue[0].match != q.match {
		return nil
	}
	s.queue = s.queue[1:]
	f, err := s.file(q.match)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(f, "{\"acked\":%d}\n", q.seq)
	return err
}

// sync flushes the files to the disk.
func (s *spool) sync() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range s.files {
		f.Sync()
	}
}

// prune removes the files of other matches than keep that have nothing
// left to send.
func (s *spool) prune(keep string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	busy := map[string]bool{keep: true}
	for _, q := range s.queue {
		busy[q.match] = true
	}
	names, _ := filepath.Glob(filepath.Join(s.dir, "*"+spoolExt))
	for _, n := range names {
		m := strings.TrimSuffix(filepath.Base(n), spoolExt)
		if busy[m] {
			continue
		}
		if f := s.files[m]; f != nil {
			f.Close()
			delete(s.files, m)
		}
		os.Remove(n)
	}
}

func (s *spool) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for m, f := range s.files {
		f.Close()
		delete(s.files, m)
	}
}
