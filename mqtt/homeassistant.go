package mqtt

import (
	"encoding/json"
	"strings"
)

// DiscoveryMessage is one Home Assistant MQTT discovery message
// (retained): Topic is under Config.HomeAssistant.
type DiscoveryMessage struct {
	Topic   string
	Payload []byte
}

// Discovery makes the Home Assistant discovery messages of a board, so
// that its score, turn, board number, pending decisions, camera and
// connectivity appear as the entities of one device without
// configuration. The entities read the board's retained snapshot and
// health topics (docs/mqtt.md).
func Discovery(c Config) []DiscoveryMessage {
	node := "boardcam_" + sanitize(strings.TrimPrefix(c.BoardID(), "boardcam/"))
	device := map[string]any{
		"identifiers":  []string{node},
		"name":         "boardcam " + c.Name,
		"manufacturer": "boardcam",
		"model":        "carrom referee",
	}
	avail := []map[string]string{{
		"topic":                 c.Prefix + TopicHealth,
		"value_template":        "{{ value_json.data.status }}",
		"payload_available":     Online,
		"payload_not_available": Offline,
	}}
	snap := c.Prefix + TopicSnapshot
	state := "value_json.data.state"
	type ent struct {
		component, object, name, topic, tmpl, icon string
		extra                                      map[string]any
	}
	ents := []ent{
		{"sensor", "score_a", "Score A", snap, "{{ " + state + ".teams[0].score }}", "mdi:numeric",
			map[string]any{"state_class": "measurement", "json_attributes_topic": snap, "json_attributes_template": "{{ {'team': " + state + ".teams[0].name, 'boards_won': " + state + ".teams[0].boards_won} | tojson }}"}},
		{"sensor", "score_b", "Score B", snap, "{{ " + state + ".teams[1].score }}", "mdi:numeric",
			map[string]any{"state_class": "measurement", "json_attributes_topic": snap, "json_attributes_template": "{{ {'team': " + state + ".teams[1].name, 'boards_won': " + state + ".teams[1].boards_won} | tojson }}"}},
		{"sensor", "turn", "Turn", snap, "{% set s = " + state + " %}{% for p in s.players if p.seat == s.turn %}{{ p.name }}{% else %}{{ s.turn }}{% endfor %}", "mdi:account-arrow-right", nil},
		{"sensor", "board", "Board", snap, "{{ " + state + ".board }}", "mdi:counter", nil},
		{"sensor", "pending", "Pending decisions", snap, "{{ value_json.data.pending | count }}", "mdi:gavel", nil},
		{"sensor", "camera", "Camera", c.Prefix + TopicHealth, "{{ value_json.data.camera }}", "mdi:cctv", nil},
		{"binary_sensor", "online", "Online", c.Prefix + TopicHealth, "{{ value_json.data.status }}", "",
			map[string]any{"device_class": "connectivity", "payload_on": Online, "payload_off": Offline}},
	}
	var out []DiscoveryMessage
	for _, e := range ents {
		cfg := map[string]any{
			"name":           e.name,
			"unique_id":      node + "_" + e.object,
			"object_id":      node + "_" + e.object,
			"state_topic":    e.topic,
			"value_template": e.tmpl,
			"device":         device,
		}
		if e.icon != "" {
			cfg["icon"] = e.icon
		}
		if e.object != "online" {
			cfg["availability"] = avail
		}
		for k, v := range e.extra {
			cfg[k] = v
		}
		b, _ := json.Marshal(cfg)
		out = append(out, DiscoveryMessage{Topic: c.HomeAssistant + "/" + e.component + "/" + node + "/" + e.object + "/config", Payload: b})
	}
	return out
}

// sanitize keeps letters, digits, _ and - (Home Assistant's node ids).
func sanitize(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}
