package web

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/internal/overlay"
	"github.com/boardcam/boardcam/render/paint"
	"github.com/boardcam/boardcam/rules"
)

func TestHashPassword(t *testing.T) {
	h, err := HashPasswordIter("correct horse battery", 1000)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "pbkdf2-sha256$1000$") {
		t.Errorf("hash %q", h)
	}
	if strings.Contains(h, "correct") {
		t.Error("hash contains the password")
	}
	for pw, want := range map[string]bool{"correct horse battery": true, "correct horse batterY": false, "": false} {
		if ok, err := VerifyPassword(h, pw); err != nil || ok != want {
			t.Errorf("VerifyPassword(%q) = %v, %v; want %v", pw, ok, err, want)
		}
	}
	h2, _ := HashPasswordIter("correct horse battery", 1000)
	if h2 == h {
		t.Error("two hashes of one password are equal: no salt")
	}
	if _, err := HashPasswordIter("short", 1000); err == nil {
		t.Error("a 5-character password was accepted")
	}
	if _, err := HashPasswordIter("long enough", 10); err == nil {
		t.Error("10 iterations accepted")
	}
	parts := strings.Split(h, "$")
	for _, bad := range []struct{ hash, want string }{
		{"", "not a pbkdf2-sha256 hash"},
		{"bcrypt$2a$10$abc", "not a pbkdf2-sha256 hash"},
		{"pbkdf2-sha256$ten$" + parts[2] + "$" + parts[3], "iterations"},
		{"pbkdf2-sha256$1000$!!$" + parts[3], "salt"},
		{"pbkdf2-sha256$1000$" + parts[2] + "$AAAA", "key"},
	} {
		_, err := VerifyPassword(bad.hash, "x")
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("VerifyPassword(hash %q): error %v, want one mentioning %q", bad.hash, err, bad.want)
		}
	}
}

func TestConfigValidation(t *testing.T) {
	if err := (Config{}).withDefaults().validate(); err != nil {
		t.Fatalf("defaults do not validate: %v", err)
	}
	c := Config{
		AllowedOrigins: []string{"http://ok.example:8080", "null", "ftp://x", "http://host/path", "nohost"},
		UmpireHash:     "plain-text-password",
		PingInterval:   time.Minute,
		PongTimeout:    30 * time.Second,
		PreviewFPS:     100,
		PreviewQuality: 101,
		SendBuffer:     -1,
	}.withDefaults()
	err := c.validate()
	if err == nil {
		t.Fatal("bad config accepted")
	}
	for _, want := range []string{"allowed_origins[2]", "allowed_origins[3]", "allowed_origins[4]", "umpire_hash", "ping_interval", "preview_fps", "preview_quality", "send_buffer"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not name %s:\n%v", want, err)
		}
	}
	for _, ok := range []string{"allowed_origins[0]", "allowed_origins[1]"} {
		if strings.Contains(err.Error(), ok) {
			t.Errorf("error blames the good %s:\n%v", ok, err)
		}
	}
}

func TestOriginAllowed(t *testing.T) {
	c := Config{AllowedOrigins: []string{"https://club.example:8443"}}
	cases := []struct {
		origin, host  string
		allowed, same bool
	}{
		{"", "boardcam.local:8080", true, false},
		{"http://boardcam.local:8080", "boardcam.local:8080", true, true},
		{"http://BOARDCAM.local:8080", "boardcam.local:8080", true, true},
		{"http://boardcam.local:9090", "boardcam.local:8080", false, false},
		{"https://club.example:8443", "boardcam.local:8080", true, false},
		{"https://club.example", "boardcam.local:8080", false, false},
		{"http://evil.example", "boardcam.local:8080", false, false},
		{"null", "boardcam.local:8080", false, false},
		{"::::", "boardcam.local:8080", false, false},
	}
	for _, k := range cases {
		a, s := c.originAllowed(k.origin, k.host)
		if a != k.allowed || s != k.same {
			t.Errorf("origin %q host %q: allowed %v same %v; want %v %v", k.origin, k.host, a, s, k.allowed, k.same)
		}
	}
	c.AllowedOrigins = append(c.AllowedOrigins, "null")
	if a, _ := c.originAllowed("null", "x"); !a {
		t.Error("null not admitted when configured")
	}
}

