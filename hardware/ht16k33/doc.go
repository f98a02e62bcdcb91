// Package ht16k33 drives a boardcam scoreboard of 7-segment digits on
// Holtek HT16K33 LED controllers over I²C.
//
// It builds on periph.io/x/devices/v3/ht16k33 for the chip's
// initialisation, brightness and display-RAM column writes, and adds the
// digit wiring of the boards clubs buy, writes of only the digits that
// changed (an update of one score is one 3-byte I²C write), a full-RAM clear
// at start (periph's Halt clears only four columns) and a Halt that also
// puts the chip in standby.
//
// # Wirings
//
// [Backpack] is the Adafruit 0.56" and 1.2" 4-digit 7-segment backpack
// (products 878–882, 1268–1271 and their clones): digits in RAM columns 0,
// 1, 3 and 4, the colon in column 2 (kept dark), segments a–g and the
// decimal point on ROW0–ROW7. Several backpacks at consecutive addresses
// (0x70, 0x71 … set with the A0–A2 jumpers) make a longer row, left to
// right.
//
// [Rows] is a bare HT16K33 with up to eight common-cathode digits: digit i
// on COM i, segments a–g and the decimal point on ROW0–ROW7.
//
// Blinking is done by the caller (display.PanelSink rewrites the blinking
// fields): the chip's own blink would flash the whole display, not one
// field.
//
// # Datasheets
//
// https://www.holtek.com/documents/10179/116711/HT16K33v120.pdf
//
// https://learn.adafruit.com/adafruit-led-backpack/0-dot-56-seven-segment-backpack
package ht16k33
