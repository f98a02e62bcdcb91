package synth

import (
	"errors"
	"fmt"
	"image"
	"math"
	"math/rand/v2"
	"sort"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/corpus"
	"github.com/boardcam/boardcam/render"
)

// LensCamera returns the camera of a clip spec at the start of the clip
// (its intrinsics do not change when it is knocked).
func LensCamera(sp *corpus.Spec) (*render.Camera, error) {
	rd, err := render.New(sp.Render, sp.Scenario.Geometry, 1)
	if err != nil {
		return nil, fmt.Errorf("synth: %s: %w", sp.Name, err)
	}
	defer rd.Close()
	return rd.CameraAt(0), nil
}

// ChessboardViews renders n photographs of the printed chessboard pat
// through the lens of cam, as a club takes them for `boardcam calibrate
// --lens`: the sheet held 20–80 cm under the camera, at positions
// spread over the picture (into its corners, where the distortion is
// strongest) and tilted up to about 30°, over a dull background, with the
// camera's blur and sensor noise. Every view shows the whole pattern.
// Only cam's intrinsics are used (camera matrix and distortion). The views
// are the caller's to Close.
func ChessboardViews(cam *render.Camera, pat corpus.ChessboardPattern, n int, seed uint64) ([]gocv.Mat, error) {
	if pat.Cols < 3 || pat.Rows < 3 || !(pat.Square > 0) {
		return nil, fmt.Errorf("synth: chessboard %dx%d of %v mm is not a pattern", pat.Cols, pat.Rows, pat.Square)
	}
	if n < 3 {
		return nil, errors.New("synth: chessboard views: need at least 3")
	}
	w, h := cam.Width, cam.Height
	// Undistorted normalised coordinates of 2×2 samples per pixel.
	const ss = 2
	nx, ny := make([]float32, w*h*ss*ss), make([]float32, w*h*ss*ss)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			for sy := 0; sy < ss; sy++ {
				for sx := 0; sx < ss; sx++ {
					px := float64(x) + (float64(sx)+0.5)/ss - 0.5
					py := float64(y) + (float64(sy)+0.5)/ss - 0.5
					ux, uy := cam.Undistort(px, py)
					i := ((y*w+x)*ss+sy)*ss + sx
					nx[i] = float32((ux - cam.Cx) / cam.Fx)
					ny[i] = float32((uy - cam.Cy) / cam.Fy)
				}
			}
		}
	}
	r := rand.New(rand.NewPCG(seed, 0x1e75))
	// Paper: the pattern's squares plus one square of white margin.
	pw := float64(pat.Cols+3) * pat.Square
	ph := float64(pat.Rows+3) * pat.Square
	var views []gocv.Mat
	fail := func(err error) ([]gocv.Mat, error) {
		for _, v := range views {
			v.Close()
		}
		return nil, err
	}
	for v := 0; v < n; v++ {
		var pose chessPose
		ok := false
		for try := 0; try < 20 && !ok; try++ {
			pr := randomPose(r, v)
			// As far toward its target as the sheet stays in the picture.
			for push := 1.4; push > 0 && !ok; push -= 0.02 {
				pose = pr.at(cam, push, pw)
				ok = pose.inside(cam, pw, ph, 4)
			}
		}
		if !ok {
			return fail(fmt.Errorf("synth: chessboard view %d: no pose keeps the sheet inside the %dx%d picture", v+1, w, h))
		}
		img := gocv.NewMatWithSize(h, w, gocv.MatTypeCV8UC3)
		data, err := img.DataPtrUint8()
		if err != nil {
			img.Close()
			return fail(fmt.Errorf("synth: %w", err))
		}
		light := 0.85 + 0.25*r.Float64()
		grad := [2]float64{(r.Float64() - 0.5) * 0.3, (r.Float64() - 0.5) * 0.3}
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				var sum float64
				for s := 0; s < ss*ss; s++ {
					i := (y*w+x)*ss*ss + s
					sum += pose.shade(float64(nx[i]), float64(ny[i]), pat, pw, ph)
				}
				g := sum / (ss * ss) * light * (1 + grad[0]*(float64(x)/float64(w)-0.5) + grad[1]*(float64(y)/float64(h)-0.5))
				g += r.NormFloat64() * 2.0
				val := uint8(math.Max(0, math.Min(255, math.Round(g))))
				o := (y*w + x) * 3
				data[o], data[o+1], data[o+2] = val, val, val
			}
		}
		gocv.GaussianBlur(img, &img, image.Point{}, 0.7, 0.7, gocv.BorderReflect101)
		views = append(views, img)
	}
	return views, nil
}

// chessPose is the sheet's pose in the camera frame (OpenCV's: x right, y
// down, z along the optical axis): its centre P and its axes E1 (along the
// rows), E2 (down the columns), N (the normal).
type chessPose struct {
	P, E1, E2, N [3]float64
}

// poseRequest is a view's aim: the target in the picture (-1…1 across
// each axis), the share of the picture's width the sheet fills, its tilt.
type poseRequest struct {
	t    [2]float64
	frac float64
	rot  [3][3]float64
}

// randomPose aims view v: the first views go toward the corners and edges
// of the picture, the rest anywhere; the sheet fills 25–55% of the
// picture's width and is tilted up to about 30°.
func randomPose(r *rand.Rand, v int) poseRequest {
	targets := [][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}, {0, 0}, {0, -1}, {1, 0}, {0, 1}, {-1, 0}}
	var q poseRequest
	if v < len(targets) {
		q.t = targets[v]
	} else {
		q.t = [2]float64{2*r.Float64() - 1, 2*r.Float64() - 1}
	}
	q.frac = 0.25 + 0.3*r.Float64()
	ax := (r.Float64()*2 - 1) * 30 * math.Pi / 180
	ay := (r.Float64()*2 - 1) * 30 * math.Pi / 180
	az := (r.Float64()*2 - 1) * 25 * math.Pi / 180
	if v%3 == 2 {
		az += math.Pi / 2 // some views with the sheet turned a quarter
	}
	q.rot = mat3Mul(rotZ(az), mat3Mul(rotX(ax), rotY(ay)))
	return q
}

