// The replay scene (/overlay/replay): plays the clip of a replay message
// (the last settled foul or pocketing, asked for by the umpire) and hides
// itself when the clip ends. ?rate=0.5 sets the speed (default: the
// message's, else 0.5).
import { Feed } from '/static/boardcam.js';

const $ = (id) => document.getElementById(id);
const q = new URLSearchParams(location.search);
const forcedRate = Number(q.get('rate')) || 0;
const video = $('clip');
let playing = null;

function play(r) {
  const m = r.media || {};
  if (!m.clip) return;
  playing = m;
  $('heading').textContent = m.heading || '';
  video.src = m.clip;
  video.playbackRate = forcedRate || r.rate || 0.5;
  video.defaultPlaybackRate = video.playbackRate;
  $('scene').hidden = false;
  video.play().catch(() => { /* autoplay is allowed for muted video */ });
}

video.addEventListener('ended', () => {
  setTimeout(() => { $('scene').hidden = true; playing = null; }, 1500);
});

const feed = new Feed({
  onSnapshot: () => {},
  onMessage: (m) => { if (m.type === 'replay') play(m.data); },
});
feed.start();
window.boardcamFeed = feed; // for debugging and the browser tests
window.boardcamReplay = () => playing;
