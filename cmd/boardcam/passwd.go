package main

import (
	"bufio"
	"context"
	"fmt"
	"strings"

	"github.com/boardcam/boardcam/web"
)

func init() {
	register(command{Name: "passwd", Summary: "hash an umpire password for the configuration file", Run: cmdPasswd})
}

func cmdPasswd(ctx context.Context, args []string, s stdio) error {
	fs := newFlags("passwd", "[-]", `
Read an umpire password (or token) from standard input and print its hash
for the web.umpire_hash setting of the configuration file. Only the hash is
stored; the umpire console asks for the password itself.

  boardcam passwd > hash.txt            (type the password, then Enter)
  printf '%s' "$PASSWORD" | boardcam passwd`, s)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 1 || (fs.NArg() == 1 && fs.Arg(0) != "-") {
		return usageError("passwd reads the password from standard input and takes no arguments")
	}
	line, err := bufio.NewReader(s.In).ReadString('\n')
	if err != nil && line == "" {
		return fmt.Errorf("read password from standard input: %w", err)
	}
	pw := strings.TrimRight(line, "\r\n")
	hash, err := web.HashPassword(pw)
	if err != nil {
		return err
	}
	fmt.Fprintln(s.Out, hash)
	return nil
}
