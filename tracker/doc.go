// Package tracker follows the twenty discs of a carrom board — W1…W9,
// B1…B9, the queen Q and the striker S — through the detections of the
// vision stage (sight.Frame, one per video frame) and turns what they do
// into the physical events of package events: stroke_start,
// front_line_crossed, contact, pocketed, overboard, stroke_end, placed,
// moved and arm_over_foul_line.
//
// # Identities and assignment
//
// The identities are fixed; a disc's kind comes from its identity. Every
// frame the detections are matched to the identities by optimal
// assignment (Hungarian method) on gated costs of distance and class, in
// three passes: close to where each disc should be (at rest: its resting
// place; moving: its predicted slide); then, for discs that may have been
// set moving since (a stroke's moving disc passed near, or a hand is over
// them), anywhere they could have reached; then discs coming out from
// under a hand, lost ones, and the striker wherever a hand brought it.
// Detections nobody explains become candidates; a candidate seen in a few
// frames running becomes a disc: a lost one of its kind, or a free
// identity (then it was placed, when a hand was there to put it).
//
// # Motion
//
// A moving disc slides in a straight line slowed by constant friction
// between collisions; its path is a sequence of such segments fitted to
// its detections. A detection that leaves the predicted path (or a path
// that would pass through a disc lying still) starts a new segment: a
// collision happened in between. Contacts, the striker's crossing of its
// front line, pocketing and overboard are all solved on these paths, to a
// fraction of a frame.
//
// # States
//
// A disc is unseen, at rest, placed (at rest where a hand put it since the
// last stroke), moving, occluded (under a hand: kept where it was, never
// pocketed), pocketed (with the pocket), overboard or missing (in plain
// view but not detected for a while: kept, and taken up again when seen).
//
// # Strokes
//
// A stroke starts when the striker slides away on its own from a
// standstill on a base line (or, hidden by the aiming hand, from a base
// line the path leads back to) — leaving the hand behind, or sliding on
// while the hand over it stays where it was (a striker that moves with
// the hand is carried) — or, when the striker was too fast to be seen,
// when discs are set moving with no hand near them; it ends when
// every disc has been at rest for Config.StrokeEndTime. Events carry the
// frame and time at which they happened, estimated from the paths; they
// are released in time order once nothing earlier can still be
// recognised (Config.EventDelay, longer while a disc's fate is open).
//
// docs/tracking.md describes every rule, its thresholds and what was
// measured. Package trackertest makes realistic detections from the
// simulator's truth for testing.
package tracker
