package evidence

import (
	"runtime"
	"syscall"
	"unsafe"
)

// lowerThreadPriority locks the calling goroutine to its OS thread and
// lowers that thread's CPU priority by n (nice) and, when idle, to SCHED_IDLE, so that
// the work it does (and the programs it starts, which inherit both) runs
// when the pipeline's threads leave the CPU free. The goroutine must not
// unlock the thread: when it returns, the thread ends with it rather than
// going back to the runtime with the lower priority.
func lowerThreadPriority(n int, idle bool) {
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
	if !idle {
		return
	}
	var param [1]int32 // struct sched_param{sched_priority: 0}
	_, _, _ = syscall.RawSyscall(syscall.SYS_SCHED_SETSCHEDULER, uintptr(tid), schedIdle, uintptr(unsafe.Pointer(&param[0])))
}

// schedIdle is SCHED_IDLE (linux/sched.h).
const schedIdle = 5

// threadPolicy is the scheduling policy of the calling thread.
func threadPolicy() int {
	r, _, _ := syscall.RawSyscall(syscall.SYS_SCHED_GETSCHEDULER, uintptr(syscall.Gettid()), 0, 0)
	return int(r)
}
