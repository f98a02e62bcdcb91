package daemon

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/boardcam/boardcam/clock"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/match"
	"github.com/boardcam/boardcam/web"
)

// feed plays a file of physical events (JSON lines, as written by
// `boardcam simulate --json` or `boardcam analyze --json`) into the
// referee instead of frames analysed by vision and tracking: the daemon's
// "events:FILE" source. It is how recorded matches are re-refereed live and
// how the daemon's recovery is tested without decoding video. Events are
// grouped by frame and paced by their time (times Speed), unless pacing is
// off or they are being caught up with; none is ever dropped.
type feed struct {
	path     string
	queue    int // event_queue
	cfg      SourceConfig
	log      *slog.Logger
	clock    clock.Clock
	metrics  *Metrics
	status   func(web.Camera)
	out      chan match.Observation
	catchUp  int64
	identity string
	name     string
}

// Initialize checks the file and works out its identity for the journal.
func (f *feed) Initialize() error {
	abs, err := filepath.Abs(f.path)
	if err != nil {
		return err
	}
	st, err := os.Stat(abs)
	if err != nil {
		return fmt.Errorf("events %s: %w", f.path, err)
	}
	if st.IsDir() {
		return fmt.Errorf("events %s is a directory", f.path)
	}
	f.out = make(chan match.Observation, f.queue)
	f.catchUp = -1
	f.identity = fmt.Sprintf("events:%s#%d", abs, st.Size())
	f.name = f.path
	return nil
}

// Close implements the component shape; the file is closed by run.
func (f *feed) Close() {}

func (f *feed) setStatus(st string, frame int64, msg string) {
	if f.status != nil {
		f.status(web.Camera{Status: st, Source: f.name, Frame: frame, Message: msg})
	}
}

// run plays the file (the caller closes f.out after recording the
// result). It returns ErrEOF
// at the end of the file, nil when done is closed, and an error naming
// the line for a line that is not a valid event.
func (f *feed) run(done <-chan struct{}) error {
	fh, err := os.Open(f.path)
	if err != nil {
		f.setStatus(web.CameraError, 0, err.Error())
		return fmt.Errorf("events %s: %w", f.path, err)
	}
	defer fh.Close()
	f.setStatus(web.CameraOK, 0, "")
	rd := bufio.NewReaderSize(fh, 64<<10)
	var cur []events.Event
	curFrame := int64(-1)
	line := 0
	var paceStart time.Time
	var paceBase float64
	flush := func() bool {
		if len(cur) == 0 {
			return true
		}
		catching := curFrame <= f.catchUp
		if f.cfg.pace() && !catching {
			t := cur[0].T
			if paceStart.IsZero() {
				paceStart, paceBase = f.clock.Now(), t
			}
			due := paceStart.Add(time.Duration((t - paceBase) / f.cfg.Speed * float64(time.Second)))
			if d := due.Sub(f.clock.Now()); d > 0 && !clock.Sleep(f.clock, d, done) {
				return false
			}
		}
		now := f.clock.Now()
		f.metrics.frameIn(now)
		o := match.Observation{Frame: curFrame, Captured: now, Events: cur}
		select {
		case f.out <- o:
		case <-done:
			return false
		}
		f.metrics.frameOut(f.clock.Now())
		cur = nil
		return true
	}
	for {
		select {
		case <-done:
			return nil
		default:
		}
		b, err := rd.ReadBytes('\n')
		if len(b) > 0 {
			line++
			if len(bytes.TrimSpace(b)) > 0 {
				if err != nil && !bytes.HasSuffix(b, []byte("\n")) && !json.Valid(bytes.TrimSpace(b)) {
					return fmt.Errorf("events %s:%d: %w: the last line is cut short", f.path, line, ErrCorrupt)
				}
				var e events.Event
				if jerr := json.Unmarshal(b, &e); jerr != nil {
					f.setStatus(web.CameraError, curFrame, jerr.Error())
					return fmt.Errorf("events %s:%d: %w: %v", f.path, line, ErrCorrupt, jerr)
				}
				if verr := e.Validate(); verr != nil {
					return fmt.Errorf("events %s:%d: %w: %v", f.path, line, ErrCorrupt, verr)
				}
				if int64(e.Frame) < curFrame {
					return fmt.Errorf("events %s:%d: %w: frame %d comes after frame %d", f.path, line, ErrCorrupt, e.Frame, curFrame)
				}
				if int64(e.Frame) != curFrame {
					if !flush() {
						return nil
					}
					curFrame = int64(e.Frame)
				}
				cur = append(cur, e)
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				return fmt.Errorf("events %s: %w", f.path, err)
			}
			if !flush() {
				return nil
			}
			f.setStatus(web.CameraStopped, curFrame, "end of the events")
			return fmt.Errorf("events %s: %w", f.path, ErrEOF)
		}
	}
}
