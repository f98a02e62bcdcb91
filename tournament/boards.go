package tournament

import (
	"encoding/json"
	"sort"
	"sync"

	"github.com/boardcam/boardcam/mqtt"
	"github.com/boardcam/boardcam/rules"
	"github.com/boardcam/boardcam/web"
)

// Board is what the view knows of one board: the page's model (sent in
// the "boards" message and kept up to date by the events that follow).
type Board struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Match and Seq: the last event applied (Seq numbers the events of
	// Match).
	Match string `json:"match"`
	Seq   uint64 `json:"seq"`
	// Gap is set when an event was missed (a seq skipped); the board's
	// next retained snapshot clears it.
	Gap bool `json:"gap,omitempty"`
	// Snapshot is the match (state, profile, pending, calibration).
	Snapshot *web.Snapshot `json:"snapshot,omitempty"`
	// Health is the board's health ("offline" from its last will).
	Health *mqtt.Health `json:"health,omitempty"`
}

// boards folds what the boards publish, as a tournament page does.
type boards struct {
	mu sync.Mutex
	m  map[string]*Board
}

// outcome of applying a message.
type outcome int

const (
	applied outcome = iota
	duplicate
	stale
	otherMatch
)

// apply folds an envelope from a board's topic suffix into the board.
func (bs *boards) apply(id, suffix string, e mqtt.Envelope) (outcome, error) {
	bs.mu.Lock()
	defer bs.mu.Unlock()
	b := bs.m[id]
	if b == nil {
		b = &Board{ID: id, Name: id[lastSlash(id)+1:]}
		bs.m[id] = b
	}
	switch suffix {
	case mqtt.TopicHealth:
		var h mqtt.Health
		if err := json.Unmarshal(e.Data, &h); err != nil {
			return 0, err
		}
		if h.Name != "" {
			b.Name = h.Name
		}
		b.Health = &h
		return applied, nil
	case mqtt.TopicSnapshot:
		var s web.Snapshot
		if err := json.Unmarshal(e.Data, &s); err != nil {
			return 0, err
		}
		if e.Match == b.Match && e.Seq < b.Seq {
			return stale, nil
		}
		b.Match, b.Seq, b.Snapshot, b.Gap = e.Match, e.Seq, &s, false
		return applied, nil
	}
	// TopicEvents
	if e.Match != b.Match {
		if e.Type != web.TypeSnapshot {
			// A new match starts with a snapshot; anything else of
			// another match is an old match's leftover.
			return otherMatch, nil
		}
		b.Match, b.Seq = e.Match, 0
	}
	if e.Seq <= b.Seq {
		return duplicate, nil
	}
	if e.Seq != b.Seq+1 {
		b.Gap = true
	}
	b.Seq = e.Seq
	if b.Snapshot == nil {
		b.Snapshot = &web.Snapshot{}
	}
	s := b.Snapshot
	switch e.Type {
	case web.TypeSnapshot:
		var n web.Snapshot
		if err := json.Unmarshal(e.Data, &n); err != nil {
			return 0, err
		}
		b.Snapshot = &n
	case web.TypeState:
		var st rules.State
		if err := json.Unmarshal(e.Data, &st); err != nil {
			return 0, err
		}
		s.State = st
	case web.TypePending:
		var p web.Pending
		if err := json.Unmarshal(e.Data, &p); err != nil {
			return 0, err
		}
		s.Pending = append(s.Pending, p)
	case web.TypeDecided:
		var d web.Decided
		if err := json.Unmarshal(e.Data, &d); err != nil {
			return 0, err
		}
		for i, p := range s.Pending {
			if p.ID == d.ID {
				s.Pending = append(s.Pending[:i:i], s.Pending[i+1:]...)
				break
			}
		}
	case web.TypeCalibration:
		var c web.Calibration
		if err := json.Unmarshal(e.Data, &c); err != nil {
			return 0, err
		}
		s.Calibration = c
	}
	return applied, nil
}

// list returns copies of the boards, by id, marshalled.
func (bs *boards) json() []byte {
	bs.mu.Lock()
	defer bs.mu.Unlock()
	list := make([]*Board, 0, len(bs.m))
	for _, b := range bs.m {
		list = append(list, b)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].ID < list[j].ID })
	out, _ := json.Marshal(list)
	return out
}

// get returns a copy of one board (nil when unknown).
func (bs *boards) get(id string) *Board {
	bs.mu.Lock()
	defer bs.mu.Unlock()
	b := bs.m[id]
	if b == nil {
		return nil
	}
	c := *b
	return &c
}

func lastSlash(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '/' {
			return i
		}
	}
	return -1
}
