// The umpire console: login, live board diagram, pending decisions,
// manual fouls, "if demanded" points, undo, start match and manual
// calibration. Every change goes to the server as a websocket command.
import {
  Feed, el, teamName, turnTeam, playerAt, queenText, describe, clock,
  drawBoard, drawPieces, drawHighlights, SIDE_NAMES,
} from '/static/boardcam.js';

const $ = (id) => document.getElementById(id);
let session = null;
let feed = null;
let boardInfo = null;
let layer = null;
let snap = null;
let state = null;
let calibration = null;
let pending = [];
let toastTimer = 0;

function toast(text, kind) {
  const t = $('toast');
  t.textContent = text;
  t.className = `show ${kind || ''}`;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { t.className = ''; }, kind === 'bad' ? 8000 : 4000);
}

function csrfHeaders() {
  return { 'X-CSRF-Token': session ? session.csrf || '' : '' };
}

async function fetchJSON(url, opts) {
  const r = await fetch(url, opts);
  let body = {};
  try { body = await r.json(); } catch (e) { /* not JSON */ }
  if (!r.ok) throw new Error(body.error || `${r.status} ${r.statusText}`);
  return body;
}

// ---- login ---------------------------------------------------------------

function showLogin(message) {
  if (feed) { feed.stop(); feed = null; }
  $('console').hidden = true;
  $('logout').hidden = true;
  $('expires').textContent = '';
  $('login').hidden = false;
  $('login-error').textContent = message || '';
  const enabled = !session || session.login_enabled;
  $('password').disabled = !enabled;
  $('login-form').querySelector('button').disabled = !enabled;
  if (!enabled) $('login-error').textContent = 'No umpire password is configured on this boardcam: the console is read-only.';
  $('password').focus();
}

$('login-form').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  $('login-error').textContent = '';
  try {
    session = await fetchJSON('/api/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ password: $('password').value }),
    });
    $('password').value = '';
    startConsole();
  } catch (e) {
    $('login-error').textContent = e.message;
  }
});

$('logout').addEventListener('click', async () => {
  try {
    await fetchJSON('/api/logout', { method: 'POST', headers: csrfHeaders() });
  } catch (e) { /* gone anyway */ }
  session = { login_enabled: true, logged_in: false };
  showLogin('Logged out.');
});

// ---- commands ------------------------------------------------------------

async function run(cmd, done) {
  if (!feed) return;
  try {
    const ack = await feed.command(cmd);
    toast(ack.message || `${cmd.name}: done`, 'good');
    if (done) done();
  } catch (err) {
    if (err.code === 'session_expired' || err.code === 'unauthorized') {
      session = await fetchJSON('/api/session').catch(() => null);
      showLogin('Your session has ended: log in again.');
      return;
    }
    toast(err.message || String(err), 'bad');
  }
}

function ask(question) { return window.confirm(question); }

$('undo').addEventListener('click', () => { if (ask('Undo the last event?')) run({ name: 'undo' }); });
$('replay').addEventListener('click', () => { if (ask('Replay the current board?')) run({ name: 'replay_board' }); });
$('next').addEventListener('click', () => { if (ask('Start the next board?')) run({ name: 'next_board' }); });

$('foul-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  const cmd = { name: 'foul', seat: $('foul-seat').value, code: $('foul-code').value };
  const note = $('foul-note').value.trim();
  if (note) cmd.note = note;
  run(cmd, () => { $('foul-note').value = ''; });
});

$('demand-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  run({ name: 'demand', team: Number($('demand-team').value), points: Number($('demand-points').value) });
});

$('concede-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  const team = Number($('concede-team').value);
  if (ask(`${teamName(state, team)} concede the match?`)) run({ name: 'concede', team });
});

// ---- start match ---------------------------------------------------------

