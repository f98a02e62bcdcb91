package deploy

import (
	"bufio"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// unit parses boardcam.service into section → key → values.
func unit(t *testing.T) map[string]map[string][]string {
	t.Helper()
	f, err := os.Open("boardcam.service")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	u := map[string]map[string][]string{}
	sec := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		switch {
		case l == "" || strings.HasPrefix(l, "#"):
		case strings.HasPrefix(l, "["):
			sec = strings.Trim(l, "[]")
			u[sec] = map[string][]string{}
		default:
			k, v, ok := strings.Cut(l, "=")
			if !ok || sec == "" {
				t.Fatalf("boardcam.service: %q is not KEY=value in a section", l)
			}
			u[sec][k] = append(u[sec][k], v)
		}
	}
	return u
}

// The unit rates at most 3.0 ("OK") in systemd-analyze security. CI has
// systemd-analyze (scripts/setup.sh --test installs systemd); elsewhere
// the test is skipped when it is missing.
func TestUnitSecurityExposure(t *testing.T) {
	if _, err := exec.LookPath("systemd-analyze"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("systemd-analyze is missing in CI: scripts/setup.sh --test installs systemd")
		}
		t.Skip("systemd-analyze is not installed")
	}
	out, err := exec.Command("systemd-analyze", "security", "--offline=true", "--no-pager", "boardcam.service").CombinedOutput()
	if err != nil {
		t.Fatalf("systemd-analyze security: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`Overall exposure level for boardcam.service: ([0-9.]+) (\w+)`).FindStringSubmatch(string(out))
	if m == nil {
		t.Fatalf("no overall exposure level in:\n%s", out)
	}
	level, _ := strconv.ParseFloat(m[1], 64)
	if level > 3.0 {
		t.Errorf("exposure level %.1f %s, want at most 3.0 (OK):\n%s", level, m[2], out)
	}
	t.Logf("systemd-analyze security: %s %s", m[1], m[2])
	// systemd also checks the syntax: every directive must be known.
	if strings.Contains(string(out), "Unknown key") || strings.Contains(string(out), "Unknown section") {
		t.Errorf("systemd does not know a directive of the unit:\n%s", out)
	}
}

func TestUnitShape(t *testing.T) {
	u := unit(t)
	svc, un := u["Service"], u["Unit"]
	// Restart limits are [Unit] settings: in [Service] systemd ignores them.
	for _, k := range []string{"StartLimitIntervalSec", "StartLimitBurst"} {
		if len(un[k]) != 1 {
			t.Errorf("[Unit] %s: %v", k, un[k])
		}
		if svc[k] != nil {
			t.Errorf("%s is in [Service], where systemd ignores it", k)
		}
	}
	want := map[string]string{
		"Type":                    "notify",
		"NotifyAccess":            "main",
		"ExecStart":               "/usr/bin/boardcam run --config /etc/boardcam/boardcam.yaml",
		"User":                    "boardcam",
		"StateDirectory":          "boardcam",
		"WorkingDirectory":        "/var/lib/boardcam",
		"CapabilityBoundingSet":   "",
		"DevicePolicy":            "closed",
		"SystemCallArchitectures": "native",
		"UMask":                   "0027",
		"Restart":                 "on-failure",
	}
	for k, v := range want {
		if got := svc[k]; len(got) != 1 || got[0] != v {
			t.Errorf("[Service] %s=%v, want %q", k, got, v)
		}
	}
	if len(svc["WatchdogSec"]) != 1 {
		t.Error("no WatchdogSec")
	}
	// Devices: the camera, GPIO, SPI and I2C nodes, nothing else.
	allowed := map[string]bool{}
	for _, d := range svc["DeviceAllow"] {
		allowed[strings.Fields(d)[0]] = true
	}
	for _, d := range []string{"char-video4linux", "char-media", "char-dma_heap", "char-gpiochip", "char-spi", "char-i2c"} {
		if !allowed[d] {
			t.Errorf("DeviceAllow lacks %s", d)
		}
		delete(allowed, d)
	}
	if len(allowed) > 0 {
		t.Errorf("DeviceAllow has more: %v", allowed)
	}
}

// The example configuration (the package's /etc/boardcam/boardcam.yaml)
// keeps its journals where the unit lets the daemon write.
func TestExampleConfigWritesInStateDirectory(t *testing.T) {
	b, err := os.ReadFile("boardcam.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		Journal struct {
			Dir string `yaml:"dir"`
		} `yaml:"journal"`
	}
	if err := yaml.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	state := "/var/lib/" + unit(t)["Service"]["StateDirectory"][0]
	if !strings.HasPrefix(c.Journal.Dir, state+"/") {
		t.Errorf("journal.dir %q is outside the unit's state directory %s (ProtectSystem=strict makes the rest read-only)", c.Journal.Dir, state)
	}
}
