package daemon

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/boardcam/boardcam/web"
)

// Latency paths: from a frame's capture (or the capture of the frame in
// which a piece was pocketed) to the moment something was done about it.
const (
	// PathJournal: the decision it completed was fsync'd to the journal.
	PathJournal = "journal"
	// PathSink: the scoreboard, buzzer and terminal were called (Show,
	// Alert; they never block).
	PathSink = "sink"
	// PathDevice: a sink finished writing to its device (from its report).
	PathDevice = "device"
	// PathPublish: the websocket message was handed to the web server.
	PathPublish = "publish"
	// PathNotice: the websocket's immediate "pocketed" notice was handed
	// to the web server (from a pocketing only).
	PathNotice = "notice"
)

// Latency origins.
const (
	// FromFrame: the capture of the frame whose events completed the
	// decision (the stroke's end, the placement) — the pipeline's own
	// latency.
	FromFrame = "frame"
	// FromPocket: the capture of the frame in which a piece fell into a
	// pocket. The scoreboard changes at the stroke's end, so this
	// includes the rest of the stroke; the websocket's "pocketed" notice
	// does not wait for it.
	FromPocket = "pocket"
)

// Metrics are the daemon's figures — capture, analysis, match (through
// match.Metrics), sinks — exported on /metrics through the web server's
// registry (beside the web server's own) and summarised at exit. Each
// thing is counted once, here.
type Metrics struct {
	reg *prometheus.Registry

	framesIn, framesOut prometheus.Counter
	stageLatency        *prometheus.HistogramVec
	subscribersDropped  prometheus.Counter
	dropped             *prometheus.CounterVec
	fpsIn, fpsOut       prometheus.Gauge
	latency             *prometheus.HistogramVec
	decisions           *prometheus.CounterVec
	reconnects          prometheus.Counter
	journalSync         prometheus.Histogram
	gaps                *prometheus.CounterVec
	degradedC           *prometheus.CounterVec
	unanalysableC       *prometheus.CounterVec
	backlog             prometheus.Gauge

	nIn, nOut, nReconnects atomic.Int64
	mu                     sync.Mutex
	drops                  map[string]int64
	lat                    map[string]*samples
	stages                 map[string]*samples
	rateIn, rateOut        rate
	started                time.Time
	uncertain              int64
	degr, unan             map[string]int64
	gapsMoved, gapsStill   int64
}

// How frames are left out to keep up (boardcam_degraded_frames_total).
const (
	DegradedAtRest   = "at_rest"
	DegradedInMotion = "in_motion"
)

func (m *Metrics) degraded(how string) {
	m.degradedC.WithLabelValues(how).Inc()
	m.mu.Lock()
	m.degr[how]++
	m.mu.Unlock()
}

func (m *Metrics) degradedCount(how string) int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.degr[how]
}

func (m *Metrics) unanalysable(why string) {
	m.unanalysableC.WithLabelValues(why).Inc()
	m.mu.Lock()
	m.unan[why]++
	m.mu.Unlock()
}

func (m *Metrics) unanalysableCount() int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := int64(0)
	for _, v := range m.unan {
		n += v
	}
	return n
}

func (m *Metrics) droppedCount(stage string) int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.drops[stage]
}

// register adds a component's own metrics (the evidence adapter's).
func (m *Metrics) register(cs ...prometheus.Collector) {
	for _, c := range cs {
		_ = m.reg.Register(c) // a second daemon in one process (tests) keeps the first's
	}
}

func (m *Metrics) setBacklog(n int) { m.backlog.Set(float64(n)) }

