package web

import (
	"encoding/json"
	"time"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/rules"
)

// ProtocolVersion is the version of the websocket protocol this package
// speaks. Every message carries it in "v"; docs/websocket.md describes it.
// A change that removes or renames a field, or changes a field's meaning,
// increments it; adding fields or message types does not.
const ProtocolVersion = 1

// Envelope is one websocket message in either direction:
//
//	{"v":1,"type":"state","seq":12,"t":"2025-05-01T18:03:11.250Z","data":{…}}
//
// Seq numbers the messages broadcast to every client (1, 2, 3 …, no gaps);
// a client that sees a gap has missed something and should reconnect to get
// a fresh snapshot. The snapshot sent on connect carries the seq of the last
// broadcast message it already contains. Replies addressed to one client
// (ack, error, pong) carry seq 0 and the ID of the client message they answer.
type Envelope struct {
	V    int             `json:"v"`
	Type string          `json:"type"`
	Seq  uint64          `json:"seq"`
	T    time.Time       `json:"t"`
	ID   string          `json:"id,omitempty"`
	Data json.RawMessage `json:"data,omitempty"`
}

// Message types, server to client.
const (
	TypeSnapshot    = "snapshot"    // Snapshot: everything, on connect and on a resync
	TypeState       = "state"       // StateUpdate: the match after every rules event
	TypeStroke      = "stroke"      // Stroke: the outcome of a stroke
	TypeFoul        = "foul"        // Foul: a foul called, with its evidence
	TypePending     = "pending"     // Pending: an automatic decision awaiting the umpire
	TypeDecided     = "decided"     // Decided: a pending decision was settled
	TypeCalibration = "calibration" // Calibration: calibration status
	TypeCamera      = "camera"      // Camera: camera status
	TypeAnalysis    = "analysis"    // Analysis: whether the analysis keeps up, and what it missed
	TypePieces      = "pieces"      // Pieces: live positions (throttled)
	TypeNotice      = "notice"      // Notice: anything else worth showing in the event list
	TypeAck         = "ack"         // Ack: a command succeeded (to the sender only)
	TypeError       = "error"       // ErrorData: a message failed (to the sender only)
	TypePong        = "pong"        // answer to a client's ping (to the sender only)
)

// Message types, client to server.
const (
	TypeCommand = "command" // Command, umpire only
	TypePing    = "ping"    // application-level keep-alive; answered by pong
)

// Message is something the daemon publishes to every client with
// [Server.Publish]. The types of this file implement it.
type Message interface {
	MessageType() string
}

// Snapshot is the whole picture: sent to each client when it connects, and
// to every client when the daemon publishes one (a resync, e.g. after a new
// match was started or the journal was replayed).
type Snapshot struct {
	State rules.State `json:"state"`
	// Profile is the rule profile of the match in play: its name and the
	// foul codes the umpire can declare by hand.
	Profile ProfileInfo `json:"profile"`
	// Profiles lists the profiles a new match can be started with.
	Profiles    []ProfileInfo `json:"profiles"`
	Calibration Calibration   `json:"calibration"`
	Camera      Camera        `json:"camera"`
	Analysis    Analysis      `json:"analysis"`
	Pieces      Pieces        `json:"pieces"`
	// Pending lists the automatic decisions awaiting the umpire, oldest first.
	Pending []Pending `json:"pending"`
	// Events are the most recent event messages (stroke, foul, pending,
	// decided, calibration, camera, notice) as full envelopes, oldest
	// first. The server fills it; a StateSource leaves it empty.
	Events []json.RawMessage `json:"events"`
	// Server describes the server. Filled by the server.
	Server *ServerInfo `json:"server,omitempty"`
	// You describes this connection. Only in the snapshot sent on connect.
	You *Peer `json:"you,omitempty"`
}

// MessageType implements Message.
func (Snapshot) MessageType() string { return TypeSnapshot }

// ServerInfo tells a client what it is talking to.
type ServerInfo struct {
	Name     string `json:"name"`
	Protocol []int  `json:"protocol"`
}

// Peer is what the server knows about one connection.
type Peer struct {
	// Role is "viewer" (read-only) or "umpire" (may send commands).
	Role string `json:"role"`
	// Expires is when the umpire session ends (umpire only).
	Expires *time.Time `json:"expires,omitempty"`
}

// The roles of a connection.
const (
	RoleViewer = "viewer"
	RoleUmpire = "umpire"
)

