package eval

import (
	"fmt"
	"io"
	"sort"
	"text/tabwriter"
)

// WriteTable prints the report for people: the summary, one row per clip,
// the events and fouls by type, and the targets.
func (r *Report) WriteTable(w io.Writer) error {
	f := func(v *float64, format string) string {
		if v == nil {
			return "—"
		}
		return fmt.Sprintf(format, *v)
	}
	pct := func(v float64) string { return fmt.Sprintf("%.2f%%", 100*v) }
	s := r.Summary
	fmt.Fprintf(w, "pipeline %s: %d clips, %d frames, %.0f frames/s (pipeline time, decoding excluded)\n", r.Pipeline, s.Clips, s.Frames, s.FPS)
	switch r.Calibration {
	case CalibrationTruth:
		fmt.Fprintf(w, "calibration: truth — diagnostic, not the product's figure (the pipeline was handed each frame's true calibration)\n")
	case CalibrationAuto, "":
		fmt.Fprintf(w, "calibration: auto (found by the pipeline)\n")
	}
	if r.Orientation != "" {
		fmt.Fprintf(w, "orientation: %s\n", r.Orientation)
	}
	if r.Lens != "" && r.Calibration != CalibrationTruth {
		n := 0
		for _, c := range r.Clips {
			if c.LensFile != "" {
				n++
			}
		}
		fmt.Fprintf(w, "lens: %s (%d of %d clips with a lens file)\n", r.Lens, n, len(r.Clips))
	}
	fmt.Fprintln(w)

	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "clip\tframes\tcorner px\tcalib\trecall\tprecision\tclass\tpos mm\tp95 mm\tid sw\tpocketed F1\tfouls F1\tfps\t\n")
	row := func(name string, m Metrics) {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s\t%.0f\t\n", name, m.Frames,
			f(m.CalibrationCornerErrPxMean, "%.2f"), pct(m.CalibrationCoverage), pct(m.DetectionRecall), pct(m.DetectionPrecision),
			pct(m.ClassificationAccuracy), f(m.PositionErrMMMean, "%.2f"), f(m.PositionErrMMP95, "%.2f"), m.IDSwitches,
			typeF1(m.Events, "pocketed"), foulsF1(m.Fouls), m.FPS)
	}
	for _, c := range r.Clips {
		if c.Error != "" {
			fmt.Fprintf(tw, "%s\tERROR\t\t\t\t\t\t\t\t\t\t\t\t\n", c.Name)
			continue
		}
		row(c.Name, c.Metrics)
	}
	row("ALL", s)
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, c := range r.Clips {
		if c.Error != "" {
			fmt.Fprintf(w, "%s: %s\n", c.Name, c.Error)
		}
	}

	for _, part := range []struct {
		title string
		m     map[string]TypeScore
	}{{"events", s.Events}, {"fouls", s.Fouls}} {
		fmt.Fprintf(w, "\n%s\n", part.title)
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "type\ttruth\treported\tmatched\tprecision\trecall\tF1\tF1 ±2 fr\ttiming fr\t\n")
		keys := make([]string, 0, len(part.m))
		for k := range part.m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			t := part.m[k]
			fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%.3f\t%s\t%.3f\t%.3f\t%s\t\n", k, t.Truth, t.Reported, t.Matched, t.Precision,
				f(t.Recall, "%.3f"), t.F1, t.F1Within2, f(t.TimingErrFramesMean, "%.2f"))
		}
		if len(keys) == 0 {
			fmt.Fprintf(tw, "(none)\t\t\t\t\t\t\t\t\t\n")
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "\npocket_under_hand: %d   id_switches (any state): %d   position error moving: %s mm   detection (all states): recall %s, precision %s\n",
		s.PocketUnderHand, s.IDSwitchesAll, f(s.PositionErrMMMeanMoving, "%.2f"), pct(s.DetectionRecallAll), pct(s.DetectionPrecisionAll))

	if r.Calibration == CalibrationTruth {
		fmt.Fprintf(w, "\ntargets (calibration: truth — diagnostic, not the product's figures)\n")
	} else {
		fmt.Fprintf(w, "\ntargets\n")
	}
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	pass := 0
	for _, t := range r.Targets {
		mark := "FAIL"
		if t.Pass {
			mark = "ok"
			pass++
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", t.Name, f(t.Value, "%.4g"), t.Want, mark)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "%d of %d targets met\n", pass, len(r.Targets))
	return nil
}

func typeF1(m map[string]TypeScore, k string) string {
	t, ok := m[k]
	if !ok {
		return "—"
	}
	return fmt.Sprintf("%.3f", t.F1)
}

// foulsF1 is the F1 over all fouls of the clip together.
func foulsF1(m map[string]TypeScore) string {
	var tp, n int
	for _, t := range m {
		tp += t.Matched
		n += t.Truth + t.Reported
	}
	if n == 0 {
		return "—"
	}
	return fmt.Sprintf("%.3f", 2*float64(tp)/float64(n))
}
