package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"

	"github.com/boardcam/boardcam/web"
)

func init() {
	register(command{Name: "passwd", Summary: "hash an umpire password for the configuration file", Run: cmdPasswd})
}

// terminal returns the file descriptor of r when r is a terminal (the
// password is then read without echo); tests replace it.
var terminal = func(r io.Reader) (int, bool) {
	f, ok := r.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return 0, false
	}
	return int(f.Fd()), true
}

// readNoEcho reads one line from the terminal fd without echoing it.
var readNoEcho = term.ReadPassword

func cmdPasswd(ctx context.Context, args []string, s stdio) error {
	fs := newFlags("passwd", "[-]", `
Read an umpire password (or token) and print its hash for the
web.umpire_hash setting of the configuration file. Only the hash is stored;
the umpire console asks for the password itself. On a terminal the password
is read twice without echo (the prompts go to standard error); otherwise
the first line of standard input is the password.

  boardcam passwd > hash.txt            (type the password twice)
  printf '%s' "$PASSWORD" | boardcam passwd`, s)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 1 || (fs.NArg() == 1 && fs.Arg(0) != "-") {
		return usageError("passwd reads the password from standard input and takes no arguments")
	}
	pw, err := readPassword(s)
	if err != nil {
		return err
	}
	hash, err := web.HashPassword(pw)
	if err != nil {
		return err
	}
	fmt.Fprintln(s.Out, hash)
	return nil
}

// readPassword reads the password: from a terminal twice without echo,
// from anything else as the first line.
func readPassword(s stdio) (string, error) {
	fd, tty := terminal(s.In)
	if !tty {
		line, err := bufio.NewReader(s.In).ReadString('\n')
		if err != nil && line == "" {
			return "", fmt.Errorf("read password from standard input: %w", err)
		}
		return strings.TrimRight(line, "\r\n"), nil
	}
	var pw [2]string
	for i, prompt := range []string{"Umpire password: ", "Again: "} {
		fmt.Fprint(s.Err, prompt)
		b, err := readNoEcho(fd)
		fmt.Fprintln(s.Err) // the Enter was not echoed either
		if err != nil {
			return "", fmt.Errorf("read password from the terminal: %w", err)
		}
		pw[i] = string(b)
	}
	if pw[0] != pw[1] {
		return "", errors.New("the two passwords differ; nothing written")
	}
	return pw[0], nil
}
