// The tournament view's pages share this: one websocket (/ws), the boards
// it lists and the board messages that follow (docs/mqtt.md), folded as
// the Go side folds them (tournament/boards.go).
"use strict";

const TV = {
  boards: new Map(), onAir: "", listeners: [],
  on(f) { this.listeners.push(f); },
  emit(id) { for (const f of this.listeners) f(id); },
  connect() {
    let wait = 500;
    const open = () => {
      const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
      ws.onopen = () => { wait = 500; document.body.classList.remove("disconnected"); };
      ws.onmessage = (ev) => this.handle(JSON.parse(ev.data));
      ws.onclose = () => {
        document.body.classList.add("disconnected");
        setTimeout(open, wait + Math.random() * 250);
        wait = Math.min(wait * 2, 10000);
      };
    };
    open();
  },
  handle(m) {
    if (m.type === "boards") {
      this.boards = new Map(m.boards.map((b) => [b.id, b]));
      this.onAir = m.on_air || "";
      this.emit(null);
    } else if (m.type === "on_air") {
      this.onAir = m.on_air || "";
      this.emit(null);
    } else if (m.type === "event") {
      let b = this.boards.get(m.board);
      if (!b) { b = { id: m.board, name: m.board.split("/").pop(), seq: 0, match: "" }; this.boards.set(m.board, b); }
      this.apply(b, m.topic, m.env);
      this.emit(m.board);
    }
  },
  apply(b, topic, e) {
    if (topic === "health") { b.health = e.data; if (e.data.name) b.name = e.data.name; return; }
    if (topic === "snapshot") { b.match = e.match; b.seq = e.seq; b.snapshot = e.data; b.gap = false; return; }
    if (e.match !== b.match) { b.match = e.match; b.seq = 0; }
    if (e.seq !== b.seq + 1) b.gap = true;
    b.seq = e.seq;
    const s = b.snapshot || (b.snapshot = { state: {}, pending: [] });
    s.pending = s.pending || [];
    switch (e.type) {
      case "snapshot": b.snapshot = e.data; break;
      case "state": s.state = e.data; break;
      case "pending": s.pending.push(e.data); break;
      case "decided": s.pending = s.pending.filter((p) => p.id !== e.data.id); break;
      case "calibration": s.calibration = e.data; break;
      case "stroke": case "foul": case "notice": b.last = e.data.text || e.data.notation || e.data.code || ""; break;
    }
  },
};

function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v); else el.setAttribute(k, v);
  }
  for (const k of kids) if (k != null) el.append(k.nodeType ? k : String(k));
  return el;
}

// boardSummary: the names, scores and turn of a board's match.
function boardSummary(b) {
  const st = (b.snapshot && b.snapshot.state) || {};
  const teams = st.teams || [];
  const turnSeat = st.turn;
  const turnPlayer = (st.players || []).find((p) => p.seat === turnSeat);
  const turnTeam = turnPlayer ? turnPlayer.team : -1;
  return {
    teams: teams.map((t, i) => ({ name: t.name || "?", score: t.score || 0, boards: t.boards_won || 0, colour: t.colour, turn: i === turnTeam })),
    board: st.board || 0, over: !!st.match_over, winner: st.winner,
    turn: turnPlayer ? turnPlayer.name : (turnSeat || ""),
    pending: (b.snapshot && b.snapshot.pending) || [],
  };
}

// healthBadges says what is wrong with a board, in words.
function healthBadges(b) {
  const out = [];
  const hl = b.health;
  if (!hl) out.push(["warn", "no health yet"]);
  else if (hl.status !== "online") out.push(["bad", "board offline"]);
  else {
    if (hl.camera && hl.camera !== "ok") out.push(["bad", "camera " + hl.camera.replace("_", " ")]);
    if (hl.calibration && hl.calibration !== "ok" && hl.calibration !== "manual") out.push(["warn", "calibration " + hl.calibration]);
    if (hl.analysis === "behind") out.push(["warn", "analysis behind"]);
    if (hl.unsent > 0) out.push(["warn", hl.unsent + " events catching up"]);
  }
  if (b.gap) out.push(["warn", "missed events: waiting for the board's snapshot"]);
  return out;
}
