package daemon

import (
	"fmt"
	"math"
	"os"
	"syscall"
	"time"
	"unsafe"
)

// v4l2Controls are a V4L2 device's controls (VIDIOC_S_CTRL/G_CTRL): the
// exposure is set on the device node while gst-launch streams from it
// (V4L2 lets a second open change controls). Tests use a fake.
type v4l2Controls interface {
	Set(id uint32, v int32) error
	Get(id uint32) (int32, error)
	Close() error
}

// V4L2 control ids and values (linux/v4l2-controls.h).
const (
	v4l2CIDExposureAuto     = 0x009a0901 // V4L2_CID_EXPOSURE_AUTO
	v4l2CIDExposureAbsolute = 0x009a0902 // V4L2_CID_EXPOSURE_ABSOLUTE, in 100 µs
	v4l2ExposureManual      = 1          // V4L2_EXPOSURE_MANUAL
	// V4L2_EXPOSURE_APERTURE_PRIORITY: the webcams' automatic mode.
	v4l2ExposureAperturePriority = 3
)

// configureExposure asks a V4L2 camera for the exposure of o (a short
// manual exposure, or its automatic one), reads back what it took, and
// says so in words.
func configureExposure(c v4l2Controls, o CaptureOptions) (applied, missed []string) {
	if t := o.Exposure; t > 0 {
		units := int32(math.Round(float64(t) / float64(100*time.Microsecond)))
		errMode := c.Set(v4l2CIDExposureAuto, v4l2ExposureManual)
		errTime := c.Set(v4l2CIDExposureAbsolute, units)
		mode, err1 := c.Get(v4l2CIDExposureAuto)
		got, err2 := c.Get(v4l2CIDExposureAbsolute)
		switch {
		case errMode != nil || err1 != nil || mode != v4l2ExposureManual:
			why := fmt.Sprintf("mode %d", mode)
			if e := firstErr(errMode, err1); e != nil {
				why = e.Error()
			}
			missed = append(missed, fmt.Sprintf("exposure %s: the camera keeps its automatic exposure (%s); fast strokes may blur", t, why))
		case errTime != nil || err2 != nil || got <= 0 || math.Abs(float64(got-units)) > math.Max(1, float64(units)/10):
			missed = append(missed, fmt.Sprintf("exposure %s: the camera took %s", t, time.Duration(got)*100*time.Microsecond))
		default:
			applied = append(applied, fmt.Sprintf("exposure %s (manual)", time.Duration(got)*100*time.Microsecond))
		}
	} else if o.ExposureAuto {
		if err := c.Set(v4l2CIDExposureAuto, v4l2ExposureAperturePriority); err != nil {
			missed = append(missed, fmt.Sprintf("automatic exposure: %v", err))
		} else {
			applied = append(applied, "automatic exposure")
		}
	}
	return applied, missed
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// ioctlControls is a V4L2 device node's controls.
type ioctlControls struct{ f *os.File }

func openV4L2Controls(dev string) (v4l2Controls, error) {
	f, err := os.OpenFile(dev, os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	return ioctlControls{f}, nil
}

// struct v4l2_control { __u32 id; __s32 value; }
type v4l2Control struct {
	ID    uint32
	Value int32
}

// _IOWR('V', 27/28, struct v4l2_control)
const (
	vidiocGCtrl = 0xC008561B
	vidiocSCtrl = 0xC008561C
)

func (c ioctlControls) ioctl(req uintptr, ctl *v4l2Control) error {
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, c.f.Fd(), req, uintptr(unsafe.Pointer(ctl))); e != 0 {
		return fmt.Errorf("control %#x: %w", ctl.ID, e)
	}
	return nil
}

func (c ioctlControls) Set(id uint32, v int32) error {
	return c.ioctl(vidiocSCtrl, &v4l2Control{ID: id, Value: v})
}

func (c ioctlControls) Get(id uint32) (int32, error) {
	ctl := v4l2Control{ID: id}
	err := c.ioctl(vidiocGCtrl, &ctl)
	return ctl.Value, err
}

func (c ioctlControls) Close() error { return c.f.Close() }
