// Package foul describes, once, every foul a profile knows and every doubt
// the camera raises: what a newcomer adding a foul edits, and what the
// rest of boardcam reads instead of listing fouls itself.
//
// A foul's [Desc] holds its stable code, what kind of foul it is, its rule
// reference in each profile's document, and — for a foul the camera can
// judge — what the camera must see, which seen facts the call rests on,
// how the simulator's ground truth produces it and how `boardcam eval`
// scores it. The readers:
//
//   - rules builds each profile's foul table from the references
//     ([Desc.Refs]); a foul is recognised by a profile exactly when its
//     description names that profile (or falls back on the ICF laws);
//   - referee offers instead of applying the calls that rest on an
//     inferred fact ([Camera.RestsOn]) and runs the checks of fouls
//     described with a check of their own;
//   - corpus takes its foul tags (expect.covers) from [Camera.Truth];
//   - eval scores each foul within its window ([Score]);
//   - the daemon heads the umpire's evidence card with [Desc.Heading];
//   - tracker and referee word their doubts with this package's
//     functions (doubt.go), so that one doubt reads the same wherever it is
//     raised.
//
// Adding a foul the camera can judge: a file here with its code and its
// description (registered from init) and a test of its one-line notation;
// the check that judges it, in a file of the referee's own (it registers
// itself for the code and the stage of the stroke it judges;
// referee/arrowcoin.go is the model), or, when the
// camera must see a physical event the tracker does not report yet, a
// detector of that event in a file of the tracker's; their tests; and a
// corpus clip whose spec covers the description's truth tag, so that
// `boardcam eval` scores it. The docs tests also want the foul in
// docs/profiles.md and docs/referee.md. No other code lists fouls for a
// new one: the profiles, the referee's doubts and checks, the corpus,
// eval and the evidence cards read the description (the referee's checks
// of one foul each are registered so; only the placement's, the hands'
// and the outcome's, which call several fouls each, run from judge
// itself). adjacent_arrow_coin.go is the example.
//
// The package is pure Go and depends only on board and events (the
// vocabulary of what the camera sees), so that rules, which imports it,
// stays pure Go.
package foul
