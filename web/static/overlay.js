// The overlay: subscribes to the websocket and shows players, scores, the
// board number, the queen, the last event and an animated foul alert.
import { Feed, teamName, turnTeam, queenText, strokeText, playerAt } from '/static/boardcam.js';

const q = new URLSearchParams(location.search);
const pick = (name, allowed, def) => (allowed.includes(q.get(name)) ? q.get(name) : def);
document.documentElement.classList.add(
  `theme-${pick('theme', ['dark', 'light'], 'dark')}`,
  `corner-${pick('corner', ['tl', 'tr', 'bl', 'br'], 'tl')}`,
  `size-${pick('size', ['s', 'm', 'l'], 'm')}`);

// Player colours and a logo from the query string (a colour is any CSS
// colour; the logo must come from this boardcam: the page allows only
// its own pictures).
const colour = (v) => (v && /^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{3,20}|rgba?\([0-9., %]+\))$/.test(v) ? v : '');
for (const t of [0, 1]) {
  const c = colour(q.get(`c${t}`));
  if (c) document.documentElement.style.setProperty(`--player${t}`, c);
}

const $ = (id) => document.getElementById(id);
const logo = q.get('logo');
if (logo && logo.startsWith('/') && !logo.startsWith('//')) {
  $('logo').src = logo;
  $('logo').hidden = false;
}
const bug = $('bug');
let state = null;
let foulTimer = 0;
const FOUL_MS = 6000;

// The match's target and, in timed formats, the time left.
let match = null;
let clockTimer = 0;
function renderMatch(m) {
  match = m || null;
  $('target').textContent = match && match.target ? `to ${match.target}` : (match && match.boards ? `${match.boards} boards` : '');
  clearInterval(clockTimer);
  tick();
  if (match && match.time_limit_s && match.started) clockTimer = setInterval(tick, 1000);
}
function tick() {
  const c = $('clock');
  if (!match || !match.time_limit_s || !match.started) { c.textContent = ''; return; }
  const left = Math.max(0, Math.round(match.time_limit_s - (Date.now() - new Date(match.started).getTime()) / 1000));
  const h = Math.floor(left / 3600), mnt = Math.floor((left % 3600) / 60), sec = left % 60;
  c.textContent = `${h ? h + ':' + String(mnt).padStart(2, '0') : mnt}:${String(sec).padStart(2, '0')} left`;
  c.classList.toggle('low', left < 300);
}

function render(st, animate) {
  const prev = state;
  state = st;
  $('board').textContent = st.board > 0 ? `Board ${st.board}${st.profile ? ' · ' + st.profile : ''}` : 'boardcam';
  const turn = turnTeam(st);
  for (const t of [0, 1]) {
    const team = st.teams[t];
    $(`name${t}`).textContent = teamName(st, t);
    const coin = $(`team${t}`).querySelector('.coin');
    coin.className = `coin ${team.colour || ''}`;
    $(`boards${t}`).textContent = team.boards_won ? `${team.boards_won} ${team.boards_won === 1 ? 'board' : 'boards'}` : '';
    const score = $(`score${t}`);
    const was = score.textContent;
    score.textContent = String(team.score);
    if (animate && was !== score.textContent) {
      score.classList.remove('bump');
      void score.offsetWidth; // restart the animation
      score.classList.add('bump');
    }
    $(`team${t}`).classList.toggle('has-turn', !st.match_over && st.board > 0 && turn === t);
  }
  const queen = $('queen');
  queen.textContent = st.board > 0 ? queenText(st) : '';
  queen.className = `queen ${(st.queen && st.queen.status) || ''}`;
  if (st.match_over) {
    setLast(st.winner >= 0 ? `Match won by ${teamName(st, st.winner)}` : 'Match over', true);
  } else if (prev && (st.boards || []).length > (prev.boards || []).length) {
    const b = st.boards[st.boards.length - 1];
    setLast(b.winner >= 0 ? `Board ${b.board} to ${teamName(st, b.winner)} (+${b.points})` : `Board ${b.board} replayed`, true);
  }
}

function setLast(text, strong) {
  const last = $('last');
  last.textContent = text;
  last.classList.toggle('over', !!strong);
}

function showFoul(f) {
  const p = state ? playerAt(state, f.seat) : null;
  $('foul-text').textContent = f.heading || `${f.text || f.code.replace(/_/g, ' ')}${p ? ' · ' + p.name : ' · ' + f.seat}`;
  const box = $('foul');
  box.hidden = true;
  void box.offsetWidth;
  box.hidden = false;
  clearTimeout(foulTimer);
  foulTimer = setTimeout(() => { box.hidden = true; }, FOUL_MS);
}

const feed = new Feed({
  onStatus: (s) => { bug.dataset.status = s; },
  onSnapshot: (snap) => {
    render(snap.state, false);
    renderMatch(snap.profile);
    const strokes = (snap.events || []).map((e) => (typeof e === 'string' ? JSON.parse(e) : e)).filter((e) => e.type === 'stroke');
    if (strokes.length) setLast(strokeText(strokes[strokes.length - 1].data), false);
    else setLast(snap.state.last || '', false);
  },
  onMessage: (m) => {
    switch (m.type) {
      case 'state': render(m.data, true); break;
      case 'stroke': if (!m.data.pending) setLast(strokeText(m.data), false); break;
      case 'foul': showFoul(m.data); break;
      case 'notice': setLast(m.data.text, false); break;
      default: break;
    }
  },
});
feed.start();
window.boardcamFeed = feed; // for debugging and the browser tests
