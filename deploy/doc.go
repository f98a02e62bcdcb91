// Package deploy holds what installs boardcam on a Raspberry Pi: the
// systemd unit (boardcam.service), the example configuration, the Debian
// package's nfpm configuration and maintainer scripts (nfpm.yaml, deb/).
// It has no Go code; its tests check the unit.
package deploy
