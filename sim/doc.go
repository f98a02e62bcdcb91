// Package sim is the carrom simulator: deterministic 2D physics of the
// discs, scripted hands, scenario files and an automatic player. It turns a
// scenario (docs/scenarios.md) into a [Trace]: a scene.Scene for every video
// frame (or any instant, for motion blur) and the exact ground-truth
// events.Event list that the vision pipeline and the referee are measured
// against.
//
// # Physics
//
// Discs slide on the surface slowed by Coulomb friction (a constant
// deceleration μ·g along the velocity), so between two collisions a disc's
// path is a straight line travelled with constant deceleration, known in
// closed form. The simulation advances in sub-steps of at most
// [Physics.MaxStep]; inside a sub-step it solves for the exact instant of
// the first event — two discs touching, a disc reaching a cushion, a
// disc's centre entering a pocket mouth, the striker wholly passing its
// front base line, a jumping disc leaving the surface — advances every disc
// analytically to it, resolves it and carries on. A fast striker can
// therefore never tunnel through a man, and every event time is exact to
// about 1e-13 s. Collisions are instantaneous impulses along the line of
// centres with a coefficient of restitution (discs 0.85, cushions 0.7);
// they conserve momentum and never add energy. Touching discs (the opening
// pack) pass an impulse on at the same instant, pair by pair, the fastest
// closing pair first. A glancing contact also turns the discs, which only
// changes how they are drawn.
//
// The constants and where they come from are documented on [Physics].
//
// # Events
//
// Events use the vocabulary of package events: stroke_start (side and the
// striker's position at the flick), contact (a pair of discs, or a disc
// and "frame", in the exact order they happened; a pair that stays in touch
// makes one contact until it parts by 1 mm; A is the striker when it is
// involved, else the faster of the two), front_line_crossed (the first
// time in a stroke the whole striker is past its front line, if it started
// behind it), pocketed, overboard (where the disc left the surface), stroke_end (everything at
// rest, with the pieces left on the board), placed (a hand put a man or the
// queen on the board; never for the striker, whose placement stroke_start
// reports), moved (a finger pushed a resting disc; at the end of the push,
// with the new position) and arm_over_foul_line (at the flick, when the
// hand or forearm footprint reaches past the side's diagonal foul lines:
// two capsules, or the judge in Options.ArmFoul).
// T is the exact time; Frame is the first video frame at or after it.
//
// # Hands
//
// Hands are keyframed with eased motion. The wrist and elbow follow from
// the fingertip, the hand's direction and the owner's shoulder beyond the
// frame, so an arm always comes in over its own side. A hand never goes
// lower than 10 mm above the surface, above every disc: it hides discs from
// the camera but never touches them, except the disc it holds and the one
// a nudge pushes.
//
// # Determinism
//
// Every random choice (hand timing and jitter, the automatic player's
// errors, where due men go) comes from one PCG source seeded by the
// scenario's seed, and nothing iterates a map or runs concurrently, so a
// scenario and seed always give a bit-identical trace ([Trace.Hash]).
package sim
