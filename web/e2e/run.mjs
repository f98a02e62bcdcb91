// Browser tests of the overlay and the umpire console, in Debian's headless
// Chromium driven by playwright-core. It builds and starts the fake-backed
// server (web/internal/fakeserver), runs the tests in order (they play one
// scripted match), then plays the demo clip through a real `boardcam run`
// and watches the overlay, stops the servers and exits non-zero on any
// failure.
//
//   cd web/e2e && npm ci && node run.mjs
//
// Environment: CHROMIUM (default /usr/bin/chromium), SCREENSHOTS=dir to
// keep screenshots, FAKESERVER=binary to use a server built beforehand.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const PASSWORD = 'umpire-e2e-secret';
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const SHOTS = process.env.SCREENSHOTS || '';
const T = 10000; // ms to wait for anything to show
const DEMO_CLIP = process.env.DEMO_CLIP || path.join(root, 'testdata', 'videos', 'demo.mp4');
const DEMO_LOG = process.env.DEMO_LOG || path.join(root, 'testdata', 'videos', 'demo.log');

// freePort asks the system for a free loopback port.
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function assert(cond, message) {
  if (!cond) throw new Error(message);
}

// ---- the server ------------------------------------------------------------

async function startServer(dir) {
  let bin = process.env.FAKESERVER;
  if (!bin) {
    bin = path.join(dir, 'fakeserver');
    execFileSync('go', ['build', '-o', bin, './web/internal/fakeserver'], { cwd: root, stdio: 'inherit' });
  }
  const proc = spawn(bin, ['-addr', '127.0.0.1:0', '-password', PASSWORD], { stdio: ['ignore', 'pipe', 'inherit'] });
  const base = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('fakeserver did not start within 60 s')), 60000);
    proc.stdout.on('data', (b) => {
      out += b;
      const m = out.match(/listening on (http:\/\/\S+)/);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
    proc.on('exit', (code) => { clearTimeout(timer); reject(new Error(`fakeserver exited (${code})`)); });
  });
  return { proc, base };
}

// ---- the tests -------------------------------------------------------------

const tests = [];
const test = (name, fn) => tests.push({ name, fn });

let base = '';
let browser = null;
let overlay = null; // the overlay page, open through the whole match
let consolePage = null;

