// Package gpio is the small GPIO interface boardcam's buzzer, turn LEDs and
// umpire buttons are written against, its implementation on the Linux GPIO
// character device with github.com/warthog618/go-gpiocdev, and the
// Raspberry Pi's line names.
//
// # Line names
//
// A line is named as on a Raspberry Pi: "GPIO17" or "BCM17" (the Broadcom
// number, which is the line offset on the Pi's header chip), "17", or by
// its physical pin on the 40-pin header, "PIN11" (also "P1-11", "pin 11").
// Any other name is looked up among the chip's line names (the device tree
// names the Pi's lines "GPIO17" … as well). See [ParseLine] and [Header].
//
// # Chips
//
// On a Raspberry Pi 1–4 and on a Pi 5 with a current kernel the header's
// lines are on "gpiochip0"; on a Pi 5 with a kernel from before mid-2024
// they are on "gpiochip4" (gpioinfo shows which chip has "GPIO17"). Active-low lines and pull resistors are configured in
// the kernel (uAPI v2, Linux 5.10 or later for bias), so Set(true) always
// means "on".
//
// # Kernel documentation
//
// https://docs.kernel.org/userspace-api/gpio/chardev.html
//
// https://github.com/warthog618/go-gpiocdev
package gpio
