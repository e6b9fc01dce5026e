'use strict';
// The extension against the real daemon (LINKPEEK_BIN) and a loopback fixture
// server (LINKPEEK_FIXTURE), with the `vscode` module stubbed as strictly as
// VS Code behaves (test/vscode-stub.js): activated from its manifest, hovers
// through its document selector, settings from the manifest's defaults and
// change events. Run by Tests/editors/test_vscode.py, which starts the
// server. Every wait is bounded; no verdict rests on how long something took.

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const stub = require('./vscode-stub');

stub.install();
const { vscode, recorded, settings, document } = stub;
const BASE = process.env.LINKPEEK_FIXTURE;
const BIN = process.env.LINKPEEK_BIN;
assert.ok(BASE && BIN, 'LINKPEEK_FIXTURE and LINKPEEK_BIN must be set');

Object.assign(settings, { binary: BIN, allowPrivateNetwork: true, hoverTimeout: 1.0 });
const urls = require('../src/url');
const card = require('../src/card');
const binary = require('../src/binary');
const { Client } = require('../src/client');
const { Daemon } = require('../src/daemon');
let extension;
let api;

before(() => {
  const activated = stub.activateExtension(path.join(__dirname, '..'));
  extension = activated.module;
  api = activated.api;
});
after(async () => { await extension.deactivate(); });

function bounded(promise, ms, what) {
  let timer;
  const limit = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms); });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The fixture server's /held pages: held there until released, so a test knows where the fetch is. */
let heldKeys = 0;
function heldPage(title) {
  const key = `vs${process.pid}-${++heldKeys}`;
  return { key, url: `${BASE}/held?key=${key}&title=${encodeURIComponent(title)}` };
}
async function fixture(route) {
  const response = await bounded(fetch(`${BASE}${route}`), 30000, route);
  assert.equal(response.status, 200, `${route}: ${await response.text()}`);
}
/** Resolves once the page of `key` has reached the fixture server (bounded there, 20 s). */
const pageRequested = (key) => fixture(`/in-flight?key=${key}&n=1`);
const releasePage = (key) => fixture(`/release?key=${key}`);

/** The hover VS Code would show for `doc` at (line, character): the one card, or undefined. */
async function hoverOn(doc, line, character, source) {
  const token = (source || new vscode.CancellationTokenSource()).token;
  const hovers = await bounded(stub.provideHovers(doc, new vscode.Position(line, character), token), 10000, 'hover');
  assert.ok(hovers.length <= 1, `${hovers.length} hovers`);
  return hovers[0];
}

function hover(text, line, character, source) {
  return hoverOn(document(text), line, character, source);
}

/** The daemon's cached card of `url` (null while its fetch is still running). */
async function cached(url) {
  const client = await api.daemon().get();
  return client.request('getCached', { url });
}

/** Record the notifications the extension sends to the daemon while `fn` runs. */
async function notificationsDuring(fn) {
  const client = await api.daemon().get();
  const sent = [];
  const notify = client.notify;
  client.notify = function (method, params) { sent.push(method); return notify.call(this, method, params); };
  try {
    await fn();
  } finally {
    client.notify = notify;
  }
  return sent;
}

/** Change settings and wait for the daemon they stopped to exit. */
async function changeSettings(changes) {
  const old = await api.daemon().get();
  const exited = new Promise((r) => old.once('exit', r));
  stub.updateSettings(changes);
  await bounded(exited, 5000, 'the old daemon to exit');
  return old;
}

test('the URL table: brackets, punctuation, www., words', () => {
  const cases = [
    ['see https://a.example/x.', 6, 'https://a.example/x'],
    ['(https://en.wikipedia.org/wiki/Foo_(bar))', 3, 'https://en.wikipedia.org/wiki/Foo_(bar)'],
    ['[t](http://a.example/c "title")', 6, 'http://a.example/c'],
    ['<https://a.example/auto>', 2, 'https://a.example/auto'],
    ['go www.example.org/page, now', 5, 'https://www.example.org/page'],
    ['😀 日本 https://a.example/emoji', 8, 'https://a.example/emoji'],
    ['xhttps://not.a.url/', 3, undefined],
    ['plain text', 2, undefined],
  ];
  for (const [line, col, want] of cases) assert.equal(urls.at(line, col)?.url, want, line);
});

