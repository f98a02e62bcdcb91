package buttons

import "time"

// Debouncer debounces one button. It is a pure state machine: Edge records
// an edge of the line, Advance says whether a press completed by a given
// time, Deadline says when Advance next needs to be called. The zero value
// is not usable: use NewDebouncer.
type Debouncer struct {
	debounce time.Duration
	hold     time.Duration

	raw     bool      // the line's state after its last edge
	rawAt   time.Time // time of the last edge
	stable  bool      // the debounced state
	pressAt time.Time // when the debounced press began
	fired   bool      // the current press already fired
	armed   bool      // a release was seen since start: presses may fire
}

// NewDebouncer returns a debouncer for a button whose line is active when
// the debouncer starts (a button held at start-up fires only after a
// release and a new press). hold is 0 for a command on press, else the time
// the button must be held.
func NewDebouncer(debounce, hold time.Duration, active bool) *Debouncer {
	return &Debouncer{debounce: debounce, hold: hold, raw: active, stable: active, armed: !active}
}

// Edge records an edge: the line became active (or inactive) at at.
func (d *Debouncer) Edge(active bool, at time.Time) {
	d.raw, d.rawAt = active, at
}

// Advance brings the debounced state up to now and reports a press that
// completed (its command should fire), with the time the press began.
func (d *Debouncer) Advance(now time.Time) (fired bool, pressedAt time.Time) {
	if d.raw != d.stable && !now.Before(d.rawAt.Add(d.debounce)) {
		d.stable = d.raw
		if d.stable {
			d.pressAt, d.fired = d.rawAt, false
		} else {
			d.armed = true
		}
	}
	if d.stable && d.armed && !d.fired && !now.Before(d.pressAt.Add(d.hold)) {
		d.fired = true
		return true, d.pressAt
	}
	return false, time.Time{}
}

// Deadline is the next time Advance can change something, and false when
// nothing is pending.
func (d *Debouncer) Deadline() (time.Time, bool) {
	if d.raw != d.stable {
		return d.rawAt.Add(d.debounce), true
	}
	if d.stable && d.armed && !d.fired {
		return d.pressAt.Add(d.hold), true
	}
	return time.Time{}, false
}

// Pressed is the debounced state.
func (d *Debouncer) Pressed() bool { return d.stable }
