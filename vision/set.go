package vision

import (
	"github.com/boardcam/boardcam/board"
)

// classesOfSet returns the class model of a set's colours (nil when the
// set does not know both colours of men).
func classesOfSet(s *board.Set) *ClassModel {
	if s == nil {
		return nil
	}
	m := &ClassModel{Source: s.Source}
	for k, c := range s.Colours {
		m.Kinds[k] = ClassStats(c)
	}
	if !m.Learned() {
		return nil
	}
	return m
}

// Set returns the set of pieces as the detector knows it: the sizes it
// searches for and the colours of its class model (learned, or from the
// calibration and the configuration).
func (d *Detector) Set() *board.Set {
	s := &board.Set{Source: "geometry", ManMM: d.g.ManDiameter, QueenMM: d.g.QueenDiameter, StrikerMM: d.g.StrikerDiameter}
	if d.set != nil && d.set.Source != "" {
		s.Source = d.set.Source
	}
	if d.cls != nil {
		for k, c := range d.cls.Kinds {
			s.Colours[k] = board.ColourStats(c)
		}
		if d.cls.Learned() && (d.set == nil || d.set.Colours[board.White].N == 0) {
			s.Source = d.cls.Source
		}
	}
	return s
}