func TestTokenBucket(t *testing.T) {
	t0 := time.Unix(1000, 0)
	b := newTokenBucket(2, 3, t0)
	n := 0
	for i := 0; i < 10; i++ {
		if b.allow(t0) {
			n++
		}
	}
	if n != 3 {
		t.Errorf("burst allowed %d, want 3", n)
	}
	if !b.allow(t0.Add(500*time.Millisecond)) || b.allow(t0.Add(500*time.Millisecond)) {
		t.Error("after 0.5 s at 2/s exactly one more should pass")
	}
	n = 0
	for i := 0; i < 10; i++ {
		if b.allow(t0.Add(time.Hour)) {
			n++
		}
	}
	if n != 3 {
		t.Errorf("after a long pause %d allowed, want the burst of 3", n)
	}
}

func side(s board.Side) *board.Side { return &s }
func team(t int) *int               { return &t }

func TestCommandValidate(t *testing.T) {
	profile := ProfileInfo{Name: "icf", Fouls: []FoulCode{{Code: "thumbing"}, {Code: "push"}}}
	stills := func(id string) (int, int, bool) { return 1280, 720, id == "still-1" }
	singles := func() *MatchSetup {
		return &MatchSetup{Profile: "icf", Breaker: board.S, Players: []rules.Player{{Name: "A", Seat: board.S, Team: 0}, {Name: "B", Seat: board.N, Team: 1}}}
	}
	doubles := func() *MatchSetup {
		return &MatchSetup{Profile: "icf", Doubles: true, Breaker: board.E, Players: []rules.Player{
			{Name: "A", Seat: board.S, Team: 0}, {Name: "B", Seat: board.E, Team: 1}, {Name: "C", Seat: board.N, Team: 0}, {Name: "D", Seat: board.W, Team: 1}}}
	}
	corners := [][2]float64{{340, 60}, {940, 60}, {940, 660}, {340, 660}}
	good := []Command{
		{Name: CmdConfirm, Pending: "p1"},
		{Name: CmdOverrule, Pending: "p1", Note: "striker touched both lines"},
		{Name: CmdUndo}, {Name: CmdReplayBoard}, {Name: CmdNextBoard},
		{Name: CmdFoul, Seat: side(board.N), Code: "thumbing"},
		{Name: CmdDemand, Team: team(1), Points: 2},
		{Name: CmdDemand, Team: team(0), Points: 0},
		{Name: CmdConcede, Team: team(0)},
		{Name: CmdStartMatch, Match: singles()},
		{Name: CmdStartMatch, Match: doubles()},
		{Name: CmdCalibrate, Still: "still-1", CornersPx: corners},
	}
	for _, c := range good {
		if err := c.validate(profile, stills); err != nil {
			t.Errorf("%+v: %v", c, err)
		}
	}
	bad := []struct {
		c    Command
		want string
	}{
		{Command{}, "no \"name\""},
		{Command{Name: "explode"}, "unknown command \"explode\""},
		{Command{Name: CmdConfirm}, "pending"},
		{Command{Name: CmdFoul, Code: "thumbing"}, "seat"},
		{Command{Name: CmdFoul, Seat: side(board.S)}, "code"},
		{Command{Name: CmdFoul, Seat: side(board.S), Code: "dancing"}, "not in profile icf"},
		{Command{Name: CmdDemand, Points: 1}, "team"},
		{Command{Name: CmdDemand, Team: team(2), Points: 1}, "0 or 1"},
		{Command{Name: CmdDemand, Team: team(0), Points: 3}, "1 or 2"},
		{Command{Name: CmdDemand, Team: team(0), Points: -1}, "1 or 2"},
		{Command{Name: CmdConcede}, "team"},
		{Command{Name: CmdStartMatch}, "match"},
		{Command{Name: CmdUndo, Note: strings.Repeat("x", 501)}, "note"},
		{Command{Name: CmdCalibrate, CornersPx: corners}, "still"},
		{Command{Name: CmdCalibrate, Still: "still-9", CornersPx: corners}, "gone"},
		{Command{Name: CmdCalibrate, Still: "still-1", CornersPx: corners[:3]}, "need 4 corners"},
		{Command{Name: CmdCalibrate, Still: "still-1", CornersPx: [][2]float64{{340, 60}, {1940, 60}, {940, 660}, {340, 660}}}, "corner NE"},
		{Command{Name: CmdCalibrate, Still: "still-1", CornersPx: [][2]float64{{340, 60}, {340, 660}, {940, 660}, {940, 60}}}, "convex"},
		{Command{Name: CmdCalibrate, Still: "still-1", CornersPx: [][2]float64{{340, 60}, {940, 660}, {940, 60}, {340, 660}}}, "convex"},
		{Command{Name: CmdCalibrate, Still: "still-1", CornersPx: [][2]float64{{100, 100}, {110, 100}, {110, 110}, {100, 110}}}, "1%"},
	}
	for _, b := range bad {
		err := b.c.validate(profile, stills)
		if err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%+v: error %v, want one mentioning %q", b.c, err, b.want)
		}
	}
	matches := []struct {
		edit func(*MatchSetup)
		want string
	}{
		{func(m *MatchSetup) { m.Profile = " " }, "profile"},
		{func(m *MatchSetup) { m.Players = m.Players[:1] }, "needs 2 players"},
		{func(m *MatchSetup) { m.Players[1].Seat = board.E }, "opposite"},
		{func(m *MatchSetup) { m.Players[1].Seat = board.S }, "two players sit at S"},
		{func(m *MatchSetup) { m.Players[1].Team = 0 }, "uneven"},
		{func(m *MatchSetup) { m.Players[0].Name = "" }, "no name"},
		{func(m *MatchSetup) { m.Players[0].Team = 3 }, "team 3"},
		{func(m *MatchSetup) { m.Breaker = board.E }, "breaker"},
	}
	for i, k := range matches {
		m := singles()
		k.edit(m)
		c := Command{Name: CmdStartMatch, Match: m}
		if err := c.validate(profile, stills); err == nil || !strings.Contains(err.Error(), k.want) {
			t.Errorf("match case %d: error %v, want one mentioning %q", i, err, k.want)
		}
	}
	d := doubles()
	d.Players[2].Team, d.Players[1].Team = 1, 0 // partners side by side
	if err := (&Command{Name: CmdStartMatch, Match: d}).validate(profile, stills); err == nil || !strings.Contains(err.Error(), "partners") {
		t.Errorf("doubles partners not opposite: %v", err)
	}
}