// Every page's script errors and console errors (a CSP violation shows up
// there) are collected; the last test fails on any. Refused requests the
// tests make on purpose (401, 403) are expected.
const pageErrors = [];
async function newPage(ctx) {
  const page = await ctx.newPage();
  page.on('pageerror', (e) => pageErrors.push(`${page.url()}: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    if (/Failed to load resource: the server responded with a status of 40[13]/.test(m.text())) return;
    pageErrors.push(`${page.url()}: console: ${m.text()}`);
  });
  return page;
}

async function step(n = 1) {
  let last = null;
  for (let i = 0; i < n; i++) {
    const r = await fetch(`${base}/fake/step`, { method: 'POST' });
    last = await r.json();
    assert(r.ok, `step: ${JSON.stringify(last)}`);
  }
  return last;
}

async function commands() {
  return (await fetch(`${base}/fake/commands`)).json();
}

async function text(page, sel) {
  return (await page.locator(sel).textContent()).trim();
}

async function waitText(page, sel, want) {
  try {
    await page.waitForFunction(([s, w]) => {
      const e = document.querySelector(s);
      return e && e.textContent.trim() === w;
    }, [sel, want], { timeout: T });
  } catch (e) {
    const got = await page.locator(sel).textContent().catch(() => '(none)');
    throw new Error(`${sel}: want "${want}", got "${got && got.trim()}"`);
  }
}

test('overlay is transparent and follows its query options', async () => {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await newPage(ctx);
  await page.goto(`${base}/overlay?theme=light&corner=br&size=l`);
  await waitText(page, '#name0', 'Asha');
  const look = await page.evaluate(() => {
    const html = document.documentElement;
    const bug = document.getElementById('bug').getBoundingClientRect();
    return {
      cls: html.className,
      bg: getComputedStyle(document.body).backgroundColor,
      htmlBg: getComputedStyle(html).backgroundColor,
      right: window.innerWidth - bug.right,
      bottom: window.innerHeight - bug.bottom,
      font: getComputedStyle(html).fontSize,
    };
  });
  assert(look.cls.includes('theme-light') && look.cls.includes('corner-br') && look.cls.includes('size-l'), `classes ${look.cls}`);
  assert(look.bg === 'rgba(0, 0, 0, 0)' && look.htmlBg === 'rgba(0, 0, 0, 0)', `background ${look.bg} / ${look.htmlBg}`);
  assert(look.right > 0 && look.right < 60 && look.bottom > 0 && look.bottom < 60, `not in the bottom-right corner: ${JSON.stringify(look)}`);
  assert(look.font === '28px', `size=l font ${look.font}`);
  await ctx.close();
});

test('overlay shows the score changing as the match is played', async () => {
  const ctx = await browser.newContext({ viewport: { width: 800, height: 400 } });
  overlay = await newPage(ctx);
  await overlay.goto(`${base}/overlay`);
  await waitText(overlay, '#name0', 'Asha');
  await waitText(overlay, '#name1', 'Ravi');
  await waitText(overlay, '#score0', '0');
  await waitText(overlay, '#score1', '0');
  await waitText(overlay, '#board', 'Board 1 · icf');
  assert(await overlay.locator('#team0.has-turn').count() === 1, 'Asha (S) breaks: the turn marker should be on her row');

  await step(1);
  await waitText(overlay, '#last', 'Asha: pocketed 2 whites');
  await step(3); // Asha misses; Ravi pockets the queen
  await waitText(overlay, '#queen', 'Queen pocketed · Ravi to cover');
  assert(await overlay.locator('#team1.has-turn').count() === 1, 'turn marker should move to Ravi');
  await step(3); // covers, B2–B6, then Ravi clears the board
  await waitText(overlay, '#score1', '0');
  const r = await step(1);
  assert(r.score[1] === 11, `fake score ${r.score}`);
  await waitText(overlay, '#score1', '11');
  await waitText(overlay, '#score0', '0');
  await waitText(overlay, '#board', 'Board 2 · icf');
  await waitText(overlay, '#boards1', '1 board');
  await step(5); // board 2 up to Asha's flagged last stroke: pending, score unchanged
  await waitText(overlay, '#queen', 'Queen covered by Asha');
  await waitText(overlay, '#score0', '0');
});

test('console refuses changes without login', async () => {
  const ctx = await browser.newContext({ viewport: { width: 1300, height: 1000 } });
  const page = await newPage(ctx);
  await page.goto(`${base}/umpire`);
  await page.locator('#login-form').waitFor({ state: 'visible', timeout: T });
  assert(await page.locator('#console').isHidden(), 'console controls visible before login');

  // A command over the websocket without a session is refused...
  const reply = await page.evaluate(() => new Promise((resolve) => {
    const ws = new WebSocket(`ws://${location.host}/ws?v=1`);
    ws.onmessage = (ev) => {
      const m = JSON.parse(ev.data);
      if (m.type === 'snapshot') {
        ws.send(JSON.stringify({ v: 1, type: 'command', id: 'x1', data: { name: 'overrule', pending: 'p1' } }));
      } else if (m.id === 'x1') {
        resolve(m);
        ws.close();
      }
    };
    setTimeout(() => resolve(null), 8000);
  }));
  assert(reply && reply.type === 'error' && reply.data.code === 'unauthorized', `reply ${JSON.stringify(reply)}`);

  // ... and so is a still frame, and a wrong password.
  const still = await page.evaluate(async () => (await fetch('/api/still', { method: 'POST' })).status);
  assert(still === 401, `POST /api/still without login: ${still}`);
  await page.fill('#password', 'not-the-password');
  await page.click('#login-form button[type=submit]');
  await waitText(page, '#login-error', 'wrong password');
  assert(await page.locator('#console').isHidden(), 'console shown after a wrong password');

  assert((await commands()).length === 0, 'the backend received a command without login');
  await waitText(overlay, '#score0', '0');
  await ctx.close();
});

