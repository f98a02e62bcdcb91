// The overlay: subscribes to the websocket and shows players, scores, the
// board number, the queen, the last event and an animated foul alert.
import { Feed, teamName, turnTeam, queenText, strokeText, playerAt } from '/static/boardcam.js';

const q = new URLSearchParams(location.search);
const pick = (name, allowed, def) => (allowed.includes(q.get(name)) ? q.get(name) : def);
document.documentElement.classList.add(
  `theme-${pick('theme', ['dark', 'light'], 'dark')}`,
  `corner-${pick('corner', ['tl', 'tr', 'bl', 'br'], 'tl')}`,
  `size-${pick('size', ['s', 'm', 'l'], 'm')}`);

const $ = (id) => document.getElementById(id);
const bug = $('bug');
let state = null;
let foulTimer = 0;
const FOUL_MS = 6000;

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
  $('foul-text').textContent = `${f.text || f.code.replace(/_/g, ' ')}${p ? ' · ' + p.name : ' · ' + f.seat}`;
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