// NewMetrics makes the metrics and registers them in w's registry (w may
// be nil: then they live in a registry of their own).
func NewMetrics(w *web.Metrics, now time.Time) *Metrics {
	m := &Metrics{
		stageLatency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "boardcam_stage_latency_seconds",
			Help:    "Time a pipeline stage takes for one frame: analyze (the whole analysis), rest_check, and each stage the analyzer reports (calibrate, vision, tracker).",
			Buckets: []float64{.0005, .001, .002, .005, .01, .02, .033, .05, .1, .2, .5, 1},
		}, []string{"stage"}),
		subscribersDropped: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "boardcam_match_subscribers_dropped_total", Help: "Subscribers to the match's announcements (MQTT, evidence clips) dropped for being too slow; the websocket and the scoreboard are never dropped.",
		}),
		framesIn: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "boardcam_capture_frames_total", Help: "Frames read from the source.",
		}),
		framesOut: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "boardcam_analysed_frames_total", Help: "Frames analysed (calibrate, vision, tracker).",
		}),
		dropped: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "boardcam_dropped_total", Help: "Frames (or piece updates) dropped, by stage: analyze (frames the capture dropped because the analysis was busy), camera (frames a live camera did not deliver, seen from its time stamps), referee (piece updates without events), publish (piece updates replaced by newer ones).",
		}, []string{"stage"}),
		fpsIn: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "boardcam_capture_fps", Help: "Frames per second read from the source.",
		}),
		fpsOut: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "boardcam_analysed_fps", Help: "Frames per second analysed.",
		}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "boardcam_decision_latency_seconds",
			Help:    "Time from a frame's capture to the decision being journaled (path=journal), shown on the sinks (sink), written to a device (device) or published on the websocket (publish); from=frame counts from the frame that completed the decision, from=pocket from the frame in which a piece was pocketed.",
			Buckets: []float64{.001, .002, .005, .01, .02, .05, .1, .2, .5, 1, 2, 5, 10, 30},
		}, []string{"path", "from"}),
		decisions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "boardcam_decisions_total", Help: "Referee decisions, by kind and outcome (applied, pending, rejected, info).",
		}, []string{"kind", "outcome"}),
		reconnects: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "boardcam_source_reconnects_total", Help: "Times the source was lost and reopened.",
		}),
		gaps: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "boardcam_unseen_gaps_total", Help: "Runs of frames not analysed reported to the referee, by whether pieces moved across them (moved=true: the decision they concern waits for the umpire).",
		}, []string{"moved"}),
		degradedC: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "boardcam_degraded_frames_total", Help: "Frames the analysis left out to keep up with the camera: how=at_rest (everything at rest, each checked unchanged first: nothing is missed), how=in_motion (every other frame while pieces moved: the strokes concerned wait for the umpire).",
		}, []string{"how"}),
		unanalysableC: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "boardcam_unanalysed_frames_total", Help: "Frames that reached the analysis but could not be analysed: why=board_lost (the board not found in them after it had been), why=failed (the analysis failed).",
		}, []string{"why"}),
		backlog: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "boardcam_analysis_backlog_frames", Help: "Frames waiting for the analysis.",
		}),
		journalSync: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "boardcam_journal_commit_seconds", Help: "Time to write and fsync one journal commit.",
			Buckets: []float64{.0001, .0005, .001, .002, .005, .01, .02, .05, .1, .5},
		}),
		drops:   map[string]int64{},
		degr:    map[string]int64{},
		unan:    map[string]int64{},
		lat:     map[string]*samples{},
		stages:  map[string]*samples{},
		started: now,
	}
	reg := prometheus.NewRegistry()
	if w != nil {
		reg = w.Registry()
	}
	m.reg = reg
	reg.MustRegister(m.stageLatency, m.subscribersDropped, m.framesIn, m.framesOut, m.dropped, m.fpsIn, m.fpsOut, m.latency, m.decisions, m.reconnects, m.journalSync, m.gaps, m.degradedC, m.unanalysableC, m.backlog)
	return m
}

func (m *Metrics) frameIn(now time.Time) {
	m.framesIn.Inc()
	m.nIn.Add(1)
	m.mu.Lock()
	if f, ok := m.rateIn.add(now); ok {
		m.fpsIn.Set(f)
	}
	m.mu.Unlock()
}

func (m *Metrics) frameOut(now time.Time) {
	m.framesOut.Inc()
	m.nOut.Add(1)
	m.mu.Lock()
	if f, ok := m.rateOut.add(now); ok {
		m.fpsOut.Set(f)
	}
	m.mu.Unlock()
}

func (m *Metrics) drop(stage string) {
	m.dropped.WithLabelValues(stage).Inc()
	m.mu.Lock()
	m.drops[stage]++
	m.mu.Unlock()
}

func (m *Metrics) stage(name string, d time.Duration) {
	m.stageLatency.WithLabelValues(name).Observe(d.Seconds())
	m.mu.Lock()
	s := m.stages[name]
	if s == nil {
		s = &samples{}
		m.stages[name] = s
	}
	s.add(d)
	m.mu.Unlock()
}

