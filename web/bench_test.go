package web

import (
	"fmt"
	"testing"

	"github.com/boardcam/boardcam/board"
)

// BenchmarkPublish measures Publish with n clients (no network): marshal
// once, then queue for every client. The queues are emptied outside the
// timed part every SendBuffer messages, so no client is ever dropped. The
// cost should grow linearly with n.
//
//	go test -tags matprofile -run XXX -bench Publish -benchmem ./web/
func BenchmarkPublish(b *testing.B) {
	for _, n := range []int{1, 20, 200} {
		b.Run(fmt.Sprintf("clients=%d", n), func(b *testing.B) {
			cfg := Config{}.withDefaults()
			h := newHub(&cfg, NewMetrics())
			var cs []*client
			for i := 0; i < n; i++ {
				c := &client{send: make(chan []byte, cfg.SendBuffer)}
				h.clients[c] = struct{}{}
				cs = append(cs, c)
			}
			m := Stroke{Seat: board.S, Player: "Asha", Frame: 1234, Pocketed: Pocketed{White: 2}, Notation: "S W1 W3"}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := h.publish(m); err != nil {
					b.Fatal(err)
				}
				if (i+1)%cfg.SendBuffer == 0 {
					b.StopTimer()
					for _, c := range cs {
						for len(c.send) > 0 {
							<-c.send
						}
					}
					b.StartTimer()
				}
			}
			b.StopTimer()
			if d := h.metrics.Stats().Dropped; d != 0 {
				b.Fatalf("%d clients dropped", d)
			}
		})
	}
}