function seatSelect(value) {
  const s = el('select', { class: 'seat' });
  for (const k of ['S', 'E', 'N', 'W']) s.append(el('option', { value: k, text: `${k} (${SIDE_NAMES[k]})`, selected: k === value }));
  return s;
}

function playerRows() {
  const doubles = $('start-doubles').checked;
  const defaults = doubles
    ? [['S', 0], ['E', 1], ['N', 0], ['W', 1]]
    : [['S', 0], ['N', 1]];
  const box = $('start-players');
  box.replaceChildren(...defaults.map(([seat, team], i) => el('div', { class: 'player' },
    el('input', { class: 'pname', placeholder: `player ${i + 1}`, required: true, maxlength: 40, 'aria-label': `player ${i + 1} name` }),
    seatSelect(seat),
    el('span', { class: 'muted', text: `team ${team + 1}` }),
  )));
  box.querySelectorAll('.player').forEach((row, i) => { row.dataset.team = String(defaults[i][1]); });
  const b = $('start-breaker');
  b.replaceChildren(...defaults.map(([seat]) => el('option', { value: seat, text: seat })));
}
$('start-doubles').addEventListener('change', playerRows);

$('start-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  const players = [...$('start-players').querySelectorAll('.player')].map((row) => ({
    name: row.querySelector('.pname').value.trim(),
    seat: row.querySelector('.seat').value,
    team: Number(row.dataset.team),
  }));
  const match = { profile: $('start-profile').value, doubles: $('start-doubles').checked, players, breaker: $('start-breaker').value };
  if (state && state.board > 0 && !state.match_over && !ask('A match is in progress. Start a new one?')) return;
  run({ name: 'start_match', match }, () => { $('start').open = false; });
});

// ---- calibration ---------------------------------------------------------

let still = null;
let corners = [];
const CORNER_NAMES = ['NW', 'NE', 'SE', 'SW'];

function drawCorners() {
  const svg = $('still-marks');
  if (!still) return;
  svg.setAttribute('viewBox', `0 0 ${still.width} ${still.height}`);
  const nodes = [];
  if (calibration && calibration.corners_px && calibration.corners_px.length === 4) {
    const pts = [...calibration.corners_px, calibration.corners_px[0]].map((p) => p.join(',')).join(' ');
    nodes.push(el('polyline', { points: pts, class: 'current' }));
  }
  if (corners.length > 1) {
    const pts = (corners.length === 4 ? [...corners, corners[0]] : corners).map((p) => p.join(',')).join(' ');
    nodes.push(el('polyline', { points: pts }));
  }
  const r = Math.max(6, still.width / 120);
  corners.forEach((p, i) => {
    nodes.push(el('circle', { cx: p[0], cy: p[1], r }));
    nodes.push(el('text', { x: p[0] + r * 1.5, y: p[1] - r * 1.5, 'font-size': r * 3, text: CORNER_NAMES[i] }));
  });
  svg.replaceChildren(...nodes);
  $('still-send').disabled = corners.length !== 4;
  $('still-clear').disabled = corners.length === 0;
  $('still-hint').textContent = corners.length < 4 ? `click ${CORNER_NAMES[corners.length]}` : 'ready';
}

$('still-take').addEventListener('click', async () => {
  try {
    still = await fetchJSON('/api/still', { method: 'POST', headers: csrfHeaders() });
    corners = [];
    $('still-img').src = still.url;
    $('still-box').hidden = false;
    drawCorners();
  } catch (e) {
    toast(`still: ${e.message}`, 'bad');
  }
});

$('still-img').addEventListener('click', (ev) => {
  if (!still || corners.length >= 4) return;
  const img = ev.currentTarget;
  const x = (ev.offsetX / img.clientWidth) * still.width;
  const y = (ev.offsetY / img.clientHeight) * still.height;
  corners.push([Math.round(x * 10) / 10, Math.round(y * 10) / 10]);
  drawCorners();
});

