package daemon

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/boardcam/boardcam/referee"
	"github.com/boardcam/boardcam/web"
)

// Frame accounting: the analysis knows every frame it did not analyse
// and why, and tells the referee (referee.Gap) before the events of the
// next frame it analyses. Nothing between the camera and the score can
// miss frames without the referee learning it.
//
// A frame is not analysed because
//   - the capture dropped it (no buffer free: the analysis was behind);
//   - the analysis left it out to keep up while pieces moved
//     (decimated);
//   - the analysis could not use it (the board was lost or being found
//     again, or the analysis failed on it);
//   - the picture was lost (a stalled or reconnected camera: no frame
//     numbers are missing, time is).
//
// Frames left out while everything was at rest, after a check that the
// picture had not changed (see changeDetector), are not missing: the gap
// they leave is not reported.

// Why frames were not analysed.
const (
	causeDropped   = "dropped"    // by the capture: the analysis was behind
	causeDecimated = "decimated"  // left out to keep up while pieces moved
	causeBoardLost = "board_lost" // the board was not found in them
	causeFailed    = "failed"     // the analysis failed on them
	causeCamera    = "camera"     // the camera did not deliver them
)

// account follows the frames the analysis saw.
type account struct {
	// last is the last frame analysed against a calibration (-1: none
	// yet); pieces what the tracker said then.
	last    int64
	lastPTS time.Duration
	pieces  []web.Piece
	// Since last: frames left out at rest (checked unchanged), and the
	// frames not analysed by cause; stalled says the picture was lost;
	// lostWhy what the analysis said of the board.
	restSkipped int64
	causes      map[string]int64
	stalled     bool
	lostWhy     string
	// moveMM: a disc at rest found this far from where it lay moved.
	moveMM float64
}

func newAccount() *account {
	return &account{last: -1, causes: map[string]int64{}, moveMM: 8}
}

// skippedAtRest records a frame left out after the check said nothing
// changed.
func (a *account) skippedAtRest() { a.restSkipped++ }

// missed records a frame not analysed for cause (causeDecimated,
// causeBoardLost with why, causeFailed).
func (a *account) missed(cause, why string) {
	a.causes[cause]++
	if cause == causeBoardLost && why != "" {
		a.lostWhy = why
	}
}

// cameraMissed records frames the camera did not deliver.
func (a *account) cameraMissed(n int64) { a.causes[causeCamera] += n }

// lost records that the picture was lost before the next frame.
func (a *account) lost() { a.stalled = true }

// analysed records frame index (at pts in the stream), analysed with the
// tracker's pieces, and returns the gap before it, if frames were not
// analysed since the last one (nil otherwise).
func (a *account) analysed(index int64, pts time.Duration, pieces []web.Piece) *referee.Gap {
	defer func() {
		a.last, a.lastPTS, a.pieces = index, pts, pieces
		a.restSkipped, a.stalled, a.lostWhy = 0, false, ""
		clear(a.causes)
	}()
	if a.last < 0 {
		return nil
	}
	between := index - a.last - 1
	missing := between - a.restSkipped
	if missing <= 0 && !a.stalled {
		return nil
	}
	known := int64(0)
	for _, n := range a.causes {
		known += n
	}
	if d := missing - known; d > 0 {
		a.causes[causeDropped] += d
	}
	g := &referee.Gap{After: int(a.last), Before: int(index), Missing: int(max(0, missing))}
	// The striker handled between strokes (under the hand, put somewhere
	// else) is no move over a short gap: a whole stroke cannot fall in it.
	short := pts-a.lastPTS < time.Second
	moved, words := movedAcross(a.pieces, pieces, a.moveMM, short)
	g.Moved = len(moved) > 0
	g.IDs = moved
	var why []string
	add := func(cause, text string) {
		if n := a.causes[cause]; n > 0 {
			why = append(why, fmt.Sprintf("%d %s", n, text))
		}
	}
	whys := map[string]string{causeDropped: "the analysis fell behind", causeDecimated: "the analysis fell behind",
		causeBoardLost: "the board was not found", causeFailed: "the analysis failed", causeCamera: "the camera did not deliver them"}
	for _, c := range []string{causeCamera, causeDropped, causeDecimated, causeBoardLost, causeFailed} {
		if a.causes[c] > 0 && g.Why == "" {
			g.Why = whys[c]
		}
	}
	if missing <= 0 {
		g.Why = "the camera stalled"
	}
	add(causeCamera, "not delivered by the camera")
	add(causeDropped, "dropped: the analysis fell behind")
	add(causeDecimated, "left out to keep up")
	lost := "the board was not found in them"
	if a.lostWhy != "" {
		lost = "the board was not found in them: " + a.lostWhy
	}
	add(causeBoardLost, lost)
	add(causeFailed, "the analysis failed on them")
	var b strings.Builder
	switch {
	case missing <= 0:
		fmt.Fprintf(&b, "the picture was lost between frames %d and %d (the camera stalled or was reconnected)", a.last, index)
	default:
		fmt.Fprintf(&b, "frames %s were not analysed (%s)", frameSpan(a.last+1, index-1), strings.Join(why, "; "))
		if a.stalled {
			b.WriteString(", and the picture was lost")
		}
	}
	if g.Moved {
		b.WriteString(" while " + words)
	} else {
		b.WriteString("; nothing was seen moving across them")
	}
	g.Reason = b.String()
	return g
}