func TestHomography(t *testing.T) {
	src := [4][2]float64{{-370, -370}, {370, -370}, {370, 370}, {-370, 370}}
	dst := [4][2]float64{{400, 80}, {900, 100}, {950, 650}, {350, 620}}
	h, err := homographyFrom(src, dst)
	if err != nil {
		t.Fatal(err)
	}
	for i := range src {
		x, y, ok := h.apply(src[i][0], src[i][1])
		if !ok || math.Hypot(x-dst[i][0], y-dst[i][1]) > 1e-6 {
			t.Errorf("corner %d maps to %.3f,%.3f, want %v", i, x, y, dst[i])
		}
	}
	// Lines stay lines: the midpoint of an edge lies on the mapped edge.
	mx, my, _ := h.apply(0, -370)
	ax, ay := dst[0][0], dst[0][1]
	bx, by := dst[1][0], dst[1][1]
	if cross := (bx-ax)*(my-ay) - (by-ay)*(mx-ax); math.Abs(cross) > 1e-6 {
		t.Errorf("edge midpoint off the edge by cross %g", cross)
	}
	if _, err := homographyFrom(src, [4][2]float64{{0, 0}, {1, 1}, {2, 2}, {3, 3}}); err == nil {
		t.Error("collinear corners accepted")
	}
	s := h.scaled(0.5)
	x, y, _ := s.apply(370, 370)
	if math.Hypot(x-475, y-325) > 1e-6 {
		t.Errorf("scaled map gives %.2f,%.2f", x, y)
	}
}