// Text escaped for Markdown is text; an unescaped `](`, `<img`, `<script` or
// a fence at a line start would be a link, HTML or code.
function assertNoInjection(md) {
  const text = '\n' + md;
  assert.ok(!/[^\\]\]\(javascript:/.test(text), `a link survived: ${md}`);
  assert.ok(!/[^\\]<(img|script)/.test(text), `HTML survived: ${md}`);
  assert.ok(!/\n(```|#)/.test(text), `a fence or heading survived: ${md}`);
}

test('the manifest: activated at startup, hovers for files and untitled documents only, hoverImages on by default', () => {
  assert.equal(recorded.hovers.length, 1);
  assert.deepEqual(recorded.hovers[0].selector, [{ scheme: 'file' }, { scheme: 'untitled' }]);
  assert.equal(vscode.workspace.getConfiguration('linkpeek').get('hoverImages'), true);
  assert.equal(vscode.workspace.getConfiguration('linkpeek').get('binary'), BIN);
});

/** The card's image line when it is the documented `data:` thumbnail (one line, no remote URL), else undefined. */
const DATA_IMAGE = /^!\[[^\]\n]*\]\(data:image\/jpeg;base64,[A-Za-z0-9+/]+={0,2}\)$/;

test('hover over a URL in Markdown: the daemon\'s card, bold title, and the image as a data: thumbnail', async () => {
  const url = `${BASE}/page?title=Hover+Title`;
  const h = await hover(`A link: ${url} end`, 0, 12);
  assert.ok(h, 'no hover');
  const md = h.contents.value;
  const lines = md.split('\n');
  // The documented card: the title bold (not a link), site · host, the
  // summary, then the thumbnail linkpeek fetched; no blank line to spare.
  assert.deepEqual(lines.slice(0, 6), ['**Hover Title**', '', `Fixture Site · ${card.host(BASE)}`, '', 'An Open Graph description.', ''], md);
  assert.equal(lines.length, 7, md);
  assert.match(lines[6], DATA_IMAGE);
  // No remote URL anywhere in the card: not the page's image, not the page.
  assert.ok(!/[a-z]+:\/\//i.test(md), `a remote URL in the card: ${md}`);
  assert.equal(h.contents.isTrusted, false);
  assert.equal(h.contents.supportHtml, false);
  assert.deepEqual([h.range.start.line, h.range.start.character, h.range.end.character], [0, 8, 8 + url.length]);
});

test('the extension asks the daemon for Markdown cards only', () => {
  const protocol = require('../src/protocol');
  assert.deepEqual(protocol.capabilities.textDocument.hover.contentFormat, ['markdown']);
});

test('a file document gets hovers too', async () => {
  const h = await hoverOn(document(`${BASE}/page?title=In+A+File`, { scheme: 'file' }), 0, 3);
  assert.ok(h && h.contents.value.includes('In A File'), h && h.contents.value);
});

test('documents outside the selector or over 1 MiB are never sent to the daemon', async () => {
  const url = `${BASE}/page?title=Not+Sent`;
  const big = `${url}\n${'x'.repeat(extension.MAX_DOCUMENT_BYTES)}`;
  let hovers;
  const sent = await notificationsDuring(async () => {
    hovers = [
      await hoverOn(document(url, { scheme: 'output' }), 0, 3),
      await hoverOn(document(url, { scheme: 'git' }), 0, 3),
      await hoverOn(document(big, { scheme: 'file' }), 0, 3),
    ];
  });
  assert.deepEqual(hovers, [undefined, undefined, undefined]);
  assert.deepEqual(sent, []);
  // The control: the same URL in a small file is sent and answered.
  const sentSmall = await notificationsDuring(async () => {
    const h = await hoverOn(document(url, { scheme: 'file' }), 0, 3);
    assert.ok(h && h.contents.value.includes('Not Sent'));
  });
  assert.deepEqual(sentSmall, ['textDocument/didOpen']);
});

test('hover on plain text answers nothing', async () => {
  assert.equal(await hover('no links on this line', 0, 4), undefined);
});

test('after an edit, the hover sees the new text (full sync by version)', async () => {
  const doc = document('nothing here yet');
  assert.equal(await hoverOn(doc, 0, 3), undefined);
  doc.edit(`${BASE}/page?title=Edited`);
  const h = await hoverOn(doc, 0, 3);
  assert.ok(h && h.contents.value.split('\n')[0].includes('Edited'), h && h.contents.value);
});

test('a hostile title and summary cannot inject Markdown or HTML', async () => {
  const h = await hover(`${BASE}/hostile`, 0, 3);
  const md = h.contents.value;
  assert.ok(md.includes('Evil'), md);
  assertNoInjection(md);
});

test('a slow page: the hover answers before the page is done, with a partial card; a later one has the full card', async () => {
  const { key, url } = heldPage('Slowly Done');
  const first = await hover(url, 0, 3);
  assert.ok(first.contents.value.endsWith('*loading…*'), first.contents.value);
  assert.ok(!first.contents.value.includes('Slowly Done'), first.contents.value);
  assert.equal(await cached(url), null, 'the page was already done when the hover answered');
  await releasePage(key);
  // Polled, bounded: the released page ends the fetch soon after; no verdict on when.
  let second;
  for (const deadline = Date.now() + 10000; Date.now() < deadline;) {
    second = await hover(url, 0, 3);
    if (!second.contents.value.endsWith('*loading…*')) break;
    await sleep(100);
  }
  assert.ok(second.contents.value.split('\n')[0].includes('Slowly Done'), second.contents.value);
});

test('a cancelled hover answers before the page is done, and the next hover works', async () => {
  const { key, url } = heldPage('Cancelled');
  const source = new vscode.CancellationTokenSource();
  const pending = hover(url, 0, 3, source);
  await pageRequested(key); // a state, not a pause: the hover's fetch is at the server, held there
  source.cancel();
  assert.equal(await pending, undefined);
  assert.equal(await cached(url), null, 'the cancelled hover waited for the page');
  await releasePage(key);
  const next = await hover(`${BASE}/page?title=After+Cancel`, 0, 3);
  assert.ok(next.contents.value.split('\n')[0].includes('After Cancel'));
});

test('a token cancelled before the hover asks: its late listener fires, the hover answers nothing', async () => {
  const url = `${BASE}/slow?ms=4000&title=Already+Cancelled`;
  const source = new vscode.CancellationTokenSource();
  source.cancel();
  assert.equal(await hover(url, 0, 3, source), undefined);
  assert.equal(await cached(url), null, 'the hover waited for the page');
});

test('"linkpeek: Preview Link" streams progress, then the partial title, then the card', async () => {
  recorded.progress.length = 0;
  stub.choose('Open');
  const url = `${BASE}/slowimage?ms=1500`;
  const meta = await bounded(vscode.commands.executeCommand('linkpeek.preview', url), 10000, 'preview');
  stub.choose(undefined);
  assert.equal(meta.title, 'Slow Image Page');
  const partial = recorded.progress.find((p) => p.message === 'Slow Image Page');
  assert.ok(partial, JSON.stringify(recorded.progress));
  assert.ok(recorded.progress.indexOf(partial) > 0, 'a stage came before the title');
  assert.ok(meta.image && meta.image.width === 40, 'the final card has the probed image');
  assert.equal(recorded.info.at(-1), 'Slow Image Page — The head is quick; the image is not.');
  assert.equal(recorded.opened.at(-1), url);
});

test('site engines: the hover card and the preview\'s message have each link\'s facts line', async () => {
  // Tests/editors/editor_sites.py serves the APIs and names the cases: [url, title, facts line].
  const cases = JSON.parse(process.env.LINKPEEK_SITE_CASES || 'null');
  assert.ok(Array.isArray(cases) && cases.length >= 3, 'LINKPEEK_SITE_CASES not set');
  for (const [url, title, facts] of cases) {
    stub.choose(undefined);
    const meta = await bounded(vscode.commands.executeCommand('linkpeek.preview', url), 10000, 'preview');
    assert.equal(card.siteLine(meta.site), facts, url);
    assert.ok(recorded.info.at(-1).startsWith(`${title} (${facts})`), recorded.info.at(-1));
    const shown = await hover(url, 0, 3);
    const lines = shown.contents.value.split('\n');
    assert.ok(lines[0].includes(title) && lines.includes(facts), shown.contents.value);
  }
});

test('the site line in the daemon\'s words, from `site` alone', () => {
  assert.equal(card.siteLine({ engine: 'stackexchange', kind: 'answer', accepted: false, score: 1, answers: 1 }), 'score 1 · 1 answer');
  assert.equal(card.siteLine({ kind: 'commit', version: 'abc1234', createdAt: '2026-01-05T10:00:00Z', checks: 'pending' }),
    'commit abc1234 · 2026-01-05 · checks pending');
  assert.equal(card.siteLine({ kind: 'repository', stars: 5, license: 'MIT', latestRelease: 'v2' }), '★ 5 · MIT · latest v2');
  assert.equal(card.siteLine({ kind: 'release', version: 'v1', state: 'prerelease' }), 'v1 · prerelease');
  assert.equal(card.siteLine({ kind: 'issue', state: 'open\n\u001b[31mred', number: 1.5 }), 'open [31mred');
  assert.equal(card.siteLine({ kind: 'issue' }), undefined);
  assert.equal(card.siteLine('merged'), undefined);
});

test('the card\'s host as the daemon shows it: lowercased, the port unless default, no user name', () => {
  const cases = [
    ['https://Example.COM:443/x', 'example.com'],
    ['http://example.com:80/', 'example.com'],
    ['http://127.0.0.1:8080/p', '127.0.0.1:8080'],
    ['https://example.com:80/', 'example.com:80'],
    ['https://user:secret@Example.com/x', 'example.com'],
    ['http://[::1]:8080/', '[::1]:8080'],
    ['http://[::1]/', '[::1]'],
  ];
  for (const [url, want] of cases) assert.equal(card.host(url), want, url);
  assert.equal(card.host('not a url'), undefined);
});

test('progress stages in words: waiting for the server', () => {
  assert.equal(card.stageLabel('waiting'), 'waiting for the server');
  assert.equal(card.stageLabel('downloading'), 'downloading the page');
  assert.equal(card.stageLabel('resolving'), 'looking up the host');
  assert.equal(card.stageLabel('rendering'), 'rendering', 'a stage of a newer daemon');
  assert.equal(card.stageLabel('constructor'), 'constructor', 'not a property of the table');
});

test('a server that thinks: the preview says it is waiting for the server', async () => {
  recorded.progress.length = 0;
  stub.choose(undefined);
  const meta = await bounded(vscode.commands.executeCommand('linkpeek.preview', `${BASE}/slow?ms=2500&title=Thinking`), 10000, 'preview');
  assert.equal(meta.title, 'Thinking');
  const messages = recorded.progress.map((p) => p.message);
  assert.ok(messages.includes('waiting for the server…'), JSON.stringify(messages));
});

test('a site that shows a bot check: the preview and the hover say so', async () => {
  recorded.errors.length = 0;
  const meta = await bounded(vscode.commands.executeCommand('linkpeek.preview', `${BASE}/challenge?editor=vscode`), 10000, 'preview');
  assert.equal(meta, undefined);
  assert.deepEqual(recorded.errors, ['linkpeek: Metadata fetch failed: the site answered with a bot check (a challenge page) instead of the page.']);
  const h = await hover(`${BASE}/challenge?editor=vscode-hover`, 0, 3);
  assert.equal(h.contents.value, `**${card.host(BASE)}**\n\n*blocked: bot check*`);
});

test('a site that asks to slow down: the preview says when to try again (in a daemon of its own)', async () => {
  // The 429 holds the fixture's host for 90 s in the daemon that saw it:
  // the settings change starts a fresh one before and after.
  await changeSettings({ hoverTimeout: 1.1 });
  recorded.errors.length = 0;
  try {
    const meta = await bounded(vscode.commands.executeCommand('linkpeek.preview', `${BASE}/slowdown`), 10000, 'preview');
    assert.equal(meta, undefined);
  } finally {
    await changeSettings({ hoverTimeout: 1.0 });
  }
  assert.deepEqual(recorded.errors, ['linkpeek: the site is limiting requests; try again in 90 s']);
});

test('a preview that fails says why', async () => {
  recorded.errors.length = 0;
  const meta = await bounded(vscode.commands.executeCommand('linkpeek.preview', 'http://127.0.0.1:9/closed'), 10000, 'preview');
  assert.equal(meta, undefined);
  assert.equal(recorded.errors.length, 1);
  assert.match(recorded.errors[0], /^linkpeek: Metadata fetch failed/);
});

test('a closed document is closed in the daemon and opened again on the next hover', async () => {
  const doc = document(`${BASE}/page?title=Reopened`);
  assert.ok((await hoverOn(doc, 0, 3)).contents.value.includes('Reopened'));
  for (const listener of recorded.closeListeners) listener(doc);
  const again = await hoverOn(doc, 0, 3);
  assert.ok(again.contents.value.includes('Reopened'));
});

test('cancelling the preview cancels its fetch', async () => {
  recorded.errors.length = 0;
  const url = `${BASE}/slow?ms=4000&title=X`;
  stub.cancelProgressAfter(100);
  const meta = await bounded(vscode.commands.executeCommand('linkpeek.preview', url), 10000, 'cancelled preview');
  stub.cancelProgressAfter(undefined);
  assert.equal(meta, undefined);
  assert.equal(await cached(url), null, 'the preview waited for the page');
  assert.deepEqual(recorded.errors, []);
});

test('"linkpeek: Save Link": the link is saved, and the daemon says so', async () => {
  const client = await api.daemon().get();
  const probe = await client.request('saved', { limit: 1 }).then(() => 'supported', (e) => e.code);
  recorded.warnings.length = 0;
  recorded.info.length = 0;
  const result = await bounded(vscode.commands.executeCommand('linkpeek.save', `${BASE}/page?title=Saved+Page`), 10000, 'save');
  assert.equal(probe, 'supported');
  assert.notEqual(result, undefined);
  assert.deepEqual(recorded.info, ['linkpeek: saved Saved Page']);
});

test('a daemon that dies is started again', async () => {
  const old = await api.daemon().get();
  const exited = new Promise((r) => old.once('exit', r));
  process.kill(old.pid, 'SIGKILL');
  await bounded(exited, 3000, 'exit');
  const h = await hover(`${BASE}/page?title=Restarted`, 0, 3);
  assert.ok(h.contents.value.includes('Restarted'));
  const now = await api.daemon().get();
  assert.notEqual(now.pid, old.pid);
});

test('hovers are asked in VS Code\'s language; linkpeek.acceptLanguage overrides it', async () => {
  // Tests/editors/test_vscode.py gives the daemon the C locale: only the extension can name a language.
  const title = async (n) => (await hover(`${BASE}/lang?vscode=${n}`, 0, 3)).contents.value.split('\n')[0];
  const locale = process.env.LANG;
  try {
    vscode.env.language = 'pt-br';
    await changeSettings({ acceptLanguage: null });
    assert.equal(await title(1), '**lang pt-BR**');
    await changeSettings({ acceptLanguage: 'de-DE, de;q=0.9' });
    assert.equal(await title(2), '**lang de-DE, de;q=0.9**');
    // "" sends none, though the daemon's own locale would say German.
    process.env.LANG = 'de_DE.UTF-8';
    await changeSettings({ acceptLanguage: '' });
    assert.equal(await title(3), '**lang none**');
  } finally {
    vscode.env.language = 'en';
    if (locale === undefined) delete process.env.LANG; else process.env.LANG = locale;
    await changeSettings({ acceptLanguage: undefined });
  }
});

test('linkpeek.hover.fetch, .allow and .deny decide whether a hover fetches', async () => {
  // Tests/editors/test_vscode.py checks that the fixture saw only vscodehover=3.
  const card = async (n) => (await hover(`${BASE}/page?title=Held${n}&vscodehover=${n}`, 0, 3)).contents.value;
  const held = /not fetched: hover fetching is off for 127/;
  try {
    await changeSettings({ 'hover.fetch': 'cacheOnly' });
    assert.match(await card(1), held);
    await changeSettings({ 'hover.fetch': 'always', 'hover.deny': ['127.0.0.1'] });
    assert.match(await card(2), held);
    await changeSettings({ 'hover.fetch': 'allowList', 'hover.allow': ['127.0.0.1'], 'hover.deny': undefined });
    const allowed = await card(3);
    assert.doesNotMatch(allowed, held);
    assert.match(allowed.split('\n')[0], /Held3/);
  } finally {
    await changeSettings({ 'hover.fetch': undefined, 'hover.allow': undefined, 'hover.deny': undefined });
  }
  const protocol = require('../src/protocol');
  assert.equal('hover' in protocol.initOptions({}), false, 'nothing set: the daemon\'s file decides');
});

test('VS Code\'s language as an Accept-Language value; none leaves the option out', () => {
  const protocol = require('../src/protocol');
  assert.equal(protocol.editorLanguage('de'), 'de');
  assert.equal(protocol.editorLanguage('pt-br'), 'pt-BR');
  assert.equal(protocol.editorLanguage('zh-hant-tw'), 'zh-Hant-TW');
  assert.equal(protocol.editorLanguage('x'), undefined);
  assert.equal(protocol.editorLanguage('de;q=1'), undefined);
  assert.equal(protocol.editorLanguage(undefined), undefined);
  assert.equal('acceptLanguage' in protocol.initOptions({}), false);
  assert.equal(protocol.initOptions({ acceptLanguage: '' }).acceptLanguage, '');
});

test('a settings change restarts the daemon with the new settings', async () => {
  const url = `${BASE}/page?title=Images+Off`;
  const on = (await hover(url, 0, 3)).contents.value;
  assert.match(on.split('\n').at(-1), DATA_IMAGE, 'the control: the thumbnail with hoverImages on');
  const old = await changeSettings({ hoverImages: false });
  const h = await hover(url, 0, 3);
  const now = await api.daemon().get();
  assert.notEqual(now.pid, old.pid, 'the same daemon after the change');
  assert.deepEqual(h.contents.value.split('\n'), ['**Images Off**', '', `Fixture Site · ${card.host(BASE)}`, '', 'An Open Graph description.'],
    `the card with hoverImages off: ${h.contents.value}`);
  await changeSettings({ hoverImages: undefined });
});

test('linkpeek.showImages, the old name, is read when hoverImages is not set', async () => {
  await changeSettings({ showImages: false });
  const h = await hover(`${BASE}/page?title=Old+Name`, 0, 3);
  assert.ok(h.contents.value.includes('Old Name') && !h.contents.value.includes('!['), h.contents.value);
  await changeSettings({ showImages: undefined });
});

test('a private address refused by the daemon: the message names the setting', async () => {
  recorded.errors.length = 0;
  await changeSettings({ allowPrivateNetwork: false });
  let h;
  try {
    await bounded(vscode.commands.executeCommand('linkpeek.preview', `${BASE}/page?title=Private`), 10000, 'preview');
    h = await hover(`${BASE}/page?title=Private+Hover`, 0, 3);
  } finally {
    await changeSettings({ allowPrivateNetwork: true });
  }
  assert.equal(recorded.errors.length, 1);
  // One hint, naming the extension's setting: the daemon's gave way to it.
  assert.equal(recorded.errors[0], 'linkpeek: Metadata fetch failed: refused to connect to 127.0.0.1, a loopback, private or reserved address; '
    + 'to read loopback and intranet pages, turn on the linkpeek.allowPrivateNetwork setting');
  assert.equal(h.contents.value, `**${card.host(BASE)}**\n\n*blocked: private address*\n\n`
    + 'To read loopback and intranet pages, turn on the `linkpeek.allowPrivateNetwork` setting.');
});

test('failure reasons as sentences', () => {
  const fail = (data, message = 'x') => Object.assign(new Error(message), { code: -32000, data: { kind: 'failed', ...data } });
  assert.equal(card.errorText(fail({ reason: 'blockedAddress' }, 'Metadata fetch failed: refused to connect to 10.0.0.1, a loopback, private or reserved address; '
    + 'the allowPrivateNetwork setting (initializationOptions.allowPrivateNetwork, --allow-private-network) allows it.')),
  'linkpeek: Metadata fetch failed: refused to connect to 10.0.0.1, a loopback, private or reserved address; '
    + 'to read loopback and intranet pages, turn on the linkpeek.allowPrivateNetwork setting');
  assert.equal(card.errorText(fail({ reason: 'blockedAddress' }, '')),
    'linkpeek: blocked: private address; to read loopback and intranet pages, turn on the linkpeek.allowPrivateNetwork setting');
  assert.equal(card.errorText(fail({ reason: 'blocked', wall: 'consent' }, 'blocked: the site asked for cookie consent before showing the page')),
    'linkpeek: blocked: the site asked for cookie consent before showing the page');
  assert.equal(card.errorText(fail({ reason: 'blocked', wall: 'challenge' }, '')),
    'linkpeek: blocked: the site asked for a browser check before showing the page');
  assert.equal(card.errorText(fail({ reason: 'rateLimited', retryAfter: 90 })), 'linkpeek: the site is limiting requests; try again in 90 s');
  assert.equal(card.errorText(fail({ reason: 'rateLimited', retryAfter: 3600 })), 'linkpeek: the site is limiting requests; try again in 60 min');
  assert.equal(card.errorText(fail({ reason: 'rateLimited' })), 'linkpeek: the site is limiting requests; try again later');
  assert.equal(card.errorText(fail({ reason: 'httpStatus' }, 'HTTP 404')), 'linkpeek: HTTP 404');
});

test('no binary: the install sentence, once for hovers, and the daemon starts when it appears', async () => {
  recorded.errors.length = 0;
  await changeSettings({ binary: '/nonexistent/linkpeek' });
  const url = `${BASE}/page?title=Appears`;
  assert.equal(await hover(url, 0, 3), undefined);
  assert.equal(await hover(url, 0, 3), undefined);
  assert.deepEqual(recorded.errors, ['linkpeek: the linkpeek.binary setting "/nonexistent/linkpeek" is not an executable file (fix or clear it: cleared, linkpeek is looked for on PATH and where the releases install it)']);
  stub.updateSettings({ binary: BIN });
  const h = await hover(url, 0, 3);
  assert.ok(h && h.contents.value.includes('Appears'));
  assert.equal(recorded.errors.length, 1);
});

test('no binary anywhere: the install sentence', async () => {
  const d = new Daemon(() => ({ binary: null }), () => {}, () => {}, (s) => binary.find(s, { PATH: '', places: [] }));
  await assert.rejects(d.get(), (err) => err.missing === true && err.message === binary.INSTALL);
  await d.stop();
  assert.equal(binary.INSTALL, 'linkpeek is not installed: install the .deb or tarball from the releases, or `make install PREFIX=~/.local` from the source (see editors/README.md)');
});

test('spawn fails with ENOENT (a binary whose interpreter is missing): the install sentence, no restart loop', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkpeek-vscode-'));
  const fake = path.join(dir, 'linkpeek');
  fs.writeFileSync(fake, '#!/nonexistent/interpreter\n', { mode: 0o700 });
  recorded.errors.length = 0;
  try {
    await changeSettings({ binary: fake });
    const meta = await bounded(vscode.commands.executeCommand('linkpeek.preview', `${BASE}/page?title=Enoent`), 5000, 'preview');
    assert.equal(meta, undefined);
    assert.deepEqual(recorded.errors, [binary.INSTALL]);
  } finally {
    stub.updateSettings({ binary: BIN });
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const h = await hover(`${BASE}/page?title=Back`, 0, 3);
  assert.ok(h && h.contents.value.includes('Back'));
});

test('where the binary is looked for: PATH, the release places, <prefix>/bin beside the extension', () => {
  assert.deepEqual(binary.places('/home/u', '/opt/x/share/linkpeek/editors/vscode/src'),
    ['/home/u/.local/bin/linkpeek', '/usr/local/bin/linkpeek', '/opt/linkpeek/bin/linkpeek', '/usr/bin/linkpeek', '/opt/x/bin/linkpeek']);
  assert.equal(binary.besideExtension('/home/u/src/linkpeek/editors/vscode/src'), undefined);
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'linkpeek-prefix-'));
  try {
    fs.mkdirSync(path.join(prefix, 'bin'));
    fs.copyFileSync(BIN, path.join(prefix, 'bin', 'linkpeek'));
    fs.chmodSync(path.join(prefix, 'bin', 'linkpeek'), 0o755);
    const dir = path.join(prefix, 'share', 'linkpeek', 'editors', 'vscode', 'src');
    assert.deepEqual(binary.find(null, { PATH: '', home: '/nonexistent', places: [binary.besideExtension(dir)] }),
      { path: path.join(prefix, 'bin', 'linkpeek') });
    assert.deepEqual(binary.find(null, { PATH: path.join(prefix, 'bin'), places: [] }), { path: path.join(prefix, 'bin', 'linkpeek') });
    // "linkpeek", the old default, looks in the release places too.
    assert.deepEqual(binary.find('linkpeek', { PATH: '', home: '/nonexistent', places: [binary.besideExtension(dir)] }),
      { path: path.join(prefix, 'bin', 'linkpeek') });
    assert.deepEqual(binary.find('linkpeek', { PATH: path.join(prefix, 'bin') }), { path: path.join(prefix, 'bin', 'linkpeek') });
  } finally {
    fs.rmSync(prefix, { recursive: true, force: true });
  }
});

test('"linkpeek: Check the Installation" reports the binary, its version and the daemon', async () => {
  recorded.output.length = 0;
  const report = await bounded(vscode.commands.executeCommand('linkpeek.doctor'), 10000, 'doctor');
  const lines = report.split('\n');
  assert.equal(lines[0], `binary: ${BIN} (the linkpeek.binary setting)`);
  assert.match(lines[1], /^version: \d+\.\d+/);
  assert.match(lines[2], /^the daemon answers \(pid \d+\)$/);
  assert.equal(recorded.output.join(''), `${report}\n`);
});

test('a hover timeout out of the daemon\'s range is refused, naming the setting', async () => {
  recorded.errors.length = 0;
  settings.hoverTimeout = 61;
  try {
    await bounded(vscode.commands.executeCommand('linkpeek.preview', `${BASE}/page?title=Range`), 5000, 'preview');
  } finally {
    settings.hoverTimeout = 1.0;
  }
  assert.equal(recorded.errors[0], 'linkpeek.hoverTimeout must be a number of seconds from 0 to 60; using 1.5');
});

test('a daemon that keeps dying is restarted with backoff, then left alone', async () => {
  const { BACKOFF } = require('../src/daemon');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkpeek-vscode-'));
  const counter = path.join(dir, 'starts');
  const fake = path.join(dir, 'fake-linkpeek');
  fs.writeFileSync(fake, `#!/bin/sh\necho started >> '${counter}'\nexit 1\n`, { mode: 0o700 });
  const saved = { ...BACKOFF };
  Object.assign(BACKOFF, { firstMs: 20, maxMs: 80, maxQuick: 3 });
  const warnings = [];
  const d = new Daemon(() => ({ binary: fake }), () => {}, (t) => warnings.push(t));
  try {
    await d.get().catch(() => {});
    const deadline = Date.now() + 5000;
    while (!warnings.length && Date.now() < deadline) await sleep(20);
    assert.equal(warnings.length, 1, 'no give-up warning');
    // Given up, a state and not a pause: no restart pending and no daemon starting, so none can come later.
    assert.equal(d.restartTimer, undefined, 'a restart is still scheduled');
    assert.equal(d.ready, undefined, 'a daemon is still starting');
    assert.equal(d.client, undefined, 'a daemon is still running');
    assert.match(warnings[0], /^linkpeek: the daemon keeps exiting \(code 1, signal null\); not restarting it$/);
    assert.equal(fs.readFileSync(counter, 'utf8').split('\n').filter(Boolean).length, 4, 'starts: the first and three restarts');
  } finally {
    Object.assign(BACKOFF, saved);
    await d.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('framing: a message split anywhere, and two in one chunk', () => {
  const c = Object.create(Client.prototype);
  c.buffer = Buffer.alloc(0);
  const got = [];
  c.dispatch = (m) => got.push(m);
  const one = (o) => { const b = Buffer.from(JSON.stringify(o)); return Buffer.concat([Buffer.from(`Content-Length: ${b.length}\r\n\r\n`), b]); };
  const bytes = Buffer.concat([one({ id: 1, result: 'é' }), one({ id: 2, result: null })]);
  for (let i = 0; i < bytes.length; i++) c.onData(bytes.subarray(i, i + 1));
  c.onData(bytes);
  assert.deepEqual(got, [{ id: 1, result: 'é' }, { id: 2, result: null }, { id: 1, result: 'é' }, { id: 2, result: null }]);
});

test('the stub is strict: a late cancellation listener fires, a selector matches by scheme', async () => {
  const source = new vscode.CancellationTokenSource();
  source.cancel();
  let fired = false;
  source.token.onCancellationRequested(() => { fired = true; });
  await bounded(new Promise((r) => { const t = setInterval(() => { if (fired) { clearInterval(t); r(); } }, 1); }), 1000, 'late listener');
  assert.equal(stub.matches([{ scheme: 'file' }], document('x', { scheme: 'output' })), false);
  assert.equal(stub.matches([{ scheme: 'file' }], document('x', { scheme: 'file' })), true);
});
