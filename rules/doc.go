// Package rules is the carrom rules engine: it keeps a match by applying
// events — stroke outcomes, placements and umpire decisions — under one of
// five rule profiles, and gives the full [State] after each.
//
// # Profiles
//
// A [Profile] is one rule document of the shared rule documents (../shared/rules) played exactly:
// "icf" (ICF Laws of Carrom), "team-3board" (team event, three boards or 29
// points), "nit-delhi", "jamshedpur" and "four-break" (queen worth 3, four
// breaks). It holds the parameters that differ (queen value and cut-off,
// match formats, turn order, when dues are taken out, which outcomes are
// fouls …), the fouls it recognises with their rule references
// ([Profile.Fouls]), the special board endings in rule order
// ([Profile.Finish], e.g. ICF Covering the Queen 19-39), and notes on how
// ambiguous or silent text was read. Where a document is silent the ICF laws
// apply; references say so ("(fallback)"). docs/profiles.md maps every
// numbered rule to the code and the test that implement it.
//
// # Events and the match
//
// [NewMatch] starts a match from a [Header] (profile, players and seats,
// first breaker); [Match.Apply] applies an [Event]: a [Stroke] (the striking
// seat, men pocketed by colour, queen, striker, pieces overboard, fouls, a
// failed break attempt), a [Place] or [Forfeit] or [Defer] of men awaiting
// placement, a [Pass], or a decision ([FoulCall], [DemandPoints],
// [Concede], [Disqualify], [Replay], [CallTime], [CoverQueen], [Noticed],
// [Undo]). An
// event that is illegal in the current state (wrong player, more men than
// are on the board, …) returns an [*IllegalEventError] and changes nothing.
// [Match.Undo] reverts the last event. [Match.State] returns a deep copy.
//
// Dues and penalties are owed by a side until men of its colour are in the
// pockets; then they are taken out (after the stroke, or at the end of the
// turn, as the profile says) and await placement. A log need not write the
// placements: men still awaiting placement are put back automatically just
// before the next stroke; an explicit "place" line is checked, "forfeit"
// leaves them out and "defer" keeps them waiting.
//
// # The stroke log
//
// [ParseLog] reads the plain-text notation of a whole match (a header, then
// one event per line; docs/stroke-log.md) and reports errors as
// [*LineError]; [Log.Play] replays it. [FormatHeader] and [FormatEvent]
// write the notation back: parsing what they write gives the same header
// and events, so a journal of FormatEvent lines replays a match exactly.
// A log may start from a [Position] (a header line); [PositionOf] writes
// any state a match reaches as one, and a match started from it is in the
// same state.
//
// A Match is not safe for concurrent use. The package does no I/O beyond
// reading a log and never logs.
package rules