// ProfileInfo describes a rule profile for the console.
type ProfileInfo struct {
	Name  string `json:"name"`
	Title string `json:"title,omitempty"`
	// Fouls lists the foul codes the profile recognises, for the manual
	// foul selector.
	Fouls []FoulCode `json:"fouls,omitempty"`
	// The match's format (the match in play only): its name and words,
	// the points to win (Target, 0: none), the boards to play (Boards),
	// and in timed formats the time limit and when the match started
	// (the overlay counts down from them).
	Format     string     `json:"format,omitempty"`
	FormatText string     `json:"format_text,omitempty"`
	Target     int        `json:"target,omitempty"`
	Boards     int        `json:"boards,omitempty"`
	TimeLimitS float64    `json:"time_limit_s,omitempty"`
	Started    *time.Time `json:"started,omitempty"`
}

// FoulCode is one foul a profile recognises.
type FoulCode struct {
	// Code is the stable snake_case code (see package rules), e.g. "thumbing".
	Code string `json:"code"`
	// Rule is the rule reference, e.g. "icf: Dues and penalties 5".
	Rule string `json:"rule,omitempty"`
	// Text says in words what the foul is.
	Text string `json:"text,omitempty"`
	// Camera is true when the automatic referee can call it.
	Camera bool `json:"camera,omitempty"`
}

// StateUpdate is the state of the match after a rules event; it marshals
// exactly as rules.State.
type StateUpdate rules.State

// MessageType implements Message.
func (StateUpdate) MessageType() string { return TypeState }

// Calibration statuses.
const (
	CalibrationNone      = "none"      // not calibrated yet
	CalibrationSearching = "searching" // looking for the board
	CalibrationOK        = "ok"        // calibrated automatically
	CalibrationManual    = "manual"    // calibrated from the umpire's four corners
	CalibrationLost      = "lost"      // the board moved or is hidden; searching again
)

// Calibration is the camera-to-board calibration status.
type Calibration struct {
	Status string `json:"status"`
	// Quality is 0…1 (1 = perfect fit); 0 when unknown.
	Quality float64 `json:"quality,omitempty"`
	// CornersPx are the corners of the playing surface in camera pixels,
	// in the order top-left (NW), top-right (NE), bottom-right (SE),
	// bottom-left (SW), as in package events.
	CornersPx [][2]float64 `json:"corners_px,omitempty"`
	// Homography maps board millimetres to camera pixels (row-major 3×3);
	// when absent the preview derives one from CornersPx.
	Homography *[9]float64 `json:"homography,omitempty"`
	// Width and Height are the camera frame's size in pixels.
	Width  int `json:"width,omitempty"`
	Height int `json:"height,omitempty"`
	// Frame is the camera frame the calibration was made on.
	Frame   int64  `json:"frame,omitempty"`
	Message string `json:"message,omitempty"`
}

// MessageType implements Message.
func (Calibration) MessageType() string { return TypeCalibration }

// Usable reports whether the calibration maps the board (ok or manual).
func (c Calibration) Usable() bool {
	return c.Status == CalibrationOK || c.Status == CalibrationManual
}

// Camera statuses.
const (
	CameraStarting = "starting"
	CameraOK       = "ok"
	CameraNoSignal = "no_signal" // no frames arrive
	CameraStalled  = "stalled"   // frames stopped arriving
	CameraError    = "error"     // the source failed; Message says why
	CameraStopped  = "stopped"   // end of a video file
)

// Camera is the capture status.
type Camera struct {
	Status string `json:"status"`
	// Source names the capture device, file or URL.
	Source string  `json:"source,omitempty"`
	Width  int     `json:"width,omitempty"`
	Height int     `json:"height,omitempty"`
	FPS    float64 `json:"fps,omitempty"`
	// Frame is the number of the latest frame.
	Frame   int64  `json:"frame,omitempty"`
	Message string `json:"message,omitempty"`
}

// MessageType implements Message.
func (Camera) MessageType() string { return TypeCamera }

// Analysis statuses.
const (
	AnalysisOK     = "ok"     // every frame analysed, or left out at rest after a check that nothing changed
	AnalysisBehind = "behind" // frames are being dropped or left out now: decisions they concern wait for the umpire
)

// Analysis says whether the analysis keeps up with the camera, how many
// frames it could not analyse, and which runs of frames it missed while
// pieces moved. The daemon publishes it when the status changes, when
// frames are missed, and at most once a second otherwise.
type Analysis struct {
	Status string `json:"status"`
	// Backlog is the number of frames waiting for the analysis.
	Backlog int `json:"backlog"`
	// Dropped counts frames the capture dropped (the analysis was busy);
	// SkippedAtRest frames left out while everything was at rest, each
	// checked unchanged first; Decimated frames left out to keep up while
	// pieces moved; Unanalysable frames in which the board was not found
	// or the analysis failed.
	Dropped       int64 `json:"dropped"`
	SkippedAtRest int64 `json:"skipped_at_rest"`
	Decimated     int64 `json:"decimated"`
	Unanalysable  int64 `json:"unanalysable"`
	// Missed lists the latest runs of frames not analysed while pieces
	// moved or a stroke was in progress (oldest first, at most 5): each
	// holds the decision it concerns for the umpire.
	Missed []Missed `json:"missed,omitempty"`
}