func TestEnvelope(t *testing.T) {
	b := envelope(TypeAck, 0, time.Date(2025, 5, 1, 18, 3, 11, 250e6, time.FixedZone("IST", 19800)), `a"b`, []byte(`{"message":"ok"}`))
	var e Envelope
	if err := json.Unmarshal(b, &e); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	if e.V != 1 || e.Type != "ack" || e.Seq != 0 || e.ID != `a"b` || string(e.Data) != `{"message":"ok"}` {
		t.Errorf("%s", b)
	}
	if !strings.Contains(string(b), `"t":"2025-05-01T12:33:11.250Z"`) {
		t.Errorf("time not UTC with milliseconds: %s", b)
	}
}

// colourAt reads a BGR pixel as RGB.
func colourAt(m gocv.Mat, x, y int) [3]uint8 {
	v := m.GetVecbAt(y, x)
	return [3]uint8{v[2], v[1], v[0]}
}

// near reports whether some pixel within 2 px of (x, y) has colour c.
func nearColour(m gocv.Mat, x, y int, c [3]uint8) bool {
	for dy := -2; dy <= 2; dy++ {
		for dx := -2; dx <= 2; dx++ {
			if colourAt(m, x+dx, y+dy) == c {
				return true
			}
		}
	}
	return false
}

func TestAnnotate(t *testing.T) {
	g := board.ICF()
	// The surface is a 600-px square centred in a 1280×720 frame.
	k := 600.0 / 740
	px := func(x, y float64) (int, int) { return int(math.Round(640 + x*k)), int(math.Round(360 + y*k)) }
	cx0, cy0 := px(-370, -370)
	cx1, cy1 := px(370, 370)
	cal := Calibration{Status: CalibrationOK, CornersPx: [][2]float64{{float64(cx0), float64(cy0)}, {float64(cx1), float64(cy0)}, {float64(cx1), float64(cy1)}, {float64(cx0), float64(cy1)}}}
	w1 := Piece{ID: "W1", Kind: board.White, MM: [2]float64{150, 0}, State: PieceRest}
	b1 := Piece{ID: "B1", Kind: board.Black, MM: [2]float64{-100, 50}, State: PieceRest}
	gone := Piece{ID: "B2", Kind: board.Black, MM: [2]float64{0, -200}, State: PiecePocketed}
	striker := Piece{ID: "S", Kind: board.Striker, MM: [2]float64{0, 260}, State: PieceRest}
	foul := &Foul{Code: "placement", Seat: board.S, Evidence: Evidence{Positions: []Piece{striker}}}
	v := viewCopy{cal: cal, pcs: Pieces{Pieces: []Piece{w1, b1, gone, striker}}, lastFoul: foul}

	m := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(40, 40, 40, 0), 720, 1280, gocv.MatTypeCV8UC3)
	defer m.Close()
	paint.Paint(&m, annotate(1280, 720, v, g, 1, 42))

	rgb := func(c interface{ RGBA() (r, g, b, a uint32) }) [3]uint8 {
		r, gg, b, _ := c.RGBA()
		return [3]uint8{uint8(r >> 8), uint8(gg >> 8), uint8(b >> 8)}
	}
	// The surface outline: middle of the left edge.
	if x, y := px(-370, 0); !nearColour(m, x, y, rgb(colMarking)) {
		t.Errorf("no marking on the surface's left edge at %d,%d", x, y)
	}
	// The outer circle's rightmost point.
	if x, y := px(85, 0); !nearColour(m, x, y, rgb(colMarking)) {
		t.Errorf("no outer circle at %d,%d", x, y)
	}
	// Each piece is ringed in its colour on its circumference.
	r := g.ManDiameter / 2
	if x, y := px(150+r, 0); !nearColour(m, x, y, rgb(overlay.White)) {
		t.Errorf("W1 not ringed at %d,%d", x, y)
	}
	if x, y := px(-100-r, 50); !nearColour(m, x, y, rgb(overlay.Black)) {
		t.Errorf("B1 not ringed at %d,%d", x, y)
	}
	// A pocketed piece is not drawn.
	if x, y := px(r, -200); nearColour(m, x, y, rgb(overlay.Black)) {
		t.Errorf("pocketed B2 drawn at %d,%d", x, y)
	}
	// The foul evidence is ringed in red, 6 mm outside the striker.
	sr := g.StrikerDiameter/2 + 6
	if x, y := px(sr, 260); !nearColour(m, x, y, rgb(colFoul)) {
		t.Errorf("foul evidence not ringed at %d,%d", x, y)
	}
	// The header is drawn on a dark band top-left.
	if c := colourAt(m, 2, 2); c != rgb(colShade) {
		t.Errorf("no header band: %v", c)
	}

	// Without calibration: no markings at all.
	m2 := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(40, 40, 40, 0), 720, 1280, gocv.MatTypeCV8UC3)
	defer m2.Close()
	v.cal.Status = CalibrationLost
	paint.Paint(&m2, annotate(1280, 720, v, g, 1, 43))
	for x := 100; x < 1280; x += 7 {
		for y := 60; y < 720; y += 7 {
			if nearColour(m2, x, y, rgb(colMarking)) || nearColour(m2, x, y, rgb(overlay.White)) {
				t.Fatalf("uncalibrated preview draws at %d,%d", x, y)
			}
		}
	}
}

