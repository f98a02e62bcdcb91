package tournament

import (
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// hub sends the pages' messages. It never waits for a page: each has a
// queue of 1024 messages, and a page whose queue is full is disconnected
// (it reconnects and gets a fresh "boards" message).
type hub struct {
	metrics *viewMetrics
	mu      sync.Mutex
	clients map[*client]struct{}
	closed  bool
}

type client struct {
	conn *websocket.Conn
	send chan []byte
	once sync.Once
}

const clientQueue = 1024

func newHub(m *viewMetrics) *hub { return &hub{metrics: m, clients: map[*client]struct{}{}} }

func (h *hub) add(c *client, first []byte) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return false
	}
	c.send <- first
	h.clients[c] = struct{}{}
	h.metrics.clients.Set(float64(len(h.clients)))
	return true
}

func (h *hub) remove(c *client) {
	h.mu.Lock()
	if _, ok := h.clients[c]; ok {
		delete(h.clients, c)
		c.once.Do(func() { close(c.send) })
	}
	h.metrics.clients.Set(float64(len(h.clients)))
	h.mu.Unlock()
}

func (h *hub) broadcast(msg []byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for c := range h.clients {
		select {
		case c.send <- msg:
		default:
			delete(h.clients, c)
			c.once.Do(func() { close(c.send) })
			h.metrics.dropped.Inc()
		}
	}
	h.metrics.clients.Set(float64(len(h.clients)))
}

func (h *hub) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	for c := range h.clients {
		delete(h.clients, c)
		c.once.Do(func() { close(c.send) })
	}
}

// writeLoop sends a client's queue; when the queue is closed (too slow,
// or the view stops) it closes the connection.
func (c *client) writeLoop() {
	ping := time.NewTicker(30 * time.Second)
	defer ping.Stop()
	defer c.conn.Close()
	for {
		select {
		case m, ok := <-c.send:
			c.conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
			if !ok {
				c.conn.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.ClosePolicyViolation, "too slow, or the view stopped: reconnect"))
				return
			}
			if err := c.conn.WriteMessage(websocket.TextMessage, m); err != nil {
				return
			}
		case <-ping.C:
			c.conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
			if err := c.conn.WriteMessage(websocket.PingMessage, nil); err != nil {
				return
			}
		}
	}
}