$('still-clear').addEventListener('click', () => { corners = []; drawCorners(); });
$('still-send').addEventListener('click', () => {
  run({ name: 'calibrate', still: still.id, corners_px: corners }, () => { corners = []; drawCorners(); });
});

// ---- rendering -----------------------------------------------------------

function options(select, items, keep) {
  const old = select.value;
  select.replaceChildren(...items.map(([value, text]) => el('option', { value, text })));
  if (keep && items.some(([v]) => v === old)) select.value = old;
}

function renderState(st) {
  state = st;
  const turn = turnTeam(st);
  for (const t of [0, 1]) {
    const team = st.teams[t];
    $(`name${t}`).textContent = teamName(st, t);
    $(`score${t}`).textContent = String(team.score);
    $(`side${t}`).querySelector('.coin').className = `coin ${team.colour || ''}`;
    $(`side${t}`).classList.toggle('turn', !st.match_over && turn === t);
  }
  $('boardno').textContent = st.match_over
    ? (st.winner >= 0 ? `Match won by ${teamName(st, st.winner)}` : 'Match over')
    : (st.board > 0 ? `Board ${st.board}${st.breaking ? ' · break' : ''}` : 'No match');
  const p = playerAt(st, st.turn);
  $('turn').textContent = st.board > 0 && p ? `Turn: ${p.name} (${st.turn})` : '';
  $('queen').textContent = st.board > 0 ? queenText(st) : '';
  options($('foul-seat'), (st.players || []).map((pl) => [pl.seat, `${pl.seat} · ${pl.name}`]), true);
  const teams = [0, 1].map((t) => [String(t), teamName(st, t)]);
  options($('concede-team'), teams, true);
  // "If demanded" points go to the winner of the board just finished.
  const boards = st.boards || [];
  const last = boards[boards.length - 1];
  options($('demand-team'), teams, false);
  if (last && last.winner >= 0) $('demand-team').value = String(last.winner);
}

function showFoulRule() {
  const f = ((snap && snap.profile && snap.profile.fouls) || []).find((x) => x.code === $('foul-code').value);
  $('foul-rule').textContent = f && f.rule ? f.rule : '';
}
$('foul-code').addEventListener('change', showFoulRule);

function renderProfile(profile, profiles) {
  options($('foul-code'), ((profile && profile.fouls) || []).map((f) => [f.code, f.text ? `${f.code}: ${f.text}` : f.code]), true);
  // The rule reference of the chosen foul, under the selector.
  showFoulRule();
  options($('start-profile'), (profiles || []).map((p) => [p.name, p.title ? `${p.name}: ${p.title}` : p.name]), true);
  if (profile && profile.name) $('start-profile').value = profile.name;
}

function pill(id, label, status, good) {
  const e = $(id);
  e.textContent = `${label} ${status || '–'}`;
  e.className = `pill ${good ? 'ok' : 'bad'}`;
}

function renderCamera(c) { pill('camera', 'camera', c.status, c.status === 'ok'); }

// The analysis keeping up: a pill, and the runs of frames it missed while
// pieces moved as an alert until the umpire hides it (a new run shows it
// again).
let missedSeen = 0;
let missedHidden = 0;
function renderAnalysis(a) {
  if (!a) return;
  const counts = `${a.dropped || 0} dropped, ${a.decimated || 0} left out in motion, ${a.skipped_at_rest || 0} left out at rest, ${a.unanalysable || 0} unanalysable`;
  pill('analysis', 'analysis', a.status, a.status === 'ok');
  $('analysis').title = `frames ${counts}; ${a.backlog || 0} waiting`;
  const missed = a.missed || [];
  const last = missed.length ? missed[missed.length - 1].before : 0;
  missedSeen = last;
  $('missed-list').replaceChildren(...missed.map((m) => el('li', { text: m.reason })));
  $('missed').hidden = !missed.length || last <= missedHidden;
}
$('missed-hide').addEventListener('click', () => { missedHidden = missedSeen; $('missed').hidden = true; });
function renderCalibration(c) {
  calibration = c;
  pill('calib', 'calibration', c.status, c.status === 'ok' || c.status === 'manual');
  drawCorners();
}

