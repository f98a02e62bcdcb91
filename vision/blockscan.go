package vision

import (
	"encoding/binary"
	"math/bits"
	"unsafe"
)

// nextSet returns the index of the first true of b at or after k, or
// len(b) when there is none. The block loops visit only the blocks a
// mask sets (a hand's, the changed ones: a few of the board's tens of
// thousands in most frames) in the order a plain loop over all of them
// would: eight bools at a time where all eight are false.
func nextSet(b []bool, k int) int {
	if k < 0 {
		k = 0
	}
	n := len(b)
	if k >= n {
		return n
	}
	// a Go bool is one byte, 0 or 1
	p := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(b))), n)
	for ; k+8 <= n; k += 8 {
		if w := binary.LittleEndian.Uint64(p[k : k+8]); w != 0 {
			return k + bits.TrailingZeros64(w)/8
		}
	}
	for ; k < n; k++ {
		if p[k] != 0 {
			return k
		}
	}
	return n
}