// The preview shows the foul the umpire must judge, then the foul in
// effect, and forgets it when the next stroke starts.
func TestLastFoulForPreview(t *testing.T) {
	cfg := Config{}.withDefaults()
	h := newHub(&cfg, NewMetrics())
	last := func() string {
		if f := h.viewCopy().lastFoul; f != nil {
			return f.Code + "/" + f.Pending
		}
		return ""
	}
	steps := []struct {
		m    Message
		want string
	}{
		{Pending{ID: "p1", Fouls: []Foul{{Code: "placement", Seat: board.S}}}, "placement/p1"},
		{Decided{ID: "p2", Decision: DecisionConfirmed}, "placement/p1"},
		{Decided{ID: "p1", Decision: DecisionConfirmed}, ""},
		{Foul{Code: "placement", Seat: board.S}, "placement/"},
		{StateUpdate{}, "placement/"},
		{Stroke{Seat: board.N}, ""},
		{Foul{Code: "thumbing", Seat: board.N}, "thumbing/"},
		{Snapshot{Pending: []Pending{{ID: "p7", Fouls: []Foul{{Code: "push"}}}}}, "push/p7"},
	}
	for i, s := range steps {
		if err := h.publish(s.m); err != nil {
			t.Fatal(err)
		}
		if got := last(); got != s.want {
			t.Errorf("after step %d (%s): last foul %q, want %q", i, s.m.MessageType(), got, s.want)
		}
	}
}

func TestProfileInfoFrom(t *testing.T) {
	all := AllProfiles()
	if len(all) != len(rules.Profiles()) || len(all) < 5 {
		t.Fatalf("%d profiles", len(all))
	}
	for i, p := range rules.Profiles() {
		info := all[i]
		if info.Name != p.Name || info.Title != p.Title {
			t.Errorf("profile %d: %q %q", i, info.Name, info.Title)
		}
		want := 0
		for _, f := range p.Fouls {
			if !f.Derived {
				want++
			}
		}
		if len(info.Fouls) != want || want == 0 {
			t.Errorf("%s: %d declarable fouls, want %d", p.Name, len(info.Fouls), want)
		}
		for _, f := range info.Fouls {
			fr, ok := p.Foul(rules.Foul(f.Code))
			if !ok || fr.Derived || f.Rule != fr.Ref || f.Rule == "" || f.Text == "" || f.Camera != fr.Camera {
				t.Errorf("%s: foul %+v does not match the profile's %+v", p.Name, f, fr)
			}
		}
	}
}