// tail returns, at the end of a stream whose last frame was last, the gap
// of the frames after the last one analysed that were not analysed (nil
// when there are none): what happened in them is not known. When the
// board was never found, that is the whole video.
func (a *account) tail(last int64) *referee.Gap {
	known := int64(0)
	for _, n := range a.causes {
		known += n
	}
	if a.last < 0 && last >= 0 && known > 0 {
		// The board was never found: nothing in the video was refereed.
		why := ""
		if a.lostWhy != "" {
			why = ": " + a.lostWhy
		}
		return &referee.Gap{After: -1, Before: int(last + 1), Missing: int(known), Moved: true, Why: "the board was never found",
			Reason: fmt.Sprintf("the board was never found in the video (frames %s not analysed%s): nothing in them was refereed, what happened in them is not known", frameSpan(0, last), why)}
	}
	if a.last < 0 || last <= a.last || known == 0 {
		return nil
	}
	g := &referee.Gap{After: int(a.last), Before: int(last + 1), Missing: int(known), Moved: true, Why: "the end of the video was not analysed"}
	g.Reason = fmt.Sprintf("frames %s at the end of the video were not analysed (%d: the board was not found, or the analysis failed or fell behind): what happened in them is not known", frameSpan(a.last+1, last), known)
	return g
}

func frameSpan(a, b int64) string {
	if a == b {
		return fmt.Sprint(a)
	}
	return fmt.Sprintf("%d–%d", a, b)
}

// onBoard reports whether a piece state puts the disc on the board.
func onBoard(st string) bool {
	return st == web.PieceRest || st == web.PieceMoving || st == web.PieceHeld
}

