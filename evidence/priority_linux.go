package evidence

import (
	"runtime"
	"syscall"
)

// lowerThreadPriority locks the calling goroutine to its OS thread and
// lowers that thread's CPU priority by n (nice), so that the work it does
// yields to the pipeline's on a busy CPU. The goroutine must not unlock
// the thread: when it returns, the thread ends with it rather than going
// back to the runtime with the lower priority.
func lowerThreadPriority(n int) {
	runtime.LockOSThread()
	if n <= 0 {
		return
	}
	tid := syscall.Gettid()
	// getpriority's raw value is 20 - nice (the libc wrapper undoes it).
	cur, err := syscall.Getpriority(syscall.PRIO_PROCESS, tid)
	if err != nil {
		return
	}
	_ = syscall.Setpriority(syscall.PRIO_PROCESS, tid, min(19, 20-cur+n))
}
