package analysis

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sync"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/calibrate"
)

// Shared board searches. `boardcam eval --remove` plays each clip several
// times side by side (one daemon per way of removing frames), and every
// run looks for the board in the same first frame: about 185 ms of CPU at
// 720p, five or six times per clip. [ShareSearches] makes the analyzers of
// this process search the same picture once: a search of the same pixels
// with the same board, orientation and time in the video gets a copy of
// the first one's calibration (a deep copy) or its error, computed once
// while the others wait. Hashing the picture costs about 2 ms. Off unless asked: a
// daemon searches a picture once anyway.
var searches struct {
	mu sync.Mutex
	on bool
	m  map[[32]byte]*search
}

// search is one board search: done is closed once cal (copied out at each
// use) or err is set.
type search struct {
	done chan struct{}
	cal  *calibrate.Calibration
	err  error
}

// ShareSearches makes the board searches of every analyzer of this
// process shared (see above); it cannot be undone.
func ShareSearches() {
	searches.mu.Lock()
	defer searches.mu.Unlock()
	if !searches.on {
		searches.on, searches.m = true, map[[32]byte]*search{}
	}
}

// detect is calibrate.Detect of img with opt at t (seconds into the
// video), shared when ShareSearches was called.
func detect(img gocv.Mat, opt calibrate.Options, t float64) (*calibrate.Calibration, error) {
	searches.mu.Lock()
	on := searches.on
	searches.mu.Unlock()
	if !on {
		cal, _, err := calibrate.Detect(img, opt)
		return cal, err
	}
	key, ok := searchKey(img, opt, t)
	if !ok {
		cal, _, err := calibrate.Detect(img, opt)
		return cal, err
	}
	searches.mu.Lock()
	s, found := searches.m[key]
	if !found {
		s = &search{done: make(chan struct{})}
		searches.m[key] = s
	}
	searches.mu.Unlock()
	if !found {
		cal, _, err := calibrate.Detect(img, opt)
		if err == nil {
			s.cal = deepCopy(cal)
		}
		s.err = err
		close(s.done)
		return cal, err
	}
	<-s.done
	if s.err != nil {
		return nil, s.err
	}
	return deepCopy(s.cal), nil
}

// deepCopy copies what p points to, and what its pointers, slices and maps
// hold, all the way down (a calibration: its markings, set, lens and
// quality); numbers are copied bit for bit. Interfaces, channels and
// functions are shared (a calibration has none).
func deepCopy[T any](p *T) *T {
	return copyValue(reflect.ValueOf(p)).Interface().(*T)
}

func copyValue(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		c := reflect.New(v.Type().Elem())
		c.Elem().Set(copyValue(v.Elem()))
		return c
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := 0; i < v.Len(); i++ {
			c.Index(i).Set(copyValue(v.Index(i)))
		}
		return c
	case reflect.Map:
		if v.IsNil() {
			return v
		}
		c := reflect.MakeMapWithSize(v.Type(), v.Len())
		for it := v.MapRange(); it.Next(); {
			c.SetMapIndex(copyValue(it.Key()), copyValue(it.Value()))
		}
		return c
	case reflect.Array:
		c := reflect.New(v.Type()).Elem()
		for i := 0; i < v.Len(); i++ {
			c.Index(i).Set(copyValue(v.Index(i)))
		}
		return c
	case reflect.Struct:
		c := reflect.New(v.Type()).Elem()
		c.Set(v) // unexported fields as they are (time.Time's among them)
		for i := 0; i < v.NumField(); i++ {
			if c.Field(i).CanSet() {
				c.Field(i).Set(copyValue(v.Field(i)))
			}
		}
		return c
	}
	return v
}

// searchKey identifies a search: the picture's size, type and pixels, the
// board, the orientation, the options and the time. false: the picture
// cannot be read as bytes (not continuous).
func searchKey(img gocv.Mat, opt calibrate.Options, t float64) ([32]byte, bool) {
	if !img.IsContinuous() {
		return [32]byte{}, false
	}
	b, err := img.DataPtrUint8()
	if err != nil {
		return [32]byte{}, false
	}
	g, err := json.Marshal(opt.Geometry)
	if err != nil {
		return [32]byte{}, false
	}
	h := sha256.New()
	var n [8]byte
	for _, v := range []int{img.Rows(), img.Cols(), int(img.Type()), opt.WorkSize} {
		binary.LittleEndian.PutUint64(n[:], uint64(v))
		h.Write(n[:])
	}
	for _, v := range []float64{t, opt.MinConfidence, opt.MaxTiltDeg} {
		binary.LittleEndian.PutUint64(n[:], math.Float64bits(v))
		h.Write(n[:])
	}
	fmt.Fprintf(h, "%v %#v %d|", opt.RefineWithMarkings, opt.Orientation, len(g))
	h.Write(g)
	h.Write(b)
	var key [32]byte
	h.Sum(key[:0])
	return key, true
}
