// Package referee turns physical events (package events: from the
// simulator now, from the vision tracker later) into rules-engine events
// with foul calls that carry their evidence.
//
// # Use
//
// A [Referee] is made from a [Config]: the board (board.Geometry), the rule
// profile (*rules.Profile: which fouls exist, their references and
// penalties) and the tolerances. Every physical event goes to
// [Referee.Observe] in order, with the match state (rules.State) as it
// stands after the decisions returned so far were applied. Observe returns
// the [Decision]s the event completes:
//
//   - stroke_end → a stroke decision (rules.Stroke: pieces pocketed and
//     overboard counted from the stroke's events, fouls, a failed break);
//     a foul by another player during the stroke (a hand touching a piece)
//     comes first as a foul decision of its own;
//   - placed → a place decision (rules.Place) for a due or penalty man or
//     the queen put back, with the placing fouls;
//   - moved → a foul decision (rules.FoulCall) for a piece moved by hand
//     outside a stroke;
//   - info decisions (no event) for what the umpire should know: a piece
//     moved before the break, a placement the rules do not expect, events
//     outside a stroke.
//
// [Referee.Umpire] adds the fouls no camera can see (push, thumbing,
// talking, leaving the seat). A decision is self-contained and marshals to
// JSON; its event is rebuilt from its fields by [Decision.Event], so the
// umpire's [Decision.Confirm], [Decision.Overrule] and
// [Decision.AddUmpireFoul] change what is applied. A daemon applies a
// decision at once and, when the umpire overrules it, undoes it
// (rules.Match.Undo) and applies the amended one.
//
// # Calls and confidence
//
// A [Call] names the foul, the offender, the profile's rule reference
// (document, section, number), the frame and time of the decisive event,
// the positions involved ([Evidence]) and the margin: how far, in mm, the
// measurement lies on the foul side of the boundary that decides it. Its
// confidence is Φ(margin / Config.Tolerance), the probability that the
// disc really lies on that side if the measured position has a normal
// error of standard deviation Tolerance. A call whose margin is below the
// tolerance is low-confidence; it is reported but offered to the umpire,
// not applied (the player has the benefit of the doubt) unless
// Config.ApplyLowConfidence. A call that depends on the order of two
// contacts closer in time than Config.TimeTolerance has confidence 0.5.
// Under a profile whose fouls count only when a player claims them
// (rules.Profile.FoulsCalledByPlayers, team-3board) every camera call is
// offered. Fouls the engine derives from the outcome (striker pocketed or
// overboard, pieces overboard) are reported as derived calls: the counts
// in the stroke carry them.
//
// # Doubts
//
// A decision with [Decision.Doubts] is the referee's best guess about
// something the camera could not establish; it is never applied without
// the umpire. Doubts come from the tracker (a stroke_end's Doubts), from
// the referee (no foul is called or cleared on a position the tracker
// inferred; a stroke whose start or rest was not seen) and from the frames
// the daemon did not analyse, reported with [Referee.Unseen] ([Gap]). At
// the end of a stream [Referee.Flush] decides a stroke still in progress.
// A stroke whose start was not seen that can be the stroke of the last
// decision held for the umpire is folded into it: the decision returned
// replaces that one ([Decision.Folds]), so one stroke is one question.
// docs/referee.md has the rules.
//
// # Readings
//
// Where the laws are ambiguous the referee reads them as docs/referee.md
// says: the striker's seat is the stroke_start's side; "crossing the front
// line" is the whole striker past its inner edge (board.CrossedFrontLine),
// and a forward flick stopped by a piece before crossing is not a backward
// flick; a direct hit is the first thing the striker touches, if it is a
// piece and no cushion came first; the adjacent arrows and red circles of
// team-3board are those at the ends of the striker's own base line; the
// hand may go beyond the imaginary extension of the arrows but neither
// hand nor arm over the drawn arrows (ICF Striking 5, Sitting Position 7),
// when the event says what crossed where; moving men before the break is
// setting them out, not a foul.
//
// Package refsim plays simulator scenarios with the rules engine as the
// turn policy and the referee's fouls, for whole boards that follow the
// rules.
package referee
