// Package render draws a carrom board as an overhead camera sees it: a
// camera model with lens distortion whose ground truth (surface corners,
// homography, camera matrix, distortion coefficients) is exact, realistic
// synthetic frames of a [scene.Scene] (wood, wear, powder, markings, lamp
// light and glare, soft shadows, natural-wood pieces, hands and arms, motion
// blur, sensor noise, compression), and a deterministic H.264 encoder.
//
// # Use
//
//	r, err := render.New(settings, geometry, seed) // once per clip
//	defer r.Close()
//	frame := gocv.NewMat()
//	defer frame.Close()
//	for _, sc := range scenes {
//		r.Render(&sc, &frame)            // or RenderSampled with the simulator's trajectory
//		enc.Write(frame)                 // enc from NewEncoder
//		truth := r.CameraAt(sc.T)        // corners, homography, lens of this frame
//	}
//
// # How a frame is made
//
// Once per clip the static textures are painted top-down in board
// millimetres (at about 1.6 texels per image pixel): the playing surface,
// the top of the frame, the frame's inner walls, the background; and the
// sprites of the discs. Once per camera pose a ray is cast through every
// (supersampled) pixel — undistorted with the lens model, intersected with
// the frame's top, the surface, the inner walls or the background below —
// into one remap table, which OpenCV's Remap applies to the texture atlas;
// the same rays give each pixel's lighting gain (lamp fall-off, the frame's
// shadow, uneven light, vignetting) and the lamp's glare on the lacquer.
// Per frame the discs, their shadows and the hands are drawn into a copy of
// that static frame pixel by pixel, each pixel's ray meeting the plane of the
// disc's top or the hand, so perspective, parallax and distortion are exact;
// then lens blur, sharpening, light level, tone curve, saturation and sensor
// noise are applied, and optionally a JPEG round trip.
//
// Every random choice comes from the seed (textures, piece tones, hands) or
// from the seed and the frame's time (noise), so a frame depends only on the
// settings, the seed and its scene — not on the frames rendered before it.
// See docs/rendering.md for the settings and what the picture has.
package render
