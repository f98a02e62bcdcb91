package mqtt

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/boardcam/boardcam/web"
)

// ProtocolVersion is the version of the MQTT payloads. It follows the
// websocket protocol's (web.ProtocolVersion): the payloads are its
// messages, with the board and the match added. docs/mqtt.md describes
// the topics and payloads.
const ProtocolVersion = web.ProtocolVersion

// Topics under a board's prefix (Config.Prefix, e.g.
// "boardcam/club/board1/"). docs/mqtt.md is the reference.
const (
	// TopicEvents carries every event message of the match (snapshot on a
	// new match or a restart, state, stroke, foul, pending, decided,
	// calibration, notice), QoS 1, not retained, numbered per match.
	TopicEvents = "events"
	// TopicSnapshot is the retained snapshot: the match as of the event
	// numbered in its seq. A subscriber starts from it.
	TopicSnapshot = "snapshot"
	// TopicHealth is the retained health (type "health"); the board's
	// last will sets it to status "offline".
	TopicHealth = "health"
	// TopicCommand is where signed umpire commands for the board arrive.
	TopicCommand = "command"
	// TopicReply carries the board's answers to commands (ack or error
	// with the command's id), QoS 1.
	TopicReply = "reply"
)

// TypeHealth is the message type of TopicHealth.
const TypeHealth = "health"

// Envelope is one MQTT payload: the websocket protocol's envelope with the
// board and the match it belongs to.
//
//	{"v":1,"type":"state","board":"club/board1","match":"20261127T001500-1","seq":12,"t":"…","data":{…}}
//
// Seq numbers the messages of one match on TopicEvents: 1, 2, 3 … with no
// gaps, across restarts of the board and of the broker. A message may
// arrive twice (QoS 1, and a board republishes what the broker did not
// acknowledge): a subscriber ignores a seq it has already applied. The
// snapshot carries the seq of the last event it includes.
type Envelope struct {
	V     int             `json:"v"`
	Type  string          `json:"type"`
	Board string          `json:"board"`
	Match string          `json:"match,omitempty"`
	Seq   uint64          `json:"seq"`
	T     time.Time       `json:"t"`
	ID    string          `json:"id,omitempty"`
	Data  json.RawMessage `json:"data,omitempty"`
	// Auth signs a command (TopicCommand only).
	Auth *Auth `json:"auth,omitempty"`
}

// Health is the data of a health message.
type Health struct {
	// Status is "online" or "offline" (the last will, or a clean stop).
	Status string `json:"status"`
	// Name is the board's display name (Config.Name).
	Name string `json:"name,omitempty"`
	// Camera, Calibration and Analysis are the latest statuses
	// (web.Camera.Status, …); Message says what is wrong, if anything.
	Camera      string `json:"camera,omitempty"`
	Calibration string `json:"calibration,omitempty"`
	Analysis    string `json:"analysis,omitempty"`
	Message     string `json:"message,omitempty"`
	// Since is when the board connected (online) or went offline.
	Since time.Time `json:"since"`
	// Unsent is how many events wait to be published (after an outage).
	Unsent int `json:"unsent"`
}

// Health statuses.
const (
	Online  = "online"
	Offline = "offline"
)

// MaxPayload is the largest payload a subscriber accepts (a snapshot of a
// long match is some tens of KiB).
const MaxPayload = 1 << 20

// MaxCommand is the largest command payload a board accepts.
const MaxCommand = 16 << 10

// SplitTopic splits a topic into the board (the prefix without its
// trailing slash) and the suffix (TopicEvents, …). ok is false for a
// topic with no slash.
func SplitTopic(topic string) (board, suffix string, ok bool) {
	i := strings.LastIndexByte(topic, '/')
	if i <= 0 || i == len(topic)-1 {
		return "", "", false
	}
	return topic[:i], topic[i+1:], true
}

// Decode parses and checks a payload: its size, JSON, version and board.
func Decode(payload []byte, max int) (Envelope, error) {
	var e Envelope
	if len(payload) > max {
		return e, &DecodeError{Reason: "oversized", Err: fmt.Errorf("payload of %d bytes; at most %d", len(payload), max)}
	}
	if err := json.Unmarshal(payload, &e); err != nil {
		return e, &DecodeError{Reason: "malformed", Err: err}
	}
	if e.V != ProtocolVersion {
		return e, &DecodeError{Reason: "version", Err: fmt.Errorf("protocol version %d; this side speaks %d", e.V, ProtocolVersion)}
	}
	if e.Type == "" {
		return e, &DecodeError{Reason: "malformed", Err: fmt.Errorf("no type")}
	}
	return e, nil
}

// DecodeError is a payload refused; Reason is the label it is counted
// under (oversized, malformed, version).
type DecodeError struct {
	Reason string
	Err    error
}

func (e *DecodeError) Error() string { return e.Reason + ": " + e.Err.Error() }
func (e *DecodeError) Unwrap() error { return e.Err }