// movedAcross compares the pieces before and after a gap: the identities
// that moved (moving or held by a hand at either end, at rest elsewhere,
// gone from the board or come onto it), sorted, and the words for the
// umpire ("W4 moved towards NE, B2 was moving"). With handled set, the
// striker under a hand or put elsewhere at rest is not a move (the player
// handles it between strokes); moving, it is.
func movedAcross(before, after []web.Piece, moveMM float64, handled bool) ([]string, string) {
	type pair struct{ b, a *web.Piece }
	byID := map[string]*pair{}
	for i := range before {
		p := &before[i]
		byID[p.ID] = &pair{b: p}
	}
	for i := range after {
		p := &after[i]
		if q := byID[p.ID]; q != nil {
			q.a = p
		} else {
			byID[p.ID] = &pair{a: p}
		}
	}
	ids := make([]string, 0, len(byID))
	for id := range byID {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var moved, words []string
	for _, id := range ids {
		q := byID[id]
		var w string
		bOn := q.b != nil && onBoard(q.b.State)
		aOn := q.a != nil && onBoard(q.a.State)
		if handled && id == "S" && (q.b == nil || q.b.State != web.PieceMoving) && (q.a == nil || q.a.State != web.PieceMoving) {
			continue
		}
		switch {
		case q.b != nil && q.b.State != web.PieceRest && bOn, q.a != nil && q.a.State != web.PieceRest && aOn:
			w = id + " was moving"
			if (q.b != nil && q.b.State == web.PieceHeld) || (q.a != nil && q.a.State == web.PieceHeld) {
				w = id + " was under a hand"
			}
		case bOn && !aOn:
			w = fmt.Sprintf("%s left its place %s", id, region(q.b.MM))
			if q.a != nil && (q.a.State == web.PiecePocketed || q.a.State == web.PieceOverboard) {
				w = fmt.Sprintf("%s went from %s (%s)", id, strings.TrimPrefix(region(q.b.MM), "in "), q.a.State)
			}
		case !bOn && aOn:
			w = fmt.Sprintf("%s came onto the board %s", id, region(q.a.MM))
		case bOn && aOn:
			dx, dy := q.a.MM[0]-q.b.MM[0], q.a.MM[1]-q.b.MM[1]
			d := math.Hypot(dx, dy)
			if d < moveMM {
				continue
			}
			w = fmt.Sprintf("%s moved %.0f mm towards %s", id, d, compass(dx, dy))
		default:
			continue
		}
		moved = append(moved, id)
		words = append(words, w)
	}
	if len(words) > 4 {
		words = append(words[:4], fmt.Sprintf("%d more", len(words)-4))
	}
	switch len(words) {
	case 0:
		return nil, ""
	case 1:
		return moved, words[0]
	}
	return moved, strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// compass names the direction of a displacement in board millimetres (x
// towards E, y towards S).
// region says where on the board a point lies, in words for the umpire
// (no coordinates): "in the centre", "in the NE of the board".
func region(mm [2]float64) string {
	if math.Hypot(mm[0], mm[1]) < 100 {
		return "in the centre"
	}
	return "in the " + compass(mm[0], mm[1]) + " of the board"
}

func compass(dx, dy float64) string {
	a := math.Atan2(-dy, dx) * 180 / math.Pi // 0: E, 90: N
	names := []string{"E", "NE", "N", "NW", "W", "SW", "S", "SE"}
	i := int(math.Round(a/45)+8) % 8
	return names[i]
}

// analysisStatus is what the umpire console is told about the analysis
// keeping up (web.Analysis): published when it changes, when frames are
// missed, and at most once a second otherwise.
type analysisStatus struct {
	d *Daemon
	// behindUntil: the status is behind until then (a second after the
	// last frame left out or dropped).
	behindUntil time.Time
	missed      []web.Missed
	last        web.Analysis
	sent        time.Time
	dropped     int64
	// nMissed counts the gaps listed; sentMissed those published.
	nMissed, sentMissed int
}

func newAnalysisStatus(d *Daemon) *analysisStatus {
	return &analysisStatus{d: d, last: web.Analysis{Status: web.AnalysisOK}}
}

// left records a frame left out ("rest" or "motion") at capture time t.
func (s *analysisStatus) left(how string, t time.Time) {
	if how == "motion" {
		s.behindUntil = t.Add(time.Second)
	}
}

// gap records a gap reported to the referee; one across which pieces moved
// or during a stroke is listed for the umpire.
func (s *analysisStatus) gap(g referee.Gap, inStroke bool, t time.Time) {
	if g.Before-g.After > 1 {
		s.behindUntil = t.Add(time.Second)
	}
	if !g.Moved && !inStroke {
		return
	}
	s.nMissed++
	s.missed = append(s.missed, web.Missed{After: int64(g.After), Before: int64(g.Before), IDs: g.IDs, Reason: g.Reason})
	if len(s.missed) > 5 {
		s.missed = s.missed[len(s.missed)-5:]
	}
}

// publish sends the status if it changed in a way that matters, or a
// second has passed (force: now).
func (s *analysisStatus) publish(now time.Time, backlog int, force bool) {
	m := s.d.metrics
	a := web.Analysis{Status: web.AnalysisOK, Backlog: backlog, Dropped: m.droppedCount("analyze") + m.droppedCount("camera"),
		SkippedAtRest: m.degradedCount(DegradedAtRest), Decimated: m.degradedCount(DegradedInMotion),
		Unanalysable: m.unanalysableCount(), Missed: append([]web.Missed(nil), s.missed...)}
	if a.Dropped > s.dropped {
		s.behindUntil = now.Add(time.Second)
		s.dropped = a.Dropped
	}
	if now.Before(s.behindUntil) {
		a.Status = web.AnalysisBehind
	}
	changed := a.Status != s.last.Status || s.nMissed != s.sentMissed
	if !force && !changed && now.Sub(s.sent) < time.Second {
		return
	}
	if !changed && a.Dropped == s.last.Dropped && a.SkippedAtRest == s.last.SkippedAtRest && a.Decimated == s.last.Decimated &&
		a.Unanalysable == s.last.Unanalysable && a.Backlog == s.last.Backlog && !force {
		return
	}
	s.last, s.sent, s.sentMissed = a, now, s.nMissed
	s.d.putAnalysis(a)
}
