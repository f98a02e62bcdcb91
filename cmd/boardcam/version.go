package main

import (
	"context"
	"fmt"
	"runtime/debug"
)

func init() {
	register(command{Name: "version", Summary: "print the version of boardcam and its libraries", Run: cmdVersion})
}

func cmdVersion(ctx context.Context, args []string, s stdio) error {
	fs := newFlags("version", "", "Print the version of boardcam and the libraries it was built with.", s)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("version takes no arguments")
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		fmt.Fprintln(s.Out, "boardcam (no build information)")
		return nil
	}
	fmt.Fprintf(s.Out, "boardcam %s (%s)\n", bi.Main.Version, bi.GoVersion)
	for _, d := range bi.Deps {
		fmt.Fprintf(s.Out, "  %s %s\n", d.Path, d.Version)
	}
	return nil
}