// The "Confirm all clean strokes" button: ordinary strokes (no foul, no
// doubt) held in confirm mode, when more than one waits.
function cleanPending() { return pending.filter((p) => p.clean && !p.queued); }
$('confirm-clean').addEventListener('click', async () => {
  const clean = cleanPending();
  if (!clean.length || !feed) return;
  let done = 0;
  for (const p of clean) {
    try { await feed.command({ name: 'confirm', pending: p.id }); done++; } catch (err) { toast(`${p.id}: ${err.message || err}`, 'bad'); break; }
  }
  if (done) toast(`confirmed ${done} clean stroke${done === 1 ? '' : 's'}`, 'good');
});

// mediaFigure is a card's evidence: the annotated still of the decisive
// frame; a tap plays the clip.
function mediaFigure(m) {
  if (!m) return null;
  if (m.status === 'preparing') return el('div', { class: 'media muted small', text: 'Preparing the picture and the clip…' });
  if (!m.still) return el('div', { class: 'media muted small', text: `No picture: ${m.message || 'not written'}` });
  const img = el('img', { class: 'still', src: m.still, alt: m.heading || 'the decisive frame' });
  const fig = el('figure', { class: m.clip ? 'media playable' : 'media', tabindex: 0, role: m.clip ? 'button' : null, 'aria-label': m.clip ? 'play the clip' : null },
    img, m.clip ? el('span', { class: 'play', 'aria-hidden': 'true', text: '▶' }) : null,
    m.message ? el('figcaption', { class: 'muted small', text: m.message }) : null);
  if (m.clip) {
    fig.addEventListener('click', () => openPlayer(m));
    fig.addEventListener('keydown', (ev) => { if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); openPlayer(m); } });
  }
  return fig;
}

// The clip player: slow motion and frame stepping.
let playerMedia = null;
function openPlayer(m) {
  playerMedia = m;
  const v = $('player-video');
  $('player-title').textContent = m.heading || 'Clip';
  v.src = m.clip;
  v.playbackRate = Number($('player-rate').value) || 0.5;
  $('player').hidden = false;
  v.play().catch(() => { /* paused until a tap */ });
}
function stepFrames(n) {
  const v = $('player-video');
  v.pause();
  const fps = (playerMedia && playerMedia.fps) || 30;
  v.currentTime = Math.max(0, Math.min(v.duration || 0, v.currentTime + n / fps));
}
$('player-close').addEventListener('click', () => { const v = $('player-video'); v.pause(); v.removeAttribute('src'); v.load(); $('player').hidden = true; });
$('player-rate').addEventListener('change', () => { $('player-video').playbackRate = Number($('player-rate').value) || 1; });
$('player-back').addEventListener('click', () => stepFrames(-1));
$('player-fwd').addEventListener('click', () => stepFrames(1));
$('player-play').addEventListener('click', () => { const v = $('player-video'); if (v.paused) v.play(); else v.pause(); });
$('player-video').addEventListener('ratechange', () => { $('player-rate').value = String($('player-video').playbackRate); });
document.addEventListener('keydown', (ev) => {
  if ($('player').hidden || ev.target.tagName === 'INPUT' || ev.target.tagName === 'SELECT') return;
  if (ev.key === ',' || ev.key === 'ArrowLeft') { ev.preventDefault(); stepFrames(-1); }
  if (ev.key === '.' || ev.key === 'ArrowRight') { ev.preventDefault(); stepFrames(1); }
  if (ev.key === 'Escape') $('player-close').click();
});

