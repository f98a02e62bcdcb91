// Command fakeserver runs the web server against the scripted fake backend
// of package webtest, for the browser tests (web/e2e) and for trying the
// pages by hand:
//
//	go run ./web/internal/fakeserver -addr 127.0.0.1:8080 -password umpire-secret
//
// then open http://127.0.0.1:8080/. POST /fake/step plays the next step of
// the demo match; GET /fake/commands lists the umpire commands received.
// It prints "listening on http://ADDR" once it accepts connections.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/web"
	"github.com/boardcam/boardcam/web/webtest"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "fakeserver:", err)
		os.Exit(1)
	}
}

func run() error {
	addr := flag.String("addr", "127.0.0.1:0", "address to listen on")
	password := flag.String("password", "", "umpire password (empty: no login)")
	iterations := flag.Int("iterations", 1000, "PBKDF2 iterations for the password hash (low: it is a test server)")
	origins := flag.String("origins", "", "extra allowed origins, comma-separated")
	flag.Parse()

	cfg := web.Config{Listen: *addr}
	if *origins != "" {
		cfg.AllowedOrigins = strings.Split(*origins, ",")
	}
	if *password != "" {
		h, err := web.HashPasswordIter(*password, *iterations)
		if err != nil {
			return err
		}
		cfg.UmpireHash = h
	}
	fake := webtest.NewFake(webtest.DemoScript())
	defer fake.Close()
	srv := &web.Server{Config: cfg, Source: fake, Sink: fake, Frames: fake, Painter: fake.Painter}
	// The control routes wrap the server's handler; Initialize serves
	// srv itself, so listen separately.
	srv.Config.Listen = ""
	if err := srv.Initialize(); err != nil {
		return err
	}
	defer srv.Close()
	fake.Attach(srv)

	mux := http.NewServeMux()
	mux.Handle("/", srv)
	mux.HandleFunc("POST /fake/step", func(w http.ResponseWriter, r *http.Request) {
		name, err := fake.Step()
		w.Header().Set("Content-Type", "application/json")
		if err != nil {
			code := http.StatusInternalServerError
			if errors.Is(err, webtest.ErrPending) || errors.Is(err, webtest.ErrScriptDone) {
				code = http.StatusConflict
			}
			w.WriteHeader(code)
			_ = json.NewEncoder(w).Encode(map[string]string{"error": err.Error()})
			return
		}
		st := fake.State()
		_ = json.NewEncoder(w).Encode(map[string]any{"step": name, "remaining": fake.Remaining(), "score": []int{st.Teams[0].Score, st.Teams[1].Score}})
	})
	// An uncertain decision, as the daemon holds one when frames were not
	// analysed while pieces moved: the analysis status with what was
	// missed, and the stroke held with its reason and best guess.
	mux.HandleFunc("POST /fake/uncertain", func(w http.ResponseWriter, r *http.Request) {
		reason := "frames 512–530 were not analysed (18 dropped: the analysis fell behind) while W4 moved 120 mm towards NE"
		err := fake.Publish(web.Analysis{Status: web.AnalysisBehind, Backlog: 12, Dropped: 18,
			Missed: []web.Missed{{After: 511, Before: 531, IDs: []string{"W4"}, Reason: reason}}})
		if err == nil {
			seat := board.N
			err = fake.Offer(webtest.Decision{Pending: web.Pending{ID: "p9", Frame: 560,
				Summary: "stroke N: not sure — best guess N b; waiting for the umpire: " + reason,
				Stroke:  &web.Stroke{Seat: seat, Player: "Ravi", Frame: 560, Pocketed: web.Pocketed{Black: 1}, Notation: "N b", Pending: "p9"},
				Doubts:  []web.Doubt{{Kind: "frames_missing", Reason: reason, Frames: [2]int{512, 530}, IDs: []string{"W4"}}},
				Guess:   "N b", IfConfirmed: "the match records N b"}})
		}
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET /fake/commands", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(fake.Commands())
	})

	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	fmt.Printf("listening on http://%s\n", ln.Addr())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case <-ctx.Done():
		srv.Close()
		return hs.Close()
	case err := <-errc:
		return err
	}
}