func (m *Metrics) observe(path, from string, d time.Duration) {
	if d < 0 {
		d = 0
	}
	m.latency.WithLabelValues(path, from).Observe(d.Seconds())
	m.mu.Lock()
	k := path + "/" + from
	s := m.lat[k]
	if s == nil {
		s = &samples{}
		m.lat[k] = s
	}
	s.add(d)
	m.mu.Unlock()
}

func (m *Metrics) decision(kind, outcome string) {
	m.decisions.WithLabelValues(kind, outcome).Inc()
	if outcome == "uncertain" {
		m.mu.Lock()
		m.uncertain++
		m.mu.Unlock()
	}
}

func (m *Metrics) gap(moved bool) {
	m.gaps.WithLabelValues(fmt.Sprint(moved)).Inc()
	m.mu.Lock()
	if moved {
		m.gapsMoved++
	} else {
		m.gapsStill++
	}
	m.mu.Unlock()
}

func (m *Metrics) reconnect() {
	m.reconnects.Inc()
	m.nReconnects.Add(1)
}

// Summary is the figures at one moment.
type Summary struct {
	FramesIn, FramesOut int64
	Dropped             map[string]int64
	Reconnects          int64
	// Degraded counts frames left out to keep up, by how
	// (DegradedAtRest, DegradedInMotion); Unanalysable frames the board
	// was not found in or the analysis failed on; GapsMoved and GapsStill
	// the runs of frames not analysed reported to the referee, with and
	// without pieces moving across them; Uncertain the decisions held for
	// the umpire because the camera could not establish them.
	Degraded             map[string]int64
	Unanalysable         int64
	GapsMoved, GapsStill int64
	Uncertain            int64
	// Latency is keyed "path/from" (PathSink+"/"+FromFrame …); Stages by
	// stage name.
	Latency map[string]LatencyStats
	Stages  map[string]LatencyStats
	Elapsed time.Duration
}

// LatencyStats summarises durations.
type LatencyStats struct {
	N                   int
	Mean, P50, P95, Max time.Duration
}

// Summary returns the figures so far.
func (m *Metrics) Summary(now time.Time) Summary {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := Summary{FramesIn: m.nIn.Load(), FramesOut: m.nOut.Load(), Reconnects: m.nReconnects.Load(),
		Dropped: map[string]int64{}, Latency: map[string]LatencyStats{}, Stages: map[string]LatencyStats{}, Elapsed: now.Sub(m.started),
		Degraded: map[string]int64{}, GapsMoved: m.gapsMoved, GapsStill: m.gapsStill, Uncertain: m.uncertain}
	for k, v := range m.degr {
		s.Degraded[k] = v
	}
	for _, v := range m.unan {
		s.Unanalysable += v
	}
	for k, v := range m.drops {
		s.Dropped[k] = v
	}
	for k, v := range m.lat {
		s.Latency[k] = v.stats()
	}
	for k, v := range m.stages {
		s.Stages[k] = v.stats()
	}
	return s
}

