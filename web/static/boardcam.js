// boardcam.js: the websocket client and drawing helpers shared by the
// overlay and the umpire console. Plain ES module, no dependencies.

export const PROTOCOL = 1;

// Feed keeps one websocket open to /ws: it reconnects with backoff, checks
// that broadcast messages arrive without gaps (a gap reconnects to get a
// fresh snapshot), pings to notice dead connections, and turns commands
// into promises settled by the matching ack or error.
export class Feed {
  constructor({ csrf = '', onSnapshot, onMessage, onStatus } = {}) {
    this.csrf = csrf;
    this.onSnapshot = onSnapshot || (() => {});
    this.onMessage = onMessage || (() => {});
    this.onStatus = onStatus || (() => {});
    this.seq = 0;
    this.ws = null;
    this.retries = 0;
    this.nextId = 1;
    this.waiting = new Map(); // command id -> {resolve, reject, timer}
    this.stopped = false;
    this.lastHeard = Date.now();
    this.fatal = '';
  }

  url() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    let u = `${proto}//${location.host}/ws?v=${PROTOCOL}`;
    if (this.csrf) u += `&csrf=${encodeURIComponent(this.csrf)}`;
    return u;
  }

  start() {
    this.stopped = false;
    this.open();
    this.heartbeat = setInterval(() => this.beat(), 15000);
  }

  stop() {
    this.stopped = true;
    clearInterval(this.heartbeat);
    clearTimeout(this.retryTimer);
    if (this.ws) this.ws.close(1000, 'bye');
  }

  open() {
    this.onStatus('connecting');
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onmessage = (ev) => this.receive(ev.data);
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      for (const [, w] of this.waiting) {
        clearTimeout(w.timer);
        w.reject({ code: 'disconnected', message: 'connection lost before the answer came' });
      }
      this.waiting.clear();
      if (this.stopped) return;
      if (ev.code === 1002) {
        this.fatal = ev.reason || 'protocol version not supported';
      }
      this.onStatus('disconnected', ev.reason || '');
      const delay = Math.min(10000, 500 * 2 ** this.retries) * (0.75 + Math.random() / 2);
      this.retries = Math.min(this.retries + 1, 5);
      this.retryTimer = setTimeout(() => this.open(), delay);
    };
  }

  beat() {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    if (Date.now() - this.lastHeard > 45000) {
      this.ws.close(4000, 'no answer'); // a dead connection: start again
      return;
    }
    this.send({ v: PROTOCOL, type: 'ping', id: 'ping' });
  }

  send(obj) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(obj));
    return true;
  }

  receive(text) {
    this.lastHeard = Date.now();
    let m;
    try {
      m = JSON.parse(text);
    } catch (e) {
      return;
    }
    if (m.v !== PROTOCOL) {
      this.fatal = `server speaks protocol ${m.v}, this page ${PROTOCOL}: reload the page`;
      this.onStatus('error', this.fatal);
      return;
    }
    if (m.type === 'snapshot') {
      this.seq = m.seq;
      this.retries = 0;
      this.fatal = '';
      this.onStatus('live');
      this.onSnapshot(m.data, m);
      return;
    }
    if (m.seq > 0) {
      if (this.seq && m.seq !== this.seq + 1) {
        // Missed something: a fresh snapshot puts it right.
        this.ws.close(4001, 'gap');
        return;
      }
      this.seq = m.seq;
    } else if (m.id && this.waiting.has(m.id)) {
      const w = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      clearTimeout(w.timer);
      if (m.type === 'ack') w.resolve(m.data || {});
      else w.reject(m.data || { code: 'error', message: 'failed' });
    }
    if (m.type !== 'pong') this.onMessage(m);
  }

  // command sends {name, …} and resolves with the ack's data or rejects
  // with the error's data ({code, message}).
  command(data) {
    return new Promise((resolve, reject) => {
      const id = `c${this.nextId++}`;
      if (!this.send({ v: PROTOCOL, type: 'command', id, data })) {
        reject({ code: 'disconnected', message: 'not connected to the server' });
        return;
      }
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject({ code: 'timeout', message: 'no answer from the server' });
      }, 15000);
      this.waiting.set(id, { resolve, reject, timer });
    });
  }
}

