package web

// Validate checks a command's shape exactly as the console's websocket
// does (missing or malformed fields, foul codes not in profile, a new
// match's seats); the daemon checks its meaning. There is no still frame
// outside the board's own web server, so calibrate is refused. Package
// mqtt checks the commands the tournament view relays with it.
func (c *Command) Validate(profile ProfileInfo) error {
	return c.validate(profile, func(string) (int, int, bool) { return 0, 0, false })
}
