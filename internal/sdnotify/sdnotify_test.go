package sdnotify

import (
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// fakeSystemd listens where NOTIFY_SOCKET points and returns what it got.
func fakeSystemd(t *testing.T, name string) (*net.UnixConn, func() string) {
	t.Helper()
	addr := &net.UnixAddr{Name: name, Net: "unixgram"}
	if name[0] == '@' {
		addr.Name = "\x00" + name[1:]
	}
	c, err := net.ListenUnixgram("unixgram", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, func() string {
		t.Helper()
		buf := make([]byte, 4096)
		c.SetReadDeadline(time.Now().Add(2 * time.Second))
		n, err := c.Read(buf)
		if err != nil {
			t.Fatalf("no notification: %v", err)
		}
		return string(buf[:n])
	}
}

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestNotify(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "notify")
	_, next := fakeSystemd(t, sock)
	n, err := FromEnv(env(map[string]string{"NOTIFY_SOCKET": sock, "WATCHDOG_USEC": "30000000"}))
	if err != nil {
		t.Fatal(err)
	}
	if !n.Enabled() || n.WatchdogInterval() != 30*time.Second {
		t.Fatalf("enabled %v, watchdog %v", n.Enabled(), n.WatchdogInterval())
	}
	steps := []struct {
		send func() error
		want string
	}{
		{func() error { return n.Ready("refereeing board 2\n(0-6)") }, "READY=1\nSTATUS=refereeing board 2 (0-6)"},
		{func() error { return n.Alive("camera ok") }, "WATCHDOG=1\nSTATUS=camera ok"},
		{func() error { return n.Status("camera stalled") }, "STATUS=camera stalled"},
		{n.Stopping, "STOPPING=1"},
	}
	for _, s := range steps {
		if err := s.send(); err != nil {
			t.Fatal(err)
		}
		if got := next(); got != s.want {
			t.Errorf("got %q, want %q", got, s.want)
		}
	}
	if err := n.Notify("not a variable"); err == nil || !strings.Contains(err.Error(), "VARIABLE=value") {
		t.Errorf("a malformed line: %v", err)
	}
}

func TestNotifyAbstractSocket(t *testing.T) {
	name := "@boardcam-sdnotify-test-" + strconv.Itoa(os.Getpid())
	_, next := fakeSystemd(t, name)
	n, err := FromEnv(env(map[string]string{"NOTIFY_SOCKET": name}))
	if err != nil {
		t.Fatal(err)
	}
	if err := n.Ready("ok"); err != nil {
		t.Fatal(err)
	}
	if got := next(); got != "READY=1\nSTATUS=ok" {
		t.Errorf("got %q", got)
	}
	if n.WatchdogInterval() != 0 {
		t.Errorf("no WATCHDOG_USEC, watchdog %v", n.WatchdogInterval())
	}
}

func TestNotifyWithoutSystemd(t *testing.T) {
	for _, n := range []*Notifier{nil, {}} {
		if n.Enabled() || n.WatchdogInterval() != 0 {
			t.Error("a notifier without a socket is enabled")
		}
		if err := n.Ready("x"); err != nil {
			t.Error(err)
		}
	}
	n, err := FromEnv(env(nil))
	if err != nil || n.Enabled() {
		t.Errorf("no environment: %v, enabled %v", err, n.Enabled())
	}
}

func TestWatchdogForAnotherProcess(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "notify")
	n, err := FromEnv(env(map[string]string{"NOTIFY_SOCKET": sock, "WATCHDOG_USEC": "1000000", "WATCHDOG_PID": "1"}))
	if err != nil || n.WatchdogInterval() != 0 {
		t.Errorf("WATCHDOG_PID of another process: %v, %v", err, n.WatchdogInterval())
	}
	n, err = FromEnv(env(map[string]string{"NOTIFY_SOCKET": sock, "WATCHDOG_USEC": "1000000", "WATCHDOG_PID": strconv.Itoa(os.Getpid())}))
	if err != nil || n.WatchdogInterval() != time.Second {
		t.Errorf("WATCHDOG_PID of this process: %v, %v", err, n.WatchdogInterval())
	}
}

func TestFromEnvErrors(t *testing.T) {
	for _, e := range []map[string]string{
		{"NOTIFY_SOCKET": "relative/path"},
		{"NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "soon"},
		{"NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "0"},
	} {
		if _, err := FromEnv(env(e)); err == nil {
			t.Errorf("%v: no error", e)
		}
	}
}

func TestNotifyNobodyListening(t *testing.T) {
	n, _ := FromEnv(env(map[string]string{"NOTIFY_SOCKET": filepath.Join(t.TempDir(), "gone")}))
	if err := n.Ready("x"); err == nil {
		t.Error("no error when nothing listens")
	}
}
