package web

import (
	"io"
	"net/http"
	"os"
	"path"
	"strings"
)

// Message types of the evidence (server to client).
const (
	TypeEvidence = "evidence" // Media: a decision's still and clip are ready, or could not be made
	TypeReplay   = "replay"   // Replay: the replay scene plays a clip
)

// Evidence statuses.
const (
	MediaPreparing = "preparing" // being written
	MediaReady     = "ready"     // the still (and the clip, when Clip is set) can be fetched
	MediaFailed    = "failed"    // nothing could be written: Message says why
)

// Media points at the annotated still and the clip of a decision, served
// by GET /api/evidence/{name}: to the umpire at once, to everyone else
// once the decision is settled (a pending decision's are refused with 401).
type Media struct {
	// ID is the pending decision's id, or the key of a foul or stroke
	// that never waited ("f-512", "s-640").
	ID     string `json:"id"`
	Status string `json:"status"`
	// Still and Clip are URLs ("" when not written).
	Still string `json:"still,omitempty"`
	Clip  string `json:"clip,omitempty"`
	// Frame is the decisive frame the still shows; Frames how many the
	// clip holds, FPS their rate (the console's frame stepping).
	Frame  int64   `json:"frame,omitempty"`
	Frames int     `json:"frames,omitempty"`
	FPS    float64 `json:"fps,omitempty"`
	// Heading is the plain-language heading ("Asha's hand crossed the
	// foul line, 17 mm"); Kind is foul or pocketing.
	Heading string `json:"heading,omitempty"`
	Kind    string `json:"kind,omitempty"`
	// Message says what went wrong or was left out (a full disk, no
	// ffmpeg, frames not kept).
	Message string `json:"message,omitempty"`
}

// MessageType implements Message.
func (Media) MessageType() string { return TypeEvidence }

// Replay asks the overlay's replay scene (/overlay/replay) to play a clip.
type Replay struct {
	Media Media `json:"media"`
	// Rate is the playback rate (1: real time).
	Rate float64 `json:"rate,omitempty"`
}

// MessageType implements Message.
func (Replay) MessageType() string { return TypeReplay }

// EvidenceSource gives the web server the evidence files (the daemon's
// evidence adapter implements it).
type EvidenceSource interface {
	// EvidenceFile returns the path of a still or clip by its file name,
	// and whether everyone may read it (its decision is settled).
	EvidenceFile(name string) (file string, public bool, ok bool)
	// LastReplay is the evidence of the last settled foul or pocketing
	// with a clip.
	LastReplay() (Media, bool)
}

// serveEvidence serves a still or a clip (with ranges: the player seeks).
func (s *Server) serveEvidence(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	if s.Evidence == nil || strings.ContainsAny(name, "/\\") {
		http.NotFound(w, r)
		return
	}
	file, public, ok := s.Evidence.EvidenceFile(name)
	if !ok {
		writeError(w, http.StatusNotFound, "no evidence %q", name)
		return
	}
	if !public {
		if _, ok := s.authorized(w, r); !ok {
			return
		}
	}
	f, err := os.Open(file)
	if err != nil {
		writeError(w, http.StatusNotFound, "evidence %q is not (or no longer) on disk", name)
		return
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		writeError(w, http.StatusInternalServerError, "evidence %q: %v", name, err)
		return
	}
	switch path.Ext(name) {
	case ".mp4":
		w.Header().Set("Content-Type", "video/mp4")
	case ".jpg":
		w.Header().Set("Content-Type", "image/jpeg")
	}
	if public {
		w.Header().Set("Cache-Control", "no-cache")
	} else {
		w.Header().Set("Cache-Control", "private, no-store")
	}
	http.ServeContent(w, r, name, st.ModTime(), f)
}

// serveReplay (umpire) plays the last settled foul or pocketing on the
// replay scene.
func (s *Server) serveReplay(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.authorized(w, r); !ok {
		return
	}
	if s.Evidence == nil {
		writeError(w, http.StatusServiceUnavailable, "no evidence is kept (evidence.off, or an events source)")
		return
	}
	m, ok := s.Evidence.LastReplay()
	if !ok {
		writeError(w, http.StatusNotFound, "no settled foul or pocketing with a clip yet")
		return
	}
	rep := Replay{Media: m, Rate: 0.5}
	if err := s.hub.publish(rep); err != nil {
		writeError(w, http.StatusInternalServerError, "replay: %v", err)
		return
	}
	writeJSON(w, http.StatusOK, rep)
}

// SheetSource writes the match sheet of the match in play (the daemon
// implements it with package sheet).
type SheetSource interface {
	// WriteSheet writes the sheet as "pdf" or "csv".
	WriteSheet(w io.Writer, format string) error
}

// serveSheet (umpire) downloads the match sheet: GET /api/sheet.pdf or
// /api/sheet.csv.
func (s *Server) serveSheet(w http.ResponseWriter, r *http.Request, format string) {
	if _, ok := s.authorized(w, r); !ok {
		return
	}
	if s.Sheet == nil {
		writeError(w, http.StatusServiceUnavailable, "no match sheet here")
		return
	}
	var ct string
	switch format {
	case "pdf":
		ct = "application/pdf"
	case "csv":
		ct = "text/csv; charset=utf-8"
	default:
		writeError(w, http.StatusNotFound, "a match sheet is .pdf or .csv, not %q", format)
		return
	}
	var buf writerBuffer
	if err := s.Sheet.WriteSheet(&buf, format); err != nil {
		writeError(w, http.StatusInternalServerError, "match sheet: %v", err)
		return
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Content-Disposition", `attachment; filename="match-sheet.`+format+`"`)
	w.Header().Set("Cache-Control", "private, no-store")
	_, _ = w.Write(buf.b)
}

// writerBuffer collects the sheet, so that an error still gets its status.
type writerBuffer struct{ b []byte }

func (wb *writerBuffer) Write(p []byte) (int, error) {
	wb.b = append(wb.b, p...)
	return len(p), nil
}
