package deploy

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/boardcam/boardcam/internal/mosquittotest"
	"github.com/boardcam/boardcam/mqtt"
	"github.com/boardcam/boardcam/mqtt/mqtttest"
	"github.com/boardcam/boardcam/tournament"
	"github.com/boardcam/boardcam/web"
)

// deploy/mqtt/setup-broker.sh makes a broker set-up that works as
// written: Mosquitto starts with it (under a main configuration like
// Debian's), a board with its password and the club's CA publishes over
// TLS, the tournament view configured from tournament.example.yaml sees
// it, a board cannot write another board's topics, a wrong password is
// refused.
func TestSetupBroker(t *testing.T) {
	if _, ok := mosquittotest.Binary(); !ok {
		if mosquittotest.Required() {
			t.Fatal("mosquitto is not installed: scripts/setup.sh --test installs it")
		}
		t.Skip("mosquitto is not installed")
	}
	if _, err := exec.LookPath("openssl"); err != nil {
		t.Skip("no openssl")
	}
	dir := t.TempDir()
	os.Chmod(filepath.Dir(dir), 0o755) // mosquitto runs as its own user
	os.Chmod(dir, 0o777)
	port := mosquittotest.FreePort(t)
	out, err := exec.Command("mqtt/setup-broker.sh", "--dir", dir, "--club", "myclub", "--boards", "2", "--host", "localhost",
		"--port", fmt.Sprint(port), "--bind", "127.0.0.1", "--no-install").CombinedOutput()
	if err != nil {
		t.Fatalf("setup-broker.sh: %v\n%s", err, out)
	}
	main := filepath.Join(dir, "mosquitto.conf")
	os.WriteFile(main, []byte("persistence true\npersistence_location "+dir+"/\nlog_dest stderr\ninclude_dir "+dir+"/conf.d\n"), 0o644)
	cmd := exec.Command(mustBinary(t), "-c", main)
	var log strings.Builder
	cmd.Stderr = &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	cred := func(u string) string {
		b, err := os.ReadFile(filepath.Join(dir, "boardcam", "credentials", u))
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(b))
	}
	ca := filepath.Join(dir, "boardcam", "ca.crt")
	pool := x509.NewCertPool()
	pem, _ := os.ReadFile(ca)
	pool.AppendCertsFromPEM(pem)
	url := fmt.Sprintf("mqtts://localhost:%d", port)
	waitPort(t, port, &log)

	// The tournament view from the example configuration, its paths
	// pointed at the broker's files.
	ex, _ := os.ReadFile("mqtt/tournament.example.yaml")
	var tc tournament.Config
	if err := yaml.Unmarshal(ex, &tc); err != nil {
		t.Fatal(err)
	}
	pw := filepath.Join(t.TempDir(), "pw")
	os.WriteFile(pw, []byte(cred("tournament")+"\n"), 0o600)
	tc.MQTT.Broker, tc.MQTT.PasswordFile, tc.MQTT.CA, tc.Listen, tc.CommandKey = url, pw, ca, "127.0.0.1:0", ""
	view := &tournament.View{Config: tc}
	if err := view.Initialize(); err != nil {
		t.Fatal(err)
	}
	defer view.Close()

	sub := mqtttest.SubscribeTLS(t, url, &tls.Config{RootCAs: pool}, "tournament", cred("tournament"), "deploy-sub", "#")
	// A board from board.example.yaml.
	var bc struct {
		MQTT mqtt.Config `yaml:"mqtt"`
	}
	bex, _ := os.ReadFile("mqtt/board.example.yaml")
	if err := yaml.Unmarshal(bex, &bc); err != nil {
		t.Fatal(err)
	}
	bpw := filepath.Join(t.TempDir(), "pw")
	os.WriteFile(bpw, []byte(cred("board1")+"\n"), 0o600)
	bc.MQTT.Broker, bc.MQTT.PasswordFile, bc.MQTT.CA, bc.MQTT.Spool = url, bpw, ca, t.TempDir()
	board := &mqtt.Board{Config: bc.MQTT, Source: fixed{}}
	if err := board.Initialize(); err != nil {
		t.Fatal(err)
	}
	board.Publish(web.Notice{Text: "hello"})
	// board1 pretending to be board2: the ACL drops it.
	intruder := bc.MQTT
	intruder.Prefix, intruder.Name, intruder.Spool, intruder.ClientID = "boardcam/myclub/board2/", "Board 2", t.TempDir(), "intruder"
	intruder.DrainTimeout = 100 * time.Millisecond
	fake := &mqtt.Board{Config: intruder, Source: fixed{}}
	if err := fake.Initialize(); err != nil {
		t.Fatal(err)
	}
	defer fake.Close()
	// A wrong password is refused.
	wrong := bc.MQTT
	wrong.PasswordFile, wrong.Password, wrong.Prefix, wrong.Spool, wrong.ClientID = "", "wrong", "boardcam/myclub/board2/", t.TempDir(), "wrong"
	wrong.DrainTimeout = 100 * time.Millisecond
	bad := &mqtt.Board{Config: wrong, Source: fixed{}}
	bad.Initialize()
	defer bad.Close()

	deadline := time.Now().Add(15 * time.Second)
	for {
		evs, _ := mqtttest.Events(sub.Messages(), "boardcam/myclub/board1/")
		_, viewSees := sub.Last("boardcam/myclub/board1/snapshot")
		if len(evs) == 2 && viewSees && strings.Contains(string(viewBoards(t, view)), `"name":"Board 1"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("events %d; view %s; broker: %s", len(evs), viewBoards(t, view), log.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	board.Close()
	time.Sleep(300 * time.Millisecond)
	for _, m := range sub.Messages() {
		if strings.HasPrefix(m.Topic, "boardcam/myclub/board2/") {
			t.Errorf("board1 (or a wrong password) wrote %s", m.Topic)
		}
	}
	if fake.Unsent() == 0 {
		t.Error("the broker acknowledged board1's events on board2's topic")
	}
	if bad.Connected() {
		t.Error("a wrong password connected")
	}
}

type fixed struct{}

func (fixed) Snapshot() web.Snapshot { return web.Snapshot{} }
func (fixed) MatchID() string        { return "m1" }

func mustBinary(t *testing.T) string {
	p, _ := mosquittotest.Binary()
	return p
}

func viewBoards(t *testing.T, v *tournament.View) []byte {
	resp, err := httpGet("http://" + v.Addr() + "/api/boards")
	if err != nil {
		return []byte(err.Error())
	}
	return resp
}

func waitPort(t *testing.T, port int, log *strings.Builder) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if c, err := dial(port); err == nil {
			c.Close()
			return
		}
	}
	t.Fatalf("mosquitto does not listen: %s", log.String())
}