// Replay on the stream: the overlay's replay scene plays the last settled
// foul or pocketing.
async function replayOnStream() {
  try {
    await fetchJSON('/api/replay', { method: 'POST', headers: csrfHeaders() });
    toast('replaying on the stream', 'good');
  } catch (e) { toast(`replay: ${e.message}`, 'bad'); }
}
$('stream-replay').addEventListener('click', replayOnStream);
document.addEventListener('keydown', (ev) => {
  if (ev.key !== 'r' || ev.ctrlKey || ev.metaKey || ev.altKey || !$('player').hidden || !feed) return;
  if (['INPUT', 'SELECT', 'TEXTAREA'].includes(ev.target.tagName)) return;
  replayOnStream();
});

function renderPending() {
  const clean = cleanPending();
  $('confirm-clean').hidden = clean.length < 2;
  $('confirm-clean').textContent = `Confirm all clean strokes (${clean.length})`;
  const box = $('pending');
  if (!pending.length) {
    box.replaceChildren(el('p', { class: 'muted', text: 'Nothing pending.' }));
    drawHighlights(layer, []);
    return;
  }
  box.replaceChildren(...pending.map((p) => {
    const evidence = (p.fouls || []).flatMap((f) => (f.evidence && f.evidence.positions) || []);
    const doubts = p.doubts || [];
    // An uncertain decision: the camera's best guess, the reasons, and a
    // field to enter what happened instead (stroke-log lines, ";" between).
    const fix = el('input', { class: 'notation', value: p.guess || '', placeholder: 'what happened, e.g. S w q', 'aria-label': `correction of ${p.id}` });
    const card = el('div', { class: doubts.length ? 'card uncertain' : 'card', 'data-pending': p.id },
      el('h3', { text: p.heading || p.summary }),
      mediaFigure(p.media),
      p.heading ? el('details', { class: 'summary' }, el('summary', { text: 'Details' }), el('div', { class: 'muted small', text: p.summary })) : null,
      doubts.length ? el('ul', { class: 'doubts' }, ...doubts.map((x) => el('li', { 'data-kind': x.kind, text: x.reason }))) : null,
      doubts.length ? el('div', {}, 'Best guess: ', el('span', { class: 'guess', text: p.guess || 'nothing' })) : null,
      p.queued ? el('div', { class: 'muted', text: 'Applies itself once the decisions before it are settled.' }) : null,
      el('ul', {}, ...(p.fouls || []).map((f) => el('li', {},
        el('b', { text: f.heading || f.code }), f.heading ? '' : ` by ${f.seat}`,
        f.rule ? el('span', { class: 'muted', text: ` · ${f.rule}` }) : null,
        f.evidence && f.evidence.note ? el('div', { text: f.evidence.note }) : null,
        evidenceLine(f.evidence)))),
      p.if_confirmed ? el('div', { class: 'choice', text: `Confirm: ${p.if_confirmed}` }) : null,
      p.if_overruled ? el('div', { class: 'choice', text: `Overrule: ${p.if_overruled}` }) : null,
      el('div', { class: 'row' },
        el('button', { type: 'button', class: 'primary confirm', text: 'Confirm', onclick: () => run({ name: 'confirm', pending: p.id }) }),
        el('button', { type: 'button', class: 'overrule', text: 'Overrule', onclick: () => run({ name: 'overrule', pending: p.id }) })),
      el('div', { class: 'row correct' }, fix,
        el('button', { type: 'button', class: 'correct', text: 'Correct', title: 'apply these stroke-log lines instead (empty: nothing happened)', onclick: () => run({ name: 'correct', pending: p.id, notation: fix.value.trim() }) })));
    card.addEventListener('mouseenter', () => drawHighlights(layer, evidence));
    return card;
  }));
  // Show the oldest decision's evidence until the umpire points elsewhere.
  drawHighlights(layer, (pending[0].fouls || []).flatMap((f) => (f.evidence && f.evidence.positions) || []));
}