test('logged in, an overrule changes the score on the overlay', async () => {
  const ctx = await browser.newContext({ viewport: { width: 1300, height: 1100 } });
  consolePage = await newPage(ctx);
  consolePage.on('dialog', (d) => d.accept());
  await consolePage.goto(`${base}/umpire`);
  await consolePage.fill('#password', PASSWORD);
  await consolePage.click('#login-form button[type=submit]');
  await consolePage.locator('#console').waitFor({ state: 'visible', timeout: T });
  await waitText(consolePage, '#conn', 'live');
  const card = consolePage.locator('#pending [data-pending="p1"]');
  await card.waitFor({ state: 'visible', timeout: T });
  assert((await card.textContent()).includes('placement'), 'pending card does not name the foul');
  // The evidence (the striker) is ringed on the board diagram, and the
  // diagram shows the tracked pieces.
  assert(await consolePage.locator('#diagram .evidence').count() === 1, 'evidence not drawn on the diagram');
  assert(await consolePage.locator('#diagram .piece').count() >= 10, 'pieces not drawn on the diagram');
  if (SHOTS) await consolePage.screenshot({ path: path.join(SHOTS, 'console-pending.png'), fullPage: true });

  await card.locator('button.overrule').click();
  await waitText(overlay, '#score0', '14');
  await waitText(overlay, '#score1', '11');
  await consolePage.locator('#pending [data-pending="p1"]').waitFor({ state: 'detached', timeout: T });
  await waitText(consolePage, '#score0', '14');
  const cmds = await commands();
  assert(cmds.length === 1 && cmds[0].name === 'overrule' && cmds[0].pending === 'p1', `commands ${JSON.stringify(cmds)}`);
});

const bugBox = (page) => page.evaluate(() => {
  const r = document.getElementById('bug').getBoundingClientRect();
  return { x: r.x, y: r.y, w: r.width, h: r.height };
});

test('a manual foul shows the animated alert on the overlay, which keeps its size', async () => {
  const before = await bugBox(overlay);
  await consolePage.selectOption('#foul-seat', 'N');
  await consolePage.selectOption('#foul-code', 'push');
  await consolePage.fill('#foul-note', 'seen by the umpire');
  await consolePage.click('#foul-form button[type=submit]');
  await overlay.locator('#foul').waitFor({ state: 'visible', timeout: T });
  const alert = await text(overlay, '#foul');
  assert(alert.includes('FOUL') && alert.includes('Ravi'), `alert "${alert}"`);
  const anim = await overlay.evaluate(() => getComputedStyle(document.getElementById('foul')).animationName);
  assert(anim.includes('foul-in'), `alert not animated: ${anim}`);
  const during = await bugBox(overlay);
  assert(JSON.stringify(before) === JSON.stringify(during), `the overlay moved or changed size when the foul appeared: ${JSON.stringify(before)} → ${JSON.stringify(during)}`);
  const last = (await commands()).pop();
  assert(last.name === 'foul' && last.seat === 'N' && last.code === 'push' && last.note === 'seen by the umpire', `command ${JSON.stringify(last)}`);
  if (SHOTS) await overlay.screenshot({ path: path.join(SHOTS, 'overlay-foul.png') });
});

