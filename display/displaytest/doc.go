// Package displaytest provides test doubles and fixtures for the display
// and hardware packages: a Panel that records what it was asked to show,
// match states to show, and Recv. Their fake clock is clock/clocktest.
package displaytest