// evidenceLine shows the measurement behind a call, if any.
function evidenceLine(e) {
  if (!e) return null;
  const parts = [];
  if (e.marking) parts.push(`against ${e.marking}`);
  if (typeof e.margin_mm === 'number') parts.push(`${e.margin_mm.toFixed(1)} mm on the foul side`);
  if (e.confidence) parts.push(`confidence ${Math.round(e.confidence * 100)}%`);
  if (e.contacts && e.contacts.length) parts.push(`contacts ${e.contacts.join(' → ')}`);
  if (!parts.length) return null;
  return el('div', { class: e.low_confidence ? 'muted low' : 'muted', text: parts.join(' · ') + (e.low_confidence ? ' (within tolerance: look closely)' : '') });
}

function addEvent(m) {
  const list = $('events');
  list.prepend(el('li', { class: m.type }, el('span', { class: 't', text: clock(m.t) }), describe(m)));
  while (list.children.length > 200) list.lastChild.remove();
}

function onSnapshot(s) {
  snap = s;
  // The snapshot sent on connect says who we are; a resync broadcast
  // (a new match) does not, and changes nothing about it.
  if (s.you && s.you.role !== 'umpire') {
    fetchJSON('/api/session').then((ss) => { session = ss; showLogin('Your session has ended: log in again.'); })
      .catch(() => showLogin('Your session has ended: log in again.'));
    return;
  }
  if (s.you && s.you.expires) $('expires').textContent = `session until ${clock(s.you.expires)}`;
  renderState(s.state);
  renderProfile(s.profile, s.profiles);
  renderCamera(s.camera);
  renderAnalysis(s.analysis);
  renderCalibration(s.calibration);
  drawPieces(layer, s.pieces.pieces);
  pending = s.pending || [];
  renderPending();
  $('events').replaceChildren();
  for (const e of s.events || []) if (e.type !== 'evidence') addEvent(e);
}

function onMessage(m) {
  const d = m.data;
  switch (m.type) {
    case 'state': renderState(d); break;
    case 'pieces': drawPieces(layer, d.pieces); break;
    case 'camera': renderCamera(d); addEvent(m); break;
    case 'analysis': renderAnalysis(d); break;
    case 'calibration': renderCalibration(d); addEvent(m); break;
    case 'pending':
      // a decision sent again (a later stroke's evidence folded into it) keeps its place
      pending = pending.some((p) => p.id === d.id) ? pending.map((p) => (p.id === d.id ? { ...d, media: d.media || p.media } : p)) : pending.concat([d]);
      renderPending();
      addEvent(m);
      break;
    case 'decided':
      pending = pending.filter((p) => p.id !== d.id);
      renderPending();
      addEvent(m);
      break;
    case 'stroke': case 'foul': case 'notice': addEvent(m); break;
    case 'evidence':
      pending = pending.map((p) => (p.id === d.id ? { ...p, media: d } : p));
      if (pending.some((p) => p.id === d.id)) renderPending();
      break;
    default: break;
  }
}

function startConsole() {
  $('login').hidden = true;
  $('console').hidden = false;
  $('logout').hidden = false;
  layer = drawBoard($('diagram'), boardInfo);
  playerRows();
  feed = new Feed({
    csrf: session.csrf,
    onSnapshot,
    onMessage,
    onStatus: (s, why) => {
      const e = $('conn');
      e.textContent = s === 'live' ? 'live' : (why ? `${s}: ${why}` : s);
      e.className = `pill ${s === 'live' ? 'ok' : 'bad'}`;
    },
  });
  feed.start();
  window.boardcamFeed = feed; // for debugging and the browser tests
}

async function init() {
  try {
    boardInfo = await fetchJSON('/api/board');
    session = await fetchJSON('/api/session');
  } catch (e) {
    $('login').hidden = false;
    $('login-error').textContent = `cannot reach boardcam: ${e.message}`;
    return;
  }
  if (session.logged_in) startConsole();
  else showLogin();
}

init();
