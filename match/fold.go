package match

import (
	"fmt"
	"strings"

	"github.com/boardcam/boardcam/referee"
)

// A decision the referee folded into an earlier one (referee.Decision.Folds:
// a later stroke whose start was not seen, which can be the stroke of a
// decision still held for the umpire) takes that decision's place: the
// pending decision keeps its id and gets the folded decision, with every
// reason and note of both and one best guess. The journal records it with
// a line {"folded": id, "decision": …}; reading the journal puts it in
// place the same way, and a replay of the video folds the same way (the
// referee folds on the events alone). The umpire console is sent the
// pending decision again under the same id: one question.
//
// When the decision it folds into is no longer pending (the umpire settled
// it before the later evidence came), the folded decision is held on its
// own with no outcome to apply: the evidence is put before the umpire, who
// decided that stroke already, and confirming it changes nothing; a
// correction enters what happened.

// folded is a held decision as it was before a fold replaced it.
type folded struct {
	p *pending
	d referee.Decision
}

// fold puts folded decision d in the place of the held decision it folds
// into; ok is false when there is none.
func (k *Keeper) fold(d referee.Decision) ([]Line, []Announcement, bool) {
	var p *pending
	for _, q := range k.pend {
		if q.Held && q.D.Kind == d.Kind && q.D.Frame == *d.Folds && q.D.Uncertain() {
			p = q
		}
	}
	if p == nil {
		return nil, nil, false
	}
	k.folds = append(k.folds, folded{p: p, d: p.D})
	was := p.D.Log
	p.D = d
	k.metrics.Decision(string(d.Kind), "folded")
	k.log.Warn("uncertain decision amended: later evidence of the same stroke folded into it", "pending", p.ID, "kind", string(d.Kind),
		"seat", d.Seat.String(), "best_guess", orDash(d.Log), "was", orDash(was), "why", strings.Join(d.Reasons(), "; "))
	meta := Meta{Folded: p.ID, Decision: &p.D, By: "auto",
		Note: fmt.Sprintf("later evidence (frame %d) folded into %s: best guess %s (was %s)", d.Frame, p.ID, orDash(d.Log), orDash(was))}
	return []Line{{Meta: meta}}, []Announcement{{Items: []Item{k.pendingMsg(p)}}}, true
}

// unfold puts back the held decisions replaced since the last commit (the
// commit failed).
func (k *Keeper) unfold() {
	for i := len(k.folds) - 1; i >= 0; i-- {
		k.folds[i].p.D = k.folds[i].d
	}
	k.folds = nil
}
