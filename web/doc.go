// Package web is what people see over the network: the versioned websocket
// API, the stream overlay and the umpire console pages, the annotated
// camera preview, Prometheus metrics and a health check.
//
// # Routes
//
//	/              index page linking the others
//	/overlay       transparent scoreboard for OBS's browser source
//	               (?theme=dark|light&corner=tl|tr|bl|br&size=s|m|l)
//	/umpire        the umpire console (login required to change anything)
//	/ws            the websocket API (docs/websocket.md)
//	/preview.mjpg  camera picture with markings, pieces and the last foul
//	/metrics       Prometheus metrics (see Metrics)
//	/healthz       {"ok":…,"camera":…,"calibration":…}
//	/api/board     board markings in millimetres for the console's diagram
//	/api/session, /api/login, /api/logout, /api/still  the console's login
//	               and still frame
//
// # Data flow
//
// The daemon calls [Server.Publish] with every message (a state after each
// rules event, strokes, fouls with evidence, pending automatic decisions,
// calibration and camera status, live piece positions). Publish never
// blocks: each websocket client has a bounded queue, and a client whose
// queue is full is disconnected. The server keeps the fold of everything
// published, so a client that connects receives a snapshot followed by
// exactly the messages after it.
//
// The daemon implements three small interfaces: [StateSource] (the first
// snapshot), [CommandSink] (the umpire's commands) and [FrameSource]
// (camera frames for the preview and the console's still frame). Package
// webtest has a scripted fake of all three and a websocket test client.
//
// # Security
//
// Everything is read-only except the umpire's commands, which travel over
// the websocket of a logged-in console. The password (or token) is stored
// as a PBKDF2-SHA256 hash ([HashPassword]); the session cookie is HttpOnly
// and SameSite=Strict and expires after Config.SessionTTL; an umpire
// websocket needs the session's CSRF token and the server's own Origin;
// repeated failed logins lock the address out for a while. Other origins
// may be allowed to read (Config.AllowedOrigins).
//
// The package does not log; it returns errors and exports metrics.
package web
