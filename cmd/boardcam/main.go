// Command boardcam referees real carrom from an overhead camera.
//
// It is one binary with subcommands; run `boardcam help` for the list and
// `boardcam <command> --help` for each command's flags.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"
)

// stdio is where a command reads and writes, so tests can capture it.
type stdio struct {
	In       io.Reader
	Out, Err io.Writer
}

// command is one subcommand.
type command struct {
	Name    string
	Summary string // one line for `boardcam help`
	Run     func(ctx context.Context, args []string, s stdio) error
}

var commands = map[string]command{}

// register adds a subcommand; each command's file calls it from init.
func register(c command) {
	if _, dup := commands[c.Name]; dup {
		panic("boardcam: command registered twice: " + c.Name)
	}
	commands[c.Name] = c
}

// errUsage marks an error in how a command was called (exit status 2).
var errUsage = errors.New("usage")

// usageError wraps a message about bad flags or arguments.
func usageError(format string, a ...any) error {
	return fmt.Errorf("%w: %s", errUsage, fmt.Sprintf(format, a...))
}

// newFlags makes a flag set for a command whose --help prints the synopsis,
// the description and the flags.
func newFlags(name, synopsis, description string, s stdio) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(s.Err)
	fs.Usage = func() {
		fmt.Fprintf(s.Err, "usage: boardcam %s %s\n\n%s\n", name, synopsis, strings.TrimSpace(description))
		// The listing leaves out the old names kept for scripts.
		shown := flag.NewFlagSet(name, flag.ContinueOnError)
		shown.SetOutput(s.Err)
		fs.VisitAll(func(f *flag.Flag) {
			if _, old := f.Value.(hiddenValue); !old {
				shown.Var(f.Value, f.Name, f.Usage)
				shown.Lookup(f.Name).DefValue = f.DefValue
			}
		})
		if countFlags(shown) > 0 {
			fmt.Fprintf(s.Err, "\nflags:\n")
			shown.PrintDefaults()
		}
	}
	return fs
}

func countFlags(fs *flag.FlagSet) int {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n
}

// hiddenValue is a flag that works but is not listed: an old name kept
// working for scripts (README, "Command-line flags").
type hiddenValue struct{ flag.Value }

func (h hiddenValue) IsBoolFlag() bool {
	b, ok := h.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// aliasValue sets the flag it stands for.
type aliasValue struct {
	fs     *flag.FlagSet
	target string
}

func (a aliasValue) String() string { return "" }
func (a aliasValue) Set(v string) error {
	return a.fs.Set(a.target, v)
}
func (a aliasValue) IsBoolFlag() bool {
	f := a.fs.Lookup(a.target)
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// alias keeps the old flag name old working as the flag target (defined
// before): setting it sets target, which is what the command reads and
// what its messages name. Usage does not list old.
func alias(fs *flag.FlagSet, old, target string) {
	if fs.Lookup(target) == nil {
		panic("alias of an undefined flag --" + target)
	}
	fs.Var(hiddenValue{aliasValue{fs, target}}, old, "old name of --"+target)
}

// hide leaves the flag name out of the usage (it keeps working).
func hide(fs *flag.FlagSet, name string) {
	f := fs.Lookup(name)
	f.Value = hiddenValue{f.Value}
}

// parseFlags parses args, turning flag errors into usage errors and --help
// into a clean exit.
// parseFlags parses a command's flags, which may come before, between or
// after its arguments (boardcam analyze clip.mp4 --json); after "--"
// everything is an argument.
func parseFlags(fs *flag.FlagSet, args []string) error {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return flag.ErrHelp
			}
			return fmt.Errorf("%w: %v", errUsage, err)
		}
		rest := fs.Args()
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			pos = append(pos, rest...)
			break
		}
		if len(rest) == 0 {
			break
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
	// Leave the arguments in fs.Args().
	return fs.Parse(append([]string{"--"}, pos...))
}

func usage(s stdio) {
	fmt.Fprintf(s.Err, "boardcam referees real carrom from an overhead camera.\n\nusage: boardcam <command> [flags] [arguments]\n\ncommands:\n")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(s.Err, "  %-10s %s\n", n, commands[n].Summary)
	}
	fmt.Fprintf(s.Err, "\nRun 'boardcam <command> --help' for a command's flags.\n")
}

// run executes one command line and returns the process exit status.
func run(ctx context.Context, args []string, s stdio) int {
	if len(args) == 0 {
		usage(s)
		return 2
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 {
			if c, ok := commands[args[1]]; ok {
				return run(ctx, []string{c.Name, "--help"}, s)
			}
		}
		usage(s)
		return 0
	}
	c, ok := commands[name]
	if !ok {
		fmt.Fprintf(s.Err, "boardcam: unknown command %q\n\n", name)
		usage(s)
		return 2
	}
	err := c.Run(ctx, args[1:], s)
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		fmt.Fprintf(s.Err, "boardcam %s: %v\nRun 'boardcam %s --help' for usage.\n", name, strings.TrimPrefix(err.Error(), "usage: "), name)
		return 2
	default:
		fmt.Fprintf(s.Err, "boardcam %s: %v\n", name, err)
		return 1
	}
}

func main() {
	tuneMemory()
	processLimits = true
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], stdio{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}))
}
