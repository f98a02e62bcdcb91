package main

// The CPU a test binary and each of its tests used (user + system), which
// a loaded machine does not inflate the way it inflates wall time:
//
//	go test -exec "$PWD/dist/testreport exec" -json ./... | dist/testreport -cpu FILE
//
// with TESTREPORT_CPU=FILE in the environment. `testreport exec BINARY
// ARGS…` runs the test binary (go test runs it in its package's
// directory), passes its output through unchanged, and appends one JSON
// line to FILE: the package directory, the binary's user and system time
// (its children's included) and the CPU of each top-level test. A test's
// CPU is what the process used while the test ran, shared equally among
// the tests running at the time (parallel tests overlap); what runs
// outside any test (TestMain, init) is "(outside tests)".

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// cpuRecord is one test binary's run.
type cpuRecord struct {
	Dir   string             `json:"dir"` // relative to the module root
	User  float64            `json:"user"`
	Sys   float64            `json:"sys"`
	Wall  float64            `json:"wall"`
	Tests map[string]float64 `json:"tests"` // top-level test → CPU seconds
}

const outsideTests = "(outside tests)"

// execTest is `testreport exec BINARY ARGS…`; it returns the binary's exit
// status.
func execTest(args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "usage: testreport exec BINARY [ARGS…]")
		return 2
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stderr = os.Stdin, os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, "testreport exec:", err)
		return 2
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "testreport exec:", err)
		return 2
	}
	tests := attribute(out, os.Stdout, func() float64 { return procCPU(cmd.Process.Pid) })
	err = cmd.Wait()
	rec := cpuRecord{Tests: tests, Wall: time.Since(start).Seconds()}
	if ps := cmd.ProcessState; ps != nil {
		rec.User, rec.Sys = ps.UserTime().Seconds(), ps.SystemTime().Seconds()
		// what the last samples missed goes to the tests' remainder
		var sum float64
		for _, v := range tests {
			sum += v
		}
		if rest := rec.User + rec.Sys - sum; rest > 0 {
			tests[outsideTests] += rest
		}
	}
	if wd, werr := os.Getwd(); werr == nil {
		rec.Dir = moduleRel(wd)
	}
	if f := os.Getenv("TESTREPORT_CPU"); f != "" {
		if b, merr := json.Marshal(rec); merr == nil {
			if fh, ferr := os.OpenFile(f, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644); ferr == nil {
				fh.Write(append(b, '\n'))
				fh.Close()
			}
		}
	}
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		fmt.Fprintln(os.Stderr, "testreport exec:", err)
		return 2
	}
	return 0
}

// attribute copies a test binary's output to w, and shares the CPU the
// process used (cpu, cumulative seconds) between the top-level tests
// running between one test event and the next.
func attribute(r io.Reader, w io.Writer, cpu func() float64) map[string]float64 {
	tests := map[string]float64{}
	running := map[string]bool{}
	last := cpu()
	br := bufio.NewReaderSize(r, 1<<16)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			w.Write(line)
			if verb, name, ok := testEvent(line); ok && !strings.Contains(name, "/") {
				now := cpu()
				share(tests, running, now-last)
				last = now
				switch verb {
				case "RUN", "CONT":
					running[name] = true
				case "PAUSE", "PASS", "FAIL", "SKIP":
					delete(running, name)
				}
			}
		}
		if err != nil {
			break
		}
	}
	share(tests, running, cpu()-last)
	return tests
}

func share(tests map[string]float64, running map[string]bool, d float64) {
	if d <= 0 {
		return
	}
	if len(running) == 0 {
		tests[outsideTests] += d
		return
	}
	for n := range running {
		tests[n] += d / float64(len(running))
	}
}

// testEvent parses the testing package's framing lines: "=== RUN   X",
// "=== PAUSE X", "=== CONT  X", "--- PASS: X (1.00s)" (with the test2json
// marker byte in front under -test.v=test2json, indented for subtests).
func testEvent(line []byte) (verb, name string, ok bool) {
	s := strings.TrimLeft(string(bytes.TrimRight(line, "\r\n")), " ")
	s = strings.TrimPrefix(s, "\x16")
	var rest string
	switch {
	case strings.HasPrefix(s, "=== "):
		rest = s[4:]
		for _, v := range []string{"RUN", "PAUSE", "CONT"} {
			if strings.HasPrefix(rest, v+" ") {
				return v, strings.TrimSpace(rest[len(v):]), true
			}
		}
	case strings.HasPrefix(s, "--- "):
		rest = s[4:]
		for _, v := range []string{"PASS", "FAIL", "SKIP"} {
			if strings.HasPrefix(rest, v+": ") {
				f := strings.Fields(rest[len(v)+2:])
				if len(f) > 0 {
					return v, f[0], true
				}
			}
		}
	}
	return "", "", false
}

// procCPU is a process' user + system time and that of its waited-for
// children, in seconds (/proc/PID/stat; 0 when unreadable).
func procCPU(pid int) float64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// the fields after the command name, which is in parentheses
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	// f[0] is field 3 (state): utime, stime, cutime, cstime are 14–17
	if len(f) < 15 {
		return 0
	}
	var ticks float64
	for _, s := range f[11:15] {
		v, _ := strconv.ParseFloat(s, 64)
		ticks += v
	}
	return ticks / 100 // USER_HZ
}

// moduleRel is dir relative to the module root above it (the directory
// with go.mod), or dir itself.
func moduleRel(dir string) string {
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			rel, err := filepath.Rel(d, dir)
			if err != nil {
				return dir
			}
			return filepath.ToSlash(rel)
		}
		p := filepath.Dir(d)
		if p == d {
			return dir
		}
		d = p
	}
}

// readCPU reads the records `testreport exec` appended to a file, by
// package import path (the module prefix plus the directory).
func readCPU(path, module string) (map[string]cpuRecord, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := map[string]cpuRecord{}
	for _, l := range bytes.Split(b, []byte("\n")) {
		if len(bytes.TrimSpace(l)) == 0 {
			continue
		}
		var r cpuRecord
		if err := json.Unmarshal(l, &r); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		pkg := strings.TrimSuffix(module+r.Dir, "/.")
		if r.Dir == "." {
			pkg = strings.TrimSuffix(module, "/")
		}
		out[pkg] = r
	}
	return out, nil
}