test('a command the backend refuses comes back with its reason', async () => {
  // "If demanded" points: the console offers them to the winner of the
  // last board (Asha); for Ravi the backend refuses.
  assert(await consolePage.inputValue('#demand-team') === '0', 'demand form does not preselect the last board\'s winner');
  await consolePage.selectOption('#demand-points', '2');
  await consolePage.click('#demand-form button[type=submit]');
  await waitText(overlay, '#score0', '16');
  const demand = (await commands()).pop();
  assert(demand.name === 'demand' && demand.points === 2 && demand.team === 0, `command ${JSON.stringify(demand)}`);
  await consolePage.selectOption('#demand-team', '1');
  await consolePage.click('#demand-form button[type=submit]');
  await waitText(consolePage, '#toast', 'demand: the "if demanded" points are Asha\'s, not Ravi\'s');
  await waitText(overlay, '#score1', '11');
  // Confirming a decision that no longer exists is refused by the backend.
  const err = await consolePage.evaluate(() => window.boardcamFeed.command({ name: 'confirm', pending: 'p1' }).then(() => null, (e) => e));
  assert(err && err.code === 'command_failed' && err.message.includes('p1'), `error ${JSON.stringify(err)}`);
});

test('undo in the console takes the score back', async () => {
  await consolePage.click('#undo'); // undoes the demanded points (dialog accepted)
  await waitText(overlay, '#score0', '14');
  await waitText(consolePage, '#score0', '14');
});

test('an uncertain decision shows its reasons, and the umpire corrects it', async () => {
  const r = await fetch(`${base}/fake/uncertain`, { method: 'POST' });
  assert(r.ok, `/fake/uncertain: ${r.status}`);
  await consolePage.locator('#missed').waitFor({ state: 'visible', timeout: T });
  assert((await text(consolePage, '#missed-list')).includes('frames 512–530'), 'the alert does not say which frames were missed');
  await waitText(consolePage, '#analysis', 'analysis behind');
  const card = consolePage.locator('#pending [data-pending="p9"]');
  await card.waitFor({ state: 'visible', timeout: T });
  assert(await card.evaluate((e) => e.classList.contains('uncertain')), 'the card is not marked uncertain');
  assert((await card.locator('.doubts').textContent()).includes('W4 moved 120 mm towards NE'), 'no reason on the card');
  assert(await card.locator('input.notation').inputValue() === 'N b', 'the correction does not start from the best guess');
  if (SHOTS) await consolePage.screenshot({ path: path.join(SHOTS, 'console-uncertain.png'), fullPage: true });
  await card.locator('input.notation').fill('N b b');
  await card.locator('button.correct').click();
  await card.waitFor({ state: 'detached', timeout: T });
  const cmd = (await commands()).pop();
  assert(cmd.name === 'correct' && cmd.pending === 'p9' && cmd.notation === 'N b b', `command ${JSON.stringify(cmd)}`);
  await consolePage.click('#missed-hide');
  assert(await consolePage.locator('#missed').isHidden(), 'the alert stays after hiding it');
});

test('manual calibration: four clicks on the still frame', async () => {
  await consolePage.click('#calibration summary');
  await consolePage.click('#still-take');
  const img = consolePage.locator('#still-img');
  await consolePage.waitForFunction(() => {
    const i = document.getElementById('still-img');
    return i.complete && i.naturalWidth > 0;
  }, null, { timeout: T });
  const box = await img.boundingBox();
  const natural = await img.evaluate((i) => [i.naturalWidth, i.naturalHeight]);
  assert(natural[0] === 1280 && natural[1] === 720, `still is ${natural}`);
  // The fake camera's playing surface: a 600 px square centred in the frame.
  const corners = [[340, 60], [940, 60], [940, 660], [340, 660]];
  for (const [x, y] of corners) {
    await img.click({ position: { x: (x * box.width) / natural[0], y: (y * box.height) / natural[1] } });
  }
  await waitText(consolePage, '#still-hint', 'ready');
  await consolePage.click('#still-send');
  await waitText(consolePage, '#calib', 'calibration manual');
  const cmd = (await commands()).pop();
  assert(cmd.name === 'calibrate' && cmd.corners_px.length === 4, `command ${JSON.stringify(cmd)}`);
  cmd.corners_px.forEach(([x, y], i) => {
    assert(Math.abs(x - corners[i][0]) <= 4 && Math.abs(y - corners[i][1]) <= 4, `corner ${i}: ${x},${y} want ${corners[i]}`);
  });
  if (SHOTS) await consolePage.screenshot({ path: path.join(SHOTS, 'console-calibration.png'), fullPage: true });
});