// el builds an element: el('div', {class: 'x', text: 'hi'}, child…).
export function el(tag, attrs = {}, ...children) {
  const svg = ['svg', 'g', 'circle', 'line', 'rect', 'text', 'path', 'polyline'].includes(tag);
  const e = svg ? document.createElementNS('http://www.w3.org/2000/svg', tag) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'text') e.textContent = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

export const SIDE_NAMES = { S: 'South', E: 'East', N: 'North', W: 'West' };

// teamName is the team's name, or its players' names.
export function teamName(state, t) {
  const team = state.teams && state.teams[t];
  if (!team) return `Team ${t + 1}`;
  if (team.name) return team.name;
  if (team.players && team.players.length) return team.players.join(' & ');
  const ps = (state.players || []).filter((p) => p.team === t).map((p) => p.name);
  return ps.length ? ps.join(' & ') : `Team ${t + 1}`;
}

export function playerAt(state, seat) {
  return (state.players || []).find((p) => p.seat === seat);
}

export function turnTeam(state) {
  const p = playerAt(state, state.turn);
  return p ? p.team : -1;
}

export function queenText(state) {
  const q = state.queen || {};
  const who = q.team >= 0 ? teamName(state, q.team) : '';
  switch (q.status) {
    case 'awaiting_cover': return `Queen pocketed · ${who} to cover`;
    case 'awaiting_placement': return 'Queen to be replaced';
    case 'covered': return `Queen covered by ${who}`;
    default: return 'Queen on the board';
  }
}

function count(n, one, many) { return `${n} ${n === 1 ? one : many}`; }

// strokeText describes a stroke outcome in words.
export function strokeText(s) {
  const p = s.pocketed || {};
  const parts = [];
  if (p.white) parts.push(count(p.white, 'white', 'whites'));
  if (p.black) parts.push(count(p.black, 'black', 'blacks'));
  if (p.queen) parts.push('the queen');
  if (p.striker) parts.push('the striker');
  let t = parts.length ? `pocketed ${parts.join(', ')}` : 'pocketed nothing';
  if (s.overboard && s.overboard.length) t += `; overboard ${s.overboard.join(', ')}`;
  if (s.fouls && s.fouls.length) t += `; foul ${s.fouls.join(', ')}`;
  return `${s.player || s.seat}: ${t}`;
}

// describe turns an event message into one line for event lists.
export function describe(m) {
  const d = m.data || {};
  switch (m.type) {
    case 'stroke': return strokeText(d) + (d.pending ? ` (awaiting umpire: ${d.pending})` : '');
    case 'foul': return d.heading ? `Foul: ${d.heading}${d.source === 'umpire' ? ' (umpire)' : ''}`
      : `Foul ${d.code} by ${d.seat}${d.source === 'umpire' ? ' (umpire)' : ''}${d.evidence && d.evidence.note ? ': ' + d.evidence.note : ''}`;
    case 'pending': return `Awaiting umpire (${d.id}): ${d.heading || d.summary}`;
    case 'evidence': return `Evidence ${d.status}: ${d.heading || d.id}`;
    case 'replay': return 'Replay on the stream';
    case 'decided': return `${d.id} ${d.decision}${d.by ? ' by ' + d.by : ''}${d.note ? ': ' + d.note : ''}`;
    case 'calibration': return `Calibration ${d.status}${d.quality ? ` (quality ${Math.round(d.quality * 100)}%)` : ''}${d.message ? ': ' + d.message : ''}`;
    case 'camera': return `Camera ${d.status}${d.message ? ': ' + d.message : ''}`;
    case 'notice': return d.text;
    default: return m.type;
  }
}

