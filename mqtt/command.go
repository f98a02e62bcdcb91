package mqtt

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/eclipse/paho.golang/paho"

	"github.com/boardcam/boardcam/web"
)

// onMessage takes what arrives on the command topic. Every refusal is
// counted (boardcam_mqtt_rejected_total{reason}) and, when the message has
// an id to answer, answered on the reply topic.
func (b *Board) onMessage(p paho.PublishReceived) {
	if p.Packet.Topic != b.Config.Prefix+TopicCommand {
		return
	}
	e, err := Decode(p.Packet.Payload, MaxCommand)
	if err != nil {
		reason := "malformed"
		if de, ok := err.(*DecodeError); ok {
			reason = de.Reason
		}
		b.reject(e.ID, reason, web.ErrBadMessage, err.Error())
		return
	}
	if e.Type != web.TypeCommand {
		b.reject(e.ID, "type", web.ErrUnknownType, fmt.Sprintf("type %q: the command topic takes commands", e.Type))
		return
	}
	if e.ID == "" || len(e.ID) > 64 {
		b.reject("", "malformed", web.ErrBadMessage, "a command needs an id of 1 to 64 characters")
		return
	}
	if b.pub == nil {
		b.reject(e.ID, "disabled", web.ErrUnavailable, "this board takes no commands over MQTT (no mqtt.command_key)")
		return
	}
	if err := Verify(e, p.Packet.Topic, b.pub); err != nil {
		b.reject(e.ID, "auth", web.ErrUnauthorized, "command refused: "+err.Error())
		return
	}
	now := b.Now()
	if d := now.Sub(e.T); d > b.Config.CommandMaxAge || d < -b.Config.CommandMaxAge {
		b.reject(e.ID, "stale", web.ErrUnauthorized, fmt.Sprintf("command refused: sent %s, %s from this board's clock (at most %s)", e.T.Format(time.RFC3339), d.Round(time.Second), b.Config.CommandMaxAge))
		return
	}
	b.mu.Lock()
	for id, t := range b.seen {
		if now.Sub(t) > 2*b.Config.CommandMaxAge {
			delete(b.seen, id)
		}
	}
	_, replay := b.seen[e.ID]
	if !replay {
		b.seen[e.ID] = now
	}
	b.mu.Unlock()
	if replay {
		b.reject(e.ID, "replayed", web.ErrUnauthorized, "command refused: already received (id "+e.ID+")")
		return
	}
	select {
	case b.cmdq <- e:
	default:
		b.reject(e.ID, "busy", web.ErrRateLimited, "too many commands waiting")
	}
}

// commandLoop carries out the commands one at a time, as one console
// connection's are.
func (b *Board) commandLoop(ctx context.Context) {
	defer close(b.cmdDone)
	for {
		select {
		case <-ctx.Done():
			return
		case e := <-b.cmdq:
			b.command(ctx, e)
		}
	}
}

func (b *Board) command(ctx context.Context, e Envelope) {
	var c web.Command
	dec := json.NewDecoder(bytesReader(e.Data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		b.reject(e.ID, "invalid", web.ErrInvalidCommand, "command: "+err.Error())
		return
	}
	if c.Name == web.CmdCalibrate {
		b.reject(e.ID, "invalid", web.ErrInvalidCommand, "calibrate needs a still frame of the board's own console")
		return
	}
	b.mu.Lock()
	profile := b.snap.Profile
	b.mu.Unlock()
	if err := c.Validate(profile); err != nil {
		b.reject(e.ID, "invalid", web.ErrInvalidCommand, err.Error())
		return
	}
	by := "chief referee"
	if e.Auth.By != "" {
		by = e.Auth.By
	}
	if c.Note == "" {
		c.Note = "by " + by + " (tournament view)"
	} else {
		c.Note += " (" + by + ", tournament view)"
	}
	if b.Commands == nil {
		b.reject(e.ID, "disabled", web.ErrUnavailable, "this board takes no commands")
		return
	}
	cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	msg, err := b.Commands.Do(cctx, c)
	cancel()
	if err != nil {
		b.metrics.commands.WithLabelValues(c.Name, "failed").Inc()
		b.reply(e.ID, web.TypeError, web.ErrorData{Code: web.ErrCommandFailed, Message: err.Error()})
		return
	}
	b.metrics.commands.WithLabelValues(c.Name, "ok").Inc()
	b.Logger.Info("mqtt: command carried out", "command", c.Name, "by", by, "id", e.ID)
	b.reply(e.ID, web.TypeAck, web.Ack{Message: msg})
}

func (b *Board) reject(id, reason, code, msg string) {
	b.metrics.rejected.WithLabelValues(reason).Inc()
	b.Logger.Warn("mqtt: command refused", "reason", reason, "id", id, "err", msg)
	if id != "" {
		b.reply(id, web.TypeError, web.ErrorData{Code: code, Message: msg})
	}
}

// reply answers a command on the reply topic (in a goroutine: it may be
// called from the client's receive path, which must not wait for a
// publish).
func (b *Board) reply(id, typ string, data any) {
	e := b.envelope(typ, data)
	e.ID = id
	payload, _ := json.Marshal(e)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		b.cm.Publish(ctx, &paho.Publish{Topic: b.Config.Prefix + TopicReply, QoS: 1, Payload: payload})
	}()
}
