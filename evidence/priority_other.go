//go:build !linux

package evidence

import "runtime"

// lowerThreadPriority locks the calling goroutine to its OS thread; only
// Linux lowers a thread's priority.
func lowerThreadPriority(int, bool) { runtime.LockOSThread() }