// Print writes the summary as a table.
func (s Summary) Print(w io.Writer) {
	fmt.Fprintf(w, "pipeline: %d frames read, %d analysed", s.FramesIn, s.FramesOut)
	if s.Elapsed > 0 && s.FramesOut > 0 {
		fmt.Fprintf(w, " (%.1f/s over %s)", float64(s.FramesOut)/s.Elapsed.Seconds(), s.Elapsed.Round(time.Millisecond))
	}
	var dk []string
	for k := range s.Dropped {
		dk = append(dk, k)
	}
	sort.Strings(dk)
	what := map[string]string{"analyze": "frames before the analysis", "referee": "piece updates before the referee",
		"publish": "piece updates replaced by newer ones", "camera": "frames the camera did not deliver"}
	var ds []string
	for _, k := range dk {
		if w, ok := what[k]; ok {
			ds = append(ds, fmt.Sprintf("%d %s (%s)", s.Dropped[k], w, k))
		} else {
			ds = append(ds, fmt.Sprintf("%s %d", k, s.Dropped[k]))
		}
	}
	if len(ds) == 0 {
		ds = []string{"none"}
	}
	fmt.Fprintf(w, "; dropped: %s; reconnects: %d\n", strings.Join(ds, ", "), s.Reconnects)
	if n := s.Degraded[DegradedAtRest] + s.Degraded[DegradedInMotion] + s.Unanalysable + s.GapsMoved + s.GapsStill + s.Uncertain; n > 0 {
		fmt.Fprintf(w, "  seeing less: %d frames left out at rest (checked unchanged), %d left out in motion, %d unanalysable; %d runs of frames not analysed (%d with pieces moving); %d decisions held for the umpire as uncertain\n",
			s.Degraded[DegradedAtRest], s.Degraded[DegradedInMotion], s.Unanalysable, s.GapsMoved+s.GapsStill, s.GapsMoved, s.Uncertain)
	}
	row := func(name string, l LatencyStats) {
		fmt.Fprintf(w, "  %-22s %6d  %9s %9s %9s %9s\n", name, l.N, ms(l.Mean), ms(l.P50), ms(l.P95), ms(l.Max))
	}
	if len(s.Stages) > 0 {
		fmt.Fprintf(w, "  %-22s %6s  %9s %9s %9s %9s\n", "stage (per frame)", "n", "mean", "p50", "p95", "max")
		var ks []string
		for k := range s.Stages {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		for _, k := range ks {
			row(k, s.Stages[k])
		}
	}
	if len(s.Latency) > 0 {
		fmt.Fprintf(w, "  %-22s %6s  %9s %9s %9s %9s\n", "latency (capture →)", "n", "mean", "p50", "p95", "max")
		order := []string{}
		for _, from := range []string{FromFrame, FromPocket} {
			for _, path := range []string{PathJournal, PathSink, PathDevice, PathPublish, PathNotice} {
				if _, ok := s.Latency[path+"/"+from]; ok {
					order = append(order, path+"/"+from)
				}
			}
		}
		for _, k := range order {
			path, from, _ := strings.Cut(k, "/")
			row(fmt.Sprintf("%s → %s", from, path), s.Latency[k])
		}
	}
}

func ms(d time.Duration) string {
	return fmt.Sprintf("%.2fms", float64(d)/float64(time.Millisecond))
}

// samples keeps the last maxSamples durations and exact totals.
type samples struct {
	buf  []time.Duration
	next int
	n    int
	sum  time.Duration
	max  time.Duration
}

const maxSamples = 8192

func (s *samples) add(d time.Duration) {
	s.n++
	s.sum += d
	if d > s.max {
		s.max = d
	}
	if len(s.buf) < maxSamples {
		s.buf = append(s.buf, d)
		return
	}
	s.buf[s.next] = d
	s.next = (s.next + 1) % maxSamples
}

func (s *samples) stats() LatencyStats {
	if s.n == 0 {
		return LatencyStats{}
	}
	v := append([]time.Duration(nil), s.buf...)
	sort.Slice(v, func(i, j int) bool { return v[i] < v[j] })
	q := func(p float64) time.Duration {
		i := int(math.Ceil(p*float64(len(v)))) - 1
		if i < 0 {
			i = 0
		}
		return v[i]
	}
	return LatencyStats{N: s.n, Mean: s.sum / time.Duration(s.n), P50: q(0.5), P95: q(0.95), Max: s.max}
}

// rate measures events per second over windows of at least a second.
type rate struct {
	start time.Time
	n     int
}

func (r *rate) add(now time.Time) (float64, bool) {
	if r.start.IsZero() {
		r.start = now
	}
	r.n++
	if el := now.Sub(r.start); el >= time.Second {
		f := float64(r.n) / el.Seconds()
		r.start, r.n = now, 0
		return f, true
	}
	return 0, false
}

// The match component's figures (match.Metrics).

// JournalCommit implements match.Metrics.
func (m *Metrics) JournalCommit(d time.Duration) { m.journalSync.Observe(d.Seconds()) }

// Latency implements match.Metrics.
func (m *Metrics) Latency(path, from string, d time.Duration) { m.observe(path, from, d) }

// Decision implements match.Metrics.
func (m *Metrics) Decision(kind, outcome string) { m.decision(kind, outcome) }

// Gap implements match.Metrics.
func (m *Metrics) Gap(moved bool) { m.gap(moved) }

// SubscriberDropped implements match.Metrics.
func (m *Metrics) SubscriberDropped() { m.subscribersDropped.Inc() }
