package evidence

import (
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// The compressor's and the writer's threads run below the pipeline's
// priority, and so does the ffmpeg they start.
func TestLowerThreadPriority(t *testing.T) {
	own := func() int {
		out, err := exec.Command("nice").Output()
		if err != nil {
			t.Skip("no nice command")
		}
		n, _ := strconv.Atoi(strings.TrimSpace(string(out)))
		return n
	}
	base := own()
	if base > 14 {
		t.Skipf("the test already runs at nice %d", base)
	}
	type got struct{ thread, child, policy int }
	ch := make(chan got)
	go func() {
		lowerThreadPriority(4, true)
		p, _ := syscall.Getpriority(syscall.PRIO_PROCESS, syscall.Gettid())
		ch <- got{20 - p, own(), threadPolicy()}
	}()
	g := <-ch
	if g.thread != base+4 || g.child != base+4 {
		t.Fatalf("nice %d: the lowered thread has %d and its child %d, want %d", base, g.thread, g.child, base+4)
	}
	if g.policy != schedIdle {
		t.Fatalf("the lowered thread's policy is %d, want SCHED_IDLE", g.policy)
	}
	if p := threadPolicy(); p == schedIdle {
		t.Fatal("the test's own thread became SCHED_IDLE")
	}
}