test('starting a new match from the console resets the overlay', async () => {
  await consolePage.click('#start summary');
  await consolePage.selectOption('#start-profile', 'four-break');
  await consolePage.check('#start-doubles');
  const names = ['Anu', 'Bala', 'Chitra', 'Dev'];
  const rows = consolePage.locator('#start-players .player');
  assert(await rows.count() === 4, 'doubles should ask for four players');
  for (let i = 0; i < 4; i++) await rows.nth(i).locator('.pname').fill(names[i]);
  await consolePage.selectOption('#start-breaker', 'E');
  await consolePage.click('#start-form button[type=submit]'); // the "match in progress" dialog is accepted
  await waitText(overlay, '#name0', 'Anu & Chitra');
  await waitText(overlay, '#name1', 'Bala & Dev');
  await waitText(overlay, '#score0', '0');
  await waitText(overlay, '#score1', '0');
  await waitText(overlay, '#board', 'Board 1 · four-break');
  assert(await overlay.locator('#team1.has-turn').count() === 1, 'Bala (E) breaks: the turn marker should be on team 2');
  // The console stays logged in through the resync and shows the new match.
  await waitText(consolePage, '#name0', 'Anu & Chitra');
  assert(await consolePage.locator('#console').isVisible(), 'console left after a new match');
  const cmd = (await commands()).pop();
  assert(cmd.name === 'start_match' && cmd.match.profile === 'four-break' && cmd.match.doubles && cmd.match.breaker === 'E'
    && cmd.match.players.map((p) => `${p.name}:${p.seat}:${p.team}`).join(',') === 'Anu:S:0,Bala:E:1,Chitra:N:0,Dev:W:1', `command ${JSON.stringify(cmd)}`);
});

test('logging out ends the umpire session', async () => {
  await consolePage.click('#logout');
  await consolePage.locator('#login-form').waitFor({ state: 'visible', timeout: T });
  const status = await consolePage.evaluate(async () => (await fetch('/api/still', { method: 'POST' })).status);
  assert(status === 401, `still after logout: ${status}`);
});