// at places the sheet's centre push of the way to the target (1: where an
// untilted sheet would touch the picture's border without distortion).
func (q poseRequest) at(cam *render.Camera, push, sheet float64) chessPose {
	pw := float64(cam.Width)
	z := cam.Fx * sheet / (q.frac * pw)
	ux := cam.Cx + q.t[0]*push*(1-q.frac)*pw/2
	uy := cam.Cy + q.t[1]*push*(float64(cam.Height)/2-q.frac*pw*0.36)
	return chessPose{P: [3]float64{z * (ux - cam.Cx) / cam.Fx, z * (uy - cam.Cy) / cam.Fy, z},
		E1: col(q.rot, 0), E2: col(q.rot, 1), N: col(q.rot, 2)}
}

// inside reports whether the whole sheet (with margin px to spare) lies
// inside the distorted picture and faces the camera.
func (c chessPose) inside(cam *render.Camera, pw, ph, margin float64) bool {
	if c.N[2] == 0 || math.Abs(c.N[2]) < 0.6 {
		return false
	}
	for _, u := range []float64{-pw / 2, 0, pw / 2} {
		for _, v := range []float64{-ph / 2, 0, ph / 2} {
			q := [3]float64{c.P[0] + u*c.E1[0] + v*c.E2[0], c.P[1] + u*c.E1[1] + v*c.E2[1], c.P[2] + u*c.E1[2] + v*c.E2[2]}
			if q[2] < 50 {
				return false
			}
			x, y := cam.Distort(cam.Fx*q[0]/q[2]+cam.Cx, cam.Fy*q[1]/q[2]+cam.Cy)
			if x < margin || y < margin || x > float64(cam.Width)-1-margin || y > float64(cam.Height)-1-margin {
				return false
			}
		}
	}
	return true
}

// shade is the brightness the ray through normalised undistorted (x, y)
// sees: the chessboard's squares on white paper, or the background.
func (c chessPose) shade(x, y float64, pat corpus.ChessboardPattern, pw, ph float64) float64 {
	const white, black, background = 215, 28, 95
	den := c.N[0]*x + c.N[1]*y + c.N[2]
	if den == 0 {
		return background
	}
	t := (c.N[0]*c.P[0] + c.N[1]*c.P[1] + c.N[2]*c.P[2]) / den
	if t <= 0 {
		return background
	}
	d := [3]float64{t*x - c.P[0], t*y - c.P[1], t - c.P[2]}
	u := d[0]*c.E1[0] + d[1]*c.E1[1] + d[2]*c.E1[2]
	v := d[0]*c.E2[0] + d[1]*c.E2[1] + d[2]*c.E2[2]
	if math.Abs(u) > pw/2 || math.Abs(v) > ph/2 {
		// A dull, slightly patterned background (the board below).
		return background + 12*math.Sin(0.013*t*x*40)*math.Sin(0.011*t*y*40)
	}
	// Squares: (Cols+1) × (Rows+1) of them, centred.
	qu := (u + float64(pat.Cols+1)*pat.Square/2) / pat.Square
	qv := (v + float64(pat.Rows+1)*pat.Square/2) / pat.Square
	if qu < 0 || qv < 0 || qu >= float64(pat.Cols+1) || qv >= float64(pat.Rows+1) {
		return white
	}
	if (int(qu)+int(qv))%2 == 0 {
		return black
	}
	return white
}

func rotX(a float64) [3][3]float64 {
	c, s := math.Cos(a), math.Sin(a)
	return [3][3]float64{{1, 0, 0}, {0, c, -s}, {0, s, c}}
}

func rotY(a float64) [3][3]float64 {
	c, s := math.Cos(a), math.Sin(a)
	return [3][3]float64{{c, 0, s}, {0, 1, 0}, {-s, 0, c}}
}

func rotZ(a float64) [3][3]float64 {
	c, s := math.Cos(a), math.Sin(a)
	return [3][3]float64{{c, -s, 0}, {s, c, 0}, {0, 0, 1}}
}

func mat3Mul(a, b [3][3]float64) [3][3]float64 {
	var o [3][3]float64
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			for k := 0; k < 3; k++ {
				o[i][j] += a[i][k] * b[k][j]
			}
		}
	}
	return o
}

func col(m [3][3]float64, j int) [3]float64 { return [3]float64{m[0][j], m[1][j], m[2][j]} }

// LensClips groups clip specs by camera: fingerprint → the clips' names
// (sorted), and each fingerprint's first spec.
func LensClips(specs []*corpus.Spec) (map[string][]string, map[string]*corpus.Spec, map[string]*render.Camera, error) {
	names := map[string][]string{}
	first := map[string]*corpus.Spec{}
	cams := map[string]*render.Camera{}
	for _, sp := range specs {
		cam, err := LensCamera(sp)
		if err != nil {
			return nil, nil, nil, err
		}
		fp := corpus.CameraFingerprint(cam.Width, cam.Height, cam.CameraMatrix(), cam.DistCoeffs())
		if _, ok := first[fp]; !ok {
			first[fp], cams[fp] = sp, cam
		}
		names[fp] = append(names[fp], sp.Name)
	}
	for fp := range names {
		sort.Strings(names[fp])
	}
	return names, first, cams, nil
}