export function clock(t) {
  const d = new Date(t);
  return isNaN(d) ? '' : d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

// drawBoard draws the board markings (from /api/board) into an <svg> and
// returns the layer to draw pieces in. Board millimetres, y down.
export function drawBoard(svg, b) {
  const span = b.half + b.frame;
  svg.setAttribute('viewBox', `${-span} ${-span} ${2 * span} ${2 * span}`);
  svg.replaceChildren();
  const mark = { stroke: '#3b2a1a', fill: 'none' };
  svg.append(el('rect', { x: -span, y: -span, width: 2 * span, height: 2 * span, rx: 20, class: 'frame' }));
  svg.append(el('rect', { x: -b.half, y: -b.half, width: 2 * b.half, height: 2 * b.half, class: 'surface' }));
  const g = el('g', { class: 'markings', ...mark });
  for (const l of b.rear_lines) g.append(el('line', { x1: l[0][0], y1: l[0][1], x2: l[1][0], y2: l[1][1], 'stroke-width': b.rear_width }));
  for (const l of b.front_lines) g.append(el('line', { x1: l[0][0], y1: l[0][1], x2: l[1][0], y2: l[1][1], 'stroke-width': b.front_width }));
  for (const c of b.base_circles) {
    g.append(el('circle', { cx: c.c[0], cy: c.c[1], r: c.r, 'stroke-width': 1 }));
    if (b.core_radius) g.append(el('circle', { cx: c.c[0], cy: c.c[1], r: b.core_radius, class: 'core' }));
  }
  for (const a of b.arrows || []) g.append(el('line', { x1: a[0][0], y1: a[0][1], x2: a[1][0], y2: a[1][1], 'stroke-width': 1.5 }));
  g.append(el('circle', { cx: 0, cy: 0, r: b.outer_circle.r, 'stroke-width': 1.5 }));
  g.append(el('circle', { cx: 0, cy: 0, r: b.centre_circle.r, class: 'core' }));
  svg.append(g);
  b.pockets.forEach((p, i) => svg.append(el('circle', { cx: p.c[0], cy: p.c[1], r: p.r, class: 'pocket', 'data-pocket': b.pocket_names[i] })));
  // Seat letters just outside each side.
  const off = b.half + b.frame / 2;
  const seats = { S: [0, off], E: [off, 0], N: [0, -off], W: [-off, 0] };
  for (const [s, [x, y]] of Object.entries(seats)) {
    svg.append(el('text', { x, y, class: 'seat', 'data-seat': s, 'text-anchor': 'middle', 'dominant-baseline': 'middle', text: s }));
  }
  const highlights = el('g', { class: 'highlights' });
  const pieces = el('g', { class: 'pieces' });
  svg.append(pieces, highlights);
  return { pieces, highlights, radius: b.radius };
}

const ON_BOARD = new Set(['rest', 'moving', 'held', '']);

// drawPieces replaces the piece layer's discs.
export function drawPieces(layer, pieces) {
  const nodes = [];
  for (const p of pieces || []) {
    if (!ON_BOARD.has(p.state || '')) continue;
    const r = layer.radius[p.piece] || 15.9;
    nodes.push(el('g', { class: `piece ${p.piece} ${p.state || ''}`, 'data-id': p.id },
      el('circle', { cx: p.mm[0], cy: p.mm[1], r }),
      el('text', { x: p.mm[0], y: p.mm[1], 'text-anchor': 'middle', 'dominant-baseline': 'central', text: p.id })));
  }
  layer.pieces.replaceChildren(...nodes);
}

// drawHighlights rings the given positions (foul evidence).
export function drawHighlights(layer, positions) {
  layer.highlights.replaceChildren(...(positions || []).map((p) =>
    el('circle', { cx: p.mm[0], cy: p.mm[1], r: (layer.radius[p.piece] || 16) + 7, class: 'evidence' })));
}
