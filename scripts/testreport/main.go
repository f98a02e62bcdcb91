// Command testreport reads `go test -json` on standard input and writes
// what plain `go test` would (each package's ok/FAIL line, the output of
// failing tests), then how long each package took and the slowest tests:
// where the suite's time goes, in the CI log.
//
//	go test -json ./... | go run ./scripts/testreport [-top N] [-cpu FILE]
//
// With -cpu (the test binaries run by `testreport exec`, cpu.go) it adds
// the CPU time (user + system) of each package and of the tests that used
// the most: the measure that a loaded machine does not inflate.
//
// It exits 1 when a test or a package failed (and when the input has no
// package result at all).
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

type event struct {
	Action  string
	Package string
	Test    string
	Elapsed float64
	Output  string
}

type result struct {
	name    string
	elapsed float64
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "exec" {
		os.Exit(execTest(os.Args[2:]))
	}
	top := flag.Int("top", 15, "how many of the slowest tests to list")
	cpuFile := flag.String("cpu", "", "the records of `testreport exec` (TESTREPORT_CPU): CPU per package and test")
	flag.Parse()
	os.Exit(report(os.Stdin, os.Stdout, *top, *cpuFile))
}

func report(in io.Reader, out io.Writer, top int, cpuFile string) int {
	var pkgs, tests []result
	output := map[string][]string{} // package/test → its lines, until it passes
	failed := false
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			fmt.Fprintln(out, sc.Text()) // build errors come as plain text
			continue
		}
		key := e.Package + " " + e.Test
		switch e.Action {
		case "build-output": // compiler errors (go1.24+)
			fmt.Fprint(out, e.Output)
		case "output":
			output[key] = append(output[key], e.Output)
		case "pass", "skip", "fail":
			if e.Action == "fail" {
				failed = true
				if e.Test == "" {
					// tests that never ended (the binary timed out,
					// panicked or was killed): their output says why
					var open []string
					for k := range output {
						if strings.HasPrefix(k, e.Package+" ") && k != key {
							open = append(open, k)
						}
					}
					sort.Strings(open)
					for _, k := range open {
						fmt.Fprint(out, strings.Join(output[k], ""))
						delete(output, k)
					}
				}
				fmt.Fprint(out, strings.Join(output[key], ""))
			}
			if e.Test == "" {
				if e.Action != "fail" {
					// the package's summary line (ok … / ? … [no test files])
					if n := len(output[key]); n > 0 {
						fmt.Fprint(out, output[key][n-1])
					}
				}
				pkgs = append(pkgs, result{e.Package, e.Elapsed})
			} else if !strings.Contains(e.Test, "/") && e.Action != "skip" {
				tests = append(tests, result{strings.TrimPrefix(e.Package, modulePrefix(e.Package)) + " " + e.Test, e.Elapsed})
			}
			delete(output, key)
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintln(out, "testreport:", err)
		return 1
	}
	sort.SliceStable(pkgs, func(i, j int) bool { return pkgs[i].elapsed > pkgs[j].elapsed })
	sort.SliceStable(tests, func(i, j int) bool { return tests[i].elapsed > tests[j].elapsed })
	fmt.Fprintln(out, "\ntime per package (wall, packages run in parallel):")
	for _, p := range pkgs {
		if p.elapsed >= 1 {
			fmt.Fprintf(out, "  %7.1f s  %s\n", p.elapsed, p.name)
		}
	}
	fmt.Fprintf(out, "slowest tests (wall; parallel tests overlap):\n")
	for i, t := range tests {
		if i == top {
			break
		}
		fmt.Fprintf(out, "  %7.1f s  %s\n", t.elapsed, t.name)
	}
	if cpuFile != "" && len(pkgs) > 0 {
		if err := reportCPU(out, cpuFile, modulePrefix(pkgs[0].name), pkgs, top); err != nil {
			fmt.Fprintln(out, "testreport:", err)
		}
	}
	if failed || len(pkgs) == 0 {
		return 1
	}
	return 0
}

// modulePrefix is the part of a package path up to the module's root
// (github.com/owner/repo/).
func modulePrefix(pkg string) string {
	parts := strings.SplitN(pkg, "/", 4)
	if len(parts) < 4 {
		return ""
	}
	return strings.Join(parts[:3], "/") + "/"
}

// reportCPU prints the CPU time per package and of the tests that used
// the most.
func reportCPU(out io.Writer, file, module string, pkgs []result, top int) error {
	recs, err := readCPU(file, module)
	if err != nil {
		return err
	}
	type row struct {
		name      string
		wall, cpu float64
	}
	var rows, tests []row
	var total float64
	for _, p := range pkgs {
		r, ok := recs[p.name]
		if !ok {
			continue
		}
		c := r.User + r.Sys
		total += c
		rows = append(rows, row{p.name, p.elapsed, c})
		for n, v := range r.Tests {
			tests = append(tests, row{strings.TrimPrefix(p.name, module) + " " + n, 0, v})
		}
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].cpu > rows[j].cpu })
	sort.SliceStable(tests, func(i, j int) bool { return tests[i].cpu > tests[j].cpu })
	fmt.Fprintf(out, "CPU per package (user+sys; test binaries only, %.0f s in all):\n", total)
	for _, r := range rows {
		if r.cpu >= 1 {
			fmt.Fprintf(out, "  %7.1f s CPU  %7.1f s wall  %s\n", r.cpu, r.wall, r.name)
		}
	}
	fmt.Fprintf(out, "tests that used the most CPU (parallel tests share what ran together):\n")
	for i, t := range tests {
		if i == top {
			break
		}
		fmt.Fprintf(out, "  %7.1f s CPU  %s\n", t.cpu, t.name)
	}
	return nil
}