// The real thing: boardcam run plays the demo clip through the whole
// pipeline (vision, tracker, referee, rules), picking up the match of
// demo.log as scripts/demo.sh does, every frame analysed (DEMO_SPEED=n
// plays it at n times real time). The overlay, open from the start, shows the resumed score
// and then the score changing when Asha wins board 2 in the video.
test('the demo clip through boardcam run: the overlay shows the score changing as the video plays', async () => {
  const port = await freePort();
  const jdir = mkdtempSync(path.join(tmpdir(), 'boardcam-e2e-journal-'));
  const bin = path.join(jdir, 'boardcam');
  execFileSync('go', ['build', '-o', bin, './cmd/boardcam'], { cwd: root, stdio: 'inherit' });
  // An umpire password, for the console's evidence.
  const hash = execFileSync(bin, ['passwd'], { input: PASSWORD }).toString().trim();
  const cfgFile = path.join(jdir, 'boardcam.yaml');
  writeFileSync(cfgFile, `web:\n  umpire_hash: "${hash}"\n`);
  // Lossless (--no-pace: the reader waits for the analysis), so that what
  // the referee sees does not depend on how busy the test machine is;
  // DEMO_SPEED=n plays at n times real time instead, dropping frames when
  // the analysis falls behind, as a live camera would.
  const pace = process.env.DEMO_SPEED ? ['--speed', String(process.env.DEMO_SPEED)] : ['--no-pace'];
  const proc = spawn(bin, ['run', '--config', cfgFile, '--source', DEMO_CLIP, '--resume', DEMO_LOG, ...pace, '--exit-at-end=false',
    '--lens-file', path.join(root, 'testdata/videos/lenses/cam-0b18d44c3397.lens.json'), // the demo camera's lens, as deploy/demo.yaml
    '--listen', `127.0.0.1:${port}`, '--journal-dir', jdir], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  try {
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`boardcam run did not start within 60 s: ${stderr}`)), 60000);
      proc.stderr.on('data', (b) => {
        stderr += b;
        if (/web server listening/.test(stderr)) { clearTimeout(timer); resolve(); }
      });
      proc.on('exit', (code) => { clearTimeout(timer); reject(new Error(`boardcam run exited (${code}): ${stderr}`)); });
    });
    const demo = `http://127.0.0.1:${port}`;
    const ctx = await browser.newContext({ viewport: { width: 800, height: 400 } });
    const page = await newPage(ctx);
    await page.goto(`${demo}/overlay`);
    // The replay scene, waiting for the umpire, and the console on a
    // phone, logged in.
    const replay = await newPage(await browser.newContext({ viewport: { width: 1280, height: 720 } }));
    await replay.goto(`${demo}/overlay/replay`);
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const umpire = await newPage(phone);
    await umpire.goto(`${demo}/umpire`);
    await umpire.fill('#password', PASSWORD);
    await umpire.click('#login-form button[type=submit]');
    await umpire.locator('#console').waitFor({ state: 'visible', timeout: T });
    // The match sheet downloads from the console (the umpire's cookie).
    const sheet = await umpire.evaluate(async () => { const r = await fetch('/api/sheet.pdf'); return [r.status, r.headers.get('content-type'), (await r.text()).slice(0, 5)]; });
    assert(sheet[0] === 200 && sheet[1] === 'application/pdf' && sheet[2] === '%PDF-', `sheet ${JSON.stringify(sheet)}`);
    assert((await fetch(`${demo}/api/sheet.pdf`)).status === 401, 'the match sheet without login');
    const fits = await umpire.evaluate(() => [document.documentElement.scrollWidth, innerWidth]);
    assert(fits[0] <= fits[1] && fits[1] === 390, `the console does not fit a phone: ${fits[0]} px wide in ${fits[1]}`);

    // The match so far, from the log: Ravi won board 1 by 6.
    await waitText(page, '#name0', 'Asha');
    await waitText(page, '#name1', 'Ravi');
    await waitText(page, '#score0', '0');
    await waitText(page, '#score1', '6');
    await waitText(page, '#board', 'Board 2 · icf');
    // The video: Asha clears her men with the queen covered (2 + 5).
    const long = 300000; // a guard, not a timing: every frame is analysed, slower than real time on a busy machine
    await page.waitForFunction(() => document.querySelector('#score0').textContent.trim() === '7', null, { timeout: long })
      .catch(async () => { throw new Error(`score0 ${await text(page, '#score0')} (want 7); boardcam: ${stderr.slice(-2000)}`); });
    await waitText(page, '#score1', '6');
    await waitText(page, '#board', 'Board 3 · icf');
    if (SHOTS) await page.screenshot({ path: path.join(SHOTS, 'overlay-demo-clip.png') });
    await ctx.close();

    // The hand over the foul line: its card shows the annotated still of
    // the decisive frame under a plain heading; a tap plays the clip.
    const card = umpire.locator('#pending .card', { hasText: 'crossed the foul line' }).first();
    await card.locator('img.still').waitFor({ state: 'visible', timeout: long });
    await umpire.waitForFunction(() => [...document.querySelectorAll('#pending img.still')].some((i) => i.complete && i.naturalWidth >= 640), null, { timeout: long });
    const heading = (await card.locator('h3').textContent()).trim();
    assert(/^Asha's (hand|arm|hand or arm) crossed the foul line, \d+(\.\d)? mm$/.test(heading), `card heading "${heading}"`);
    const cardText = await card.textContent();
    assert(!/\[-?\d+(\.\d+)?, -?\d+(\.\d+)?\]/.test(cardText), `coordinates on the card: ${cardText}`);
    const media = await umpire.evaluate(() => {
      const img = [...document.querySelectorAll('#pending .card')].find((c) => c.textContent.includes('crossed the foul line')).querySelector('img.still');
      return { still: new URL(img.src).pathname };
    });
    const clipURL = media.still.replace(/\.jpg$/, '.mp4');
    // Pending: nobody but the umpire reads it.
    assert((await fetch(`${demo}${clipURL}`)).status === 401, 'a pending clip is readable without login');
    assert((await fetch(`${demo}${media.still}`)).status === 401, 'a pending still is readable without login');
    const box = await card.locator('figure.media').boundingBox();
    assert(box && box.height >= 44 && box.width >= 300, `the still is too small to tap on a phone: ${JSON.stringify(box)}`);
    await card.locator('figure.media').tap();
    await umpire.locator('#player').waitFor({ state: 'visible', timeout: T });
    await umpire.waitForFunction(() => { const v = document.getElementById('player-video'); return v.readyState >= 2 && v.currentTime > 0.05; }, null, { timeout: long });
    const played = await umpire.evaluate(() => { const v = document.getElementById('player-video'); return { rate: v.playbackRate, w: v.videoWidth, d: v.duration }; });
    assert(played.rate === 0.5 && played.w >= 640 && played.d > 1, `clip ${JSON.stringify(played)}`);
    // Frame stepping pauses and moves one frame.
    await umpire.click('#player-back');
    const t0 = await umpire.evaluate(() => document.getElementById('player-video').currentTime);
    await umpire.click('#player-fwd');
    await umpire.waitForFunction((t) => { const v = document.getElementById('player-video'); return v.paused && Math.abs(v.currentTime - t - 1 / 30) < 0.02; }, t0, { timeout: T });
    if (SHOTS) await umpire.screenshot({ path: path.join(SHOTS, 'console-clip.png') });
    await umpire.click('#player-close');
    if (SHOTS) await umpire.screenshot({ path: path.join(SHOTS, 'console-card.png'), fullPage: true });
    // Decided: the clip becomes public, and the replay scene plays it.
    await card.locator('button.confirm').tap();
    await umpire.waitForFunction(() => ![...document.querySelectorAll('#pending .card')].some((c) => c.textContent.includes('crossed the foul line')), null, { timeout: T });
    const pub = await fetch(`${demo}${clipURL}`);
    assert(pub.status === 200 && pub.headers.get('content-type') === 'video/mp4', `decided clip: ${pub.status} ${pub.headers.get('content-type')}`);
    const replayed = async () => {
      await umpire.click('#stream-replay');
      await replay.locator('#scene').waitFor({ state: 'visible', timeout: T });
      await replay.waitForFunction(() => { const v = document.getElementById('clip'); return v.readyState >= 2 && v.currentTime > 0.05; }, null, { timeout: long });
      return replay.evaluate(() => window.boardcamReplay());
    };
    let last = await replayed();
    // The last settled foul or pocketing: a pocketing after the foul may
    // have become the last.
    assert(last && last.clip && (last.kind === 'foul' || last.kind === 'pocketing'), `replay ${JSON.stringify(last)}`);
    if (SHOTS) await replay.screenshot({ path: path.join(SHOTS, 'overlay-replay.png') });

    // Manual calibration made in the console is saved and used after a
    // restart: click the corners the camera found, restart boardcam on
    // the same journal directory, and it starts from them.
    const calOf = (pg) => pg.evaluate(() => new Promise((resolve, reject) => {
      const ws = new WebSocket(`ws://${location.host}/ws`);
      ws.onmessage = (e) => { const m = JSON.parse(e.data); if (m.type === 'snapshot') { ws.close(); resolve(m.data.calibration); } };
      ws.onerror = () => reject(new Error('websocket'));
    }));
    const found = await calOf(umpire);
    assert(found.corners_px && found.corners_px.length === 4, `calibration ${JSON.stringify(found)}`);
    await umpire.click('#calibration summary');
    await umpire.click('#still-take');
    await umpire.waitForFunction(() => { const i = document.getElementById('still-img'); return i.complete && i.naturalWidth > 0; }, null, { timeout: T });
    const stillImg = umpire.locator('#still-img');
    await stillImg.scrollIntoViewIfNeeded();
    const sbox = await stillImg.boundingBox();
    const nat = await stillImg.evaluate((i) => [i.naturalWidth, i.naturalHeight]);
    // A little inside the found corners: clicks a phone can make.
    const clicked = found.corners_px.map(([x, y]) => [x + (x < nat[0] / 2 ? 6 : -6), y + (y < nat[1] / 2 ? 6 : -6)]);
    for (const [x, y] of clicked) await stillImg.click({ position: { x: (x * sbox.width) / nat[0], y: (y * sbox.height) / nat[1] } });
    await waitText(umpire, '#still-hint', 'ready');
    await umpire.click('#still-send');
    await umpire.waitForFunction(() => /calibrated/.test(document.getElementById('toast').textContent), null, { timeout: T });
    if (SHOTS) await umpire.screenshot({ path: path.join(SHOTS, 'console-phone-calibration.png'), fullPage: true });
    // Pages that would reconnect to the stopped server close first.
    await umpire.context().close();
    await replay.context().close();
    proc.kill('SIGTERM');
    await new Promise((resolve) => { if (proc.exitCode !== null) resolve(); else proc.on('exit', resolve); });
    let stderr2 = '';
    const proc2 = spawn(bin, ['run', '--config', cfgFile, '--source', DEMO_CLIP, '--resume', DEMO_LOG, ...pace, '--exit-at-end=false',
      '--listen', `127.0.0.1:${port}`, '--journal-dir', jdir], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
    try {
      await new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`boardcam run did not use the saved calibration within 60 s: ${stderr2}`)), 60000);
        proc2.stderr.on('data', (b) => {
          stderr2 += b;
          if (/web server listening/.test(stderr2)) { clearTimeout(timer); resolve(); }
        });
        proc2.on('exit', (code) => { clearTimeout(timer); reject(new Error(`boardcam run exited (${code}): ${stderr2}`)); });
      });
      assert(/using the manual calibration saved from the umpire console/.test(stderr2), `not used after the restart: ${stderr2}`);
      const after = await newPage(await browser.newContext());
      await after.goto(`${demo}/overlay`);
      let cal2 = null;
      for (let i = 0; i < 100; i++) {
        cal2 = await calOf(after);
        if (cal2.corners_px && ['ok', 'manual'].includes(cal2.status)) break;
        await new Promise((r) => setTimeout(r, 300));
      }
      assert(cal2 && cal2.corners_px, `no calibration after the restart: ${JSON.stringify(cal2)}`);
      cal2.corners_px.forEach(([x, y], i) => {
        assert(Math.abs(x - clicked[i][0]) <= 12 && Math.abs(y - clicked[i][1]) <= 12, `corner ${i} after the restart: ${x},${y}, clicked ${clicked[i]}`);
      });
      await after.context().close();
    } finally {
      proc2.kill('SIGTERM');
    }
  } finally {
    proc.kill('SIGTERM');
    rmSync(jdir, { recursive: true, force: true });
  }
});

test('no page raised a script error or broke its content security policy', async () => {
  assert(pageErrors.length === 0, pageErrors.join('\n'));
});

// ---- main -----------------------------------------------------------------

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), 'boardcam-e2e-'));
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  let server = null;
  let passed = 0;
  let failed = 0;
  try {
    server = await startServer(dir);
    base = server.base;
    // launch() gives Chromium a fresh temporary --user-data-dir of its own
    // (and removes it afterwards); each test opens its own context.
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    for (const t of tests) {
      const started = Date.now();
      try {
        await t.fn();
        passed++;
        console.log(`ok - ${t.name} (${Date.now() - started} ms)`);
      } catch (e) {
        failed++;
        console.log(`not ok - ${t.name}: ${e.message}`);
      }
    }
  } catch (e) {
    failed++;
    console.log(`not ok - setup: ${e.message}`);
  } finally {
    if (browser) await browser.close().catch(() => {});
    if (server) server.proc.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main();
