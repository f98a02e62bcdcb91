// Package tail keeps the end of what a child process writes (its complaints
// on stderr), so that an error can quote the last of them without holding
// everything a long-running decoder ever said.
package tail

import (
	"strings"
	"sync"
)

// Buffer is an io.Writer that keeps the last Max bytes written to it. It is
// safe for concurrent use (os/exec copies a child's output from its own
// goroutine).
type Buffer struct {
	Max int

	mu sync.Mutex
	b  []byte
}

// Write keeps p's end, dropping the oldest bytes beyond Max.
func (t *Buffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.Max {
		t.b = t.b[len(t.b)-t.Max:]
	}
	return len(p), nil
}

// String is what is kept.
func (t *Buffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

// Said is what is kept on one line, as ": line; line" to append to an error
// message, or "" when nothing was written.
func (t *Buffer) Said() string {
	s := strings.TrimSpace(t.String())
	if s == "" {
		return ""
	}
	return ": " + strings.ReplaceAll(s, "\n", "; ")
}
