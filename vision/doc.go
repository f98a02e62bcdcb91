// Package vision finds, in every frame of the calibrated overhead camera,
// each carromman, the queen and the striker — a sub-millimetre centre on
// the board and a class — and the hands and arms over the board, so that a
// piece under a hand is reported hidden, never missing. What it reports is
// the contract in types.go ([Frame], [Detection], [Occlusion]), consumed by
// the tracker.
//
// # Use
//
//	det, err := vision.New(cal, vision.Config{Geometry: g}) // once per calibration
//	defer det.Close()
//	for i, frame := range frames {                          // in order
//		f, err := det.Detect(frame, i, t)                    // raw frame: the lens is applied here
//		// f.Detections, f.Occlusion
//	}
//	det.SetCalibration(newCal) // after the camera was knocked
//
// # How a frame is processed
//
// Rectification: one fixed-point remap table (lens undistortion and the
// homography folded together, built once) turns the frame into the board
// seen from straight above at about 0.62 px/mm (496 px square for a 740 mm
// surface and a 30 mm margin of frame). A second table samples the board
// at 2×2 points per 4×4-pixel block for the background model.
//
// Change: each block is compared with the previous frame and with what it
// looked like when last searched (the noise level is measured every frame;
// a change must exceed 3.5 times it, or be shared by a neighbouring
// block). Only the 24-pixel tiles that changed are rectified and searched
// again, with a margin of one tile; discs elsewhere are carried over
// unchanged (so a board at rest reports the very same numbers every
// frame). A few tiles are searched again every frame in turn, the whole
// board every FullEvery·10 frames.
//
// Candidates: every pixel whose colour gradient (the strongest of B, G, R)
// passes a threshold votes for the points one man's radius and one
// striker's radius away along its gradient, both ways; the smoothed vote
// maps peak at disc centres, also in touching clusters, since each rim
// votes for its own centre.
//
// Refinement: the centre is the least-squares point nearest the lines
// through the edge pixels along their gradients (Tukey-weighted): rim,
// bevel, grooves and contact shadow are all circles about the same centre,
// while a neighbour's rim or a printed line is not and drops out. The
// model knows the camera: a disc's top face (8 mm up, the striker's 9) is
// seen enlarged and shifted away from the point under the camera, and the
// side of the disc facing the camera shows beyond it, so the edges of that
// side are fitted to the disc's foot. The camera's centre comes from the
// calibration (its lens model, or the focal length estimated from the
// board's perspective, or a 70° field of view), and the reported position
// is the disc's place on the surface, parallax removed.
//
// Verification: a candidate must show edges across its expected outline
// in most directions (support ≥ 0.8 of the visible outline), its edges
// must point at its centre (symmetry, counting only edges not belonging to
// discs around it, or it must sit exactly touching two accepted discs),
// and a patch of bare wood ringed by printed arcs is refused. Overlapping
// candidates keep the strongest. The printed circles the size of a man are
// told apart: on a base circle the band just inside the outline shows the
// board, on a disc it shows the disc. The red centre circle is the queen's
// size and colour and, in one picture, cannot be told from a queen lying on
// it. Until the empty circle has been seen (the queen detected elsewhere;
// its look is then remembered to tell a queen placed back on it) a lone red
// disc there is reported as the queen, with half its score, only when a
// queen lay there in the last frame or a game is on the board (the
// striker, or men of both colours); otherwise it is parked, not reported.
// Pockets are not searched.
//
// Size: the striker's outline lies 30% farther out than a man's; the
// outermost strong ring of radial edges decides, a striker cannot have a
// man's centre closer than the two radii (a man in a cluster whose
// neighbours mimic a striker's rim), and of several striker-sized discs
// the most convincing is the striker.
//
// Classes: colour features relative to the board's local brightness (the
// median colour of the disc's middle over the bare wood around it: a
// dimmed lamp or the camera's gain do not change them). When a frame shows
// the opening arrangement — a disc on the centre with 15 to 18 men within
// 2.35 diameters — the men are split into two colour groups (the darker is
// black), the model is learned ([ClassModel], source "opening") and the
// breaker's side is read with calibrate.InferBreaker ([Opening]). Before
// that, the men that are clearly red are the queen, the others are split
// in two colour groups when they clearly form two, else classified by
// priors; frames with clearly two groups teach a model (source "frames").
// Sets with two red pieces get two queens with a lower class score (the
// tracker knows there is one).
//
// Hands: blocks that differ from the background model (whatever stayed
// still for 8 frames, brightness changes divided out) and are not on a
// disc form regions; a region of at least 2000 mm² reaching the frame
// around the surface is a hand or an arm. The [Occlusion] of the frame
// says how much of any disc the mask covers; discs partly under it are
// detected from their visible outline and marked Partial. A disc at rest
// that a hand comes over is looked for again where it lay, by the rim it
// showed when last seen whole (refind): while at least half of that rim is
// still there it is reported at its place, partly hidden. The striker
// partly under the fingers — aimed with the fingertips on it, or flicked
// from under a still hand — is found from the arc of its rim that shows,
// with the striker's face (its colour remembered) inside and the hand
// hiding the rest (findPartial), and reported partial.
//
// See docs/vision.md for the measured accuracy and speed.
package vision