// Missed is one run of frames not analysed.
type Missed struct {
	// After and Before are the analysed frames around the run.
	After  int64 `json:"after"`
	Before int64 `json:"before"`
	// IDs are the pieces that moved; Reason says it in words.
	IDs    []string `json:"ids,omitempty"`
	Reason string   `json:"reason"`
}

// MessageType implements Message.
func (Analysis) MessageType() string { return TypeAnalysis }

// Piece states as the tracker reports them.
const (
	PieceRest      = "rest"
	PieceMoving    = "moving"
	PieceHeld      = "held"
	PiecePocketed  = "pocketed"
	PieceOverboard = "overboard"
	PieceLost      = "lost" // not seen for a while
)

// Piece is one tracked disc.
type Piece struct {
	ID    string     `json:"id"` // W1…W9, B1…B9, Q, S
	Kind  board.Kind `json:"piece"`
	MM    [2]float64 `json:"mm"` // centre in board millimetres
	State string     `json:"state"`
}

// Pieces is where every tracked disc is at one frame. The daemon may
// publish it every frame; the server forwards it at most once per
// Config.PiecesInterval (latest wins).
type Pieces struct {
	Frame  int64   `json:"frame"`
	Pieces []Piece `json:"pieces"`
}

// MessageType implements Message.
func (Pieces) MessageType() string { return TypePieces }

// Pocketed counts what a stroke pocketed.
type Pocketed struct {
	White   int  `json:"white"`
	Black   int  `json:"black"`
	Queen   bool `json:"queen"`
	Striker bool `json:"striker"`
}

// Stroke is the outcome of one stroke.
type Stroke struct {
	// Seat is the striking player's seat; Player their name.
	Seat   board.Side `json:"seat"`
	Player string     `json:"player,omitempty"`
	// Frame is the camera frame at which the stroke ended.
	Frame    int64    `json:"frame,omitempty"`
	Pocketed Pocketed `json:"pocketed"`
	// Overboard lists the identities of discs that left the board.
	Overboard []string `json:"overboard,omitempty"`
	// Fouls lists the foul codes of the stroke.
	Fouls []string `json:"fouls,omitempty"`
	// Notation is the stroke in stroke-log notation (docs/stroke-log.md).
	Notation string `json:"notation,omitempty"`
	// Pending is the id of the pending decision holding this stroke, if any.
	Pending string `json:"pending,omitempty"`
}

// MessageType implements Message.
func (Stroke) MessageType() string { return TypeStroke }

// Foul sources.
const (
	SourceAuto   = "auto"   // called by the automatic referee
	SourceUmpire = "umpire" // declared by the umpire
)

// Foul is a foul called, with the evidence that supports it.
type Foul struct {
	Code string `json:"code"`
	// Rule is the rule reference text from the profile.
	Rule string `json:"rule,omitempty"`
	Text string `json:"text,omitempty"`
	// Seat is the player who committed the foul.
	Seat   board.Side `json:"seat"`
	Frame  int64      `json:"frame,omitempty"`
	Source string     `json:"source"`
	// Effect is how the profile penalises it: "improper" (the stroke is
	// improper), "fine" (a penalty man), "loses the board".
	Effect string `json:"effect,omitempty"`
	// Pending is the id of the pending decision this foul belongs to.
	Pending  string   `json:"pending,omitempty"`
	Evidence Evidence `json:"evidence"`
	// Heading says the foul in plain words: "Asha's hand crossed the foul
	// line, 17 mm".
	Heading string `json:"heading,omitempty"`
	// Media is the annotated still and clip (Pending's, when it waits).
	Media *Media `json:"media,omitempty"`
}

// MessageType implements Message.
func (Foul) MessageType() string { return TypeFoul }

// Evidence is what the referee saw.
type Evidence struct {
	// Positions are the discs involved, at the decisive frame (board mm).
	Positions []Piece `json:"positions,omitempty"`
	// Note explains in words, e.g. "striker 3.2 mm clear of the rear base
	// line at the strike".
	Note string `json:"note,omitempty"`
	// Marking names the board marking the call measures against ("front
	// line S", "base circle S left", "arrow NE", …).
	Marking string `json:"marking,omitempty"`
	// MarginMM is how far the measurement lies on the foul side of that
	// boundary; Confidence (0…1) how likely the call is right given the
	// measurement noise; LowConfidence marks calls within the tolerance.
	MarginMM      *float64 `json:"margin_mm,omitempty"`
	Confidence    float64  `json:"confidence,omitempty"`
	LowConfidence bool     `json:"low_confidence,omitempty"`
	// Contacts lists the striker's contacts up to the decisive one ("W3",
	// "frame", …); Frames the video frames the call rests on.
	Contacts []string `json:"contacts,omitempty"`
	Frames   []int64  `json:"frames,omitempty"`
	// HandMM is the point of the hand or arm furthest beyond the foul
	// line (hand_over_foul_line), in board mm.
	HandMM *[2]float64 `json:"hand_mm,omitempty"`
}

