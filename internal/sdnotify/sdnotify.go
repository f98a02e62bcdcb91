// Package sdnotify speaks systemd's notification protocol (sd_notify(3)):
// datagrams of "VARIABLE=value" lines sent to the unix socket named by
// $NOTIFY_SOCKET. The daemon tells systemd when it is ready (READY=1), that
// it is alive (WATCHDOG=1, at least every $WATCHDOG_USEC), what it is doing
// (STATUS=…) and that it is stopping (STOPPING=1).
//
// Without $NOTIFY_SOCKET (not started by systemd, or Type= is not notify)
// a Notifier does nothing, so the daemon calls it unconditionally.
package sdnotify

import (
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"time"
)

// Notifier sends notifications to systemd. The zero value and nil do
// nothing.
type Notifier struct {
	addr     *net.UnixAddr
	watchdog time.Duration
}

// FromEnv reads $NOTIFY_SOCKET, $WATCHDOG_USEC and $WATCHDOG_PID through
// getenv (os.Getenv in the daemon). A socket name starting with "@" is in
// the abstract namespace. The watchdog interval is 0 when systemd set none,
// or set it for another process.
func FromEnv(getenv func(string) string) (*Notifier, error) {
	n := &Notifier{}
	if s := getenv("NOTIFY_SOCKET"); s != "" {
		if !strings.HasPrefix(s, "/") && !strings.HasPrefix(s, "@") {
			return nil, fmt.Errorf("NOTIFY_SOCKET=%q: not a unix socket path", s)
		}
		n.addr = &net.UnixAddr{Name: s, Net: "unixgram"}
		if s[0] == '@' {
			n.addr.Name = "\x00" + s[1:]
		}
	}
	if us := getenv("WATCHDOG_USEC"); us != "" {
		if pid := getenv("WATCHDOG_PID"); pid != "" && pid != strconv.Itoa(os.Getpid()) {
			return n, nil
		}
		v, err := strconv.ParseInt(us, 10, 64)
		if err != nil || v <= 0 {
			return nil, fmt.Errorf("WATCHDOG_USEC=%q: not a positive number of microseconds", us)
		}
		n.watchdog = time.Duration(v) * time.Microsecond
	}
	return n, nil
}

// Enabled reports whether notifications go anywhere.
func (n *Notifier) Enabled() bool { return n != nil && n.addr != nil }

// WatchdogInterval is the longest systemd waits for WATCHDOG=1 before it
// kills the service (WatchdogSec=); 0 without a watchdog.
func (n *Notifier) WatchdogInterval() time.Duration {
	if !n.Enabled() {
		return 0
	}
	return n.watchdog
}

// Notify sends one notification of "VARIABLE=value" lines.
func (n *Notifier) Notify(lines ...string) error {
	if !n.Enabled() {
		return nil
	}
	for _, l := range lines {
		if !strings.Contains(l, "=") || strings.Contains(l, "\n") {
			return fmt.Errorf("sd_notify: %q is not one VARIABLE=value line", l)
		}
	}
	c, err := net.DialUnix("unixgram", nil, n.addr)
	if err != nil {
		return fmt.Errorf("sd_notify: %w", err)
	}
	defer c.Close()
	msg := strings.Join(lines, "\n")
	if _, err := c.Write([]byte(msg)); err != nil {
		return fmt.Errorf("sd_notify %s: %w", strings.SplitN(msg, "=", 2)[0], err)
	}
	return nil
}

// Ready tells systemd that start-up is finished (Type=notify units are
// "active" from then on), with a status line.
func (n *Notifier) Ready(status string) error {
	return n.Notify("READY=1", "STATUS="+oneLine(status))
}

// Alive pets the watchdog, with a status line.
func (n *Notifier) Alive(status string) error {
	return n.Notify("WATCHDOG=1", "STATUS="+oneLine(status))
}

// Status updates the line `systemctl status` shows.
func (n *Notifier) Status(status string) error { return n.Notify("STATUS=" + oneLine(status)) }

// Stopping tells systemd that the service is shutting down.
func (n *Notifier) Stopping() error { return n.Notify("STOPPING=1") }

func oneLine(s string) string { return strings.ReplaceAll(s, "\n", " ") }