// Pending is an automatic decision the umpire must confirm or overrule.
type Pending struct {
	ID string `json:"id"`
	// Summary says in one line what is proposed.
	Summary string `json:"summary"`
	// Stroke is the stroke the decision is about, if any.
	Stroke *Stroke `json:"stroke,omitempty"`
	// Fouls are the fouls proposed, with their evidence.
	Fouls []Foul `json:"fouls,omitempty"`
	// IfConfirmed and IfOverruled say in words what each choice does.
	IfConfirmed string `json:"if_confirmed,omitempty"`
	IfOverruled string `json:"if_overruled,omitempty"`
	Frame       int64  `json:"frame,omitempty"`
	// Doubts, when present, say why the camera could not decide alone:
	// the decision is its best guess (Guess, in stroke-log notation), and
	// waits for the umpire to confirm it or correct it (command correct)
	// whatever the decisions mode.
	Doubts []Doubt `json:"doubts,omitempty"`
	Guess  string  `json:"guess,omitempty"`
	// Queued: a decision the camera is sure of that waits only behind an
	// uncertain one; it applies itself once those before it are settled.
	Queued bool `json:"queued,omitempty"`
	// Heading says the decision in plain words, for the card's title
	// ("Asha's hand crossed the foul line, 17 mm", "Ravi's stroke: not
	// sure — frames were missed"); Clean marks an ordinary stroke without
	// fouls or doubts (the console's "Confirm all clean strokes").
	Heading string `json:"heading,omitempty"`
	Clean   bool   `json:"clean,omitempty"`
	// Media is the annotated still of the decisive frame and the clip
	// (status preparing until an evidence message says ready).
	Media *Media `json:"media,omitempty"`
}

// Doubt is one thing the camera could not establish about a decision.
type Doubt struct {
	// Kind is frames_missing, start_unseen, end_unseen, unaccounted,
	// striker_ambiguous, view_covered or inferred_position.
	Kind string `json:"kind"`
	// Reason says it in plain words: "frames 512–530 were not analysed
	// while W4 moved towards NE".
	Reason string `json:"reason"`
	// Frames are the first and last video frames concerned.
	Frames [2]int `json:"frames,omitempty"`
	// IDs are the pieces concerned.
	IDs []string `json:"ids,omitempty"`
}

// MessageType implements Message.
func (Pending) MessageType() string { return TypePending }

// Decisions.
const (
	DecisionConfirmed = "confirmed"
	DecisionOverruled = "overruled"
	DecisionWithdrawn = "withdrawn" // e.g. undone before the umpire decided
	DecisionCorrected = "corrected" // replaced by the events the umpire entered
)

// Decided settles a pending decision.
type Decided struct {
	ID       string `json:"id"`
	Decision string `json:"decision"`
	// By is "umpire", "button" (a hardware button) or "auto".
	By   string `json:"by,omitempty"`
	Note string `json:"note,omitempty"`
}

// MessageType implements Message.
func (Decided) MessageType() string { return TypeDecided }

// Notice is an event-list entry that is none of the above, e.g. "board 2
// started", "match started", "undo".
type Notice struct {
	Text string `json:"text"`
	// Level is "info" or "warning".
	Level string `json:"level,omitempty"`
}

// MessageType implements Message.
func (Notice) MessageType() string { return TypeNotice }

// ErrorData is the data of an error message.
type ErrorData struct {
	// Code is machine-readable: see the Err* constants.
	Code    string `json:"code"`
	Message string `json:"message"`
	// Supported lists the protocol versions the server speaks
	// (unsupported_version only).
	Supported []int `json:"supported,omitempty"`
}

// Error codes.
const (
	ErrBadMessage         = "bad_message"         // not a valid envelope
	ErrUnsupportedVersion = "unsupported_version" // v is not ProtocolVersion
	ErrUnknownType        = "unknown_type"        // a type the server does not accept
	ErrUnauthorized       = "unauthorized"        // a command without an umpire login
	ErrSessionExpired     = "session_expired"     // the umpire session has expired
	ErrRateLimited        = "rate_limited"        // too many messages
	ErrInvalidCommand     = "invalid_command"     // the command is malformed
	ErrCommandFailed      = "command_failed"      // the daemon refused or failed it
	ErrUnavailable        = "unavailable"         // no command sink configured
)

// Ack is the data of an ack message.
type Ack struct {
	// Message says what was done, e.g. "overruled p3: B2 counts".
	Message string `json:"message,omitempty"`
}
