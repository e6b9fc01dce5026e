'use strict';
// The extension against the real daemon (LINKPEEK_BIN) and a loopback fixture
// server (LINKPEEK_FIXTURE), with the `vscode` module stubbed. Run by
// Tests/editors/test_vscode.py, which starts the server; every wait is bounded.

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const stub = require('./vscode-stub');

stub.install();
const { vscode, recorded, settings, document } = stub;
const BASE = process.env.LINKPEEK_FIXTURE;
const BIN = process.env.LINKPEEK_BIN;
assert.ok(BASE && BIN, 'LINKPEEK_FIXTURE and LINKPEEK_BIN must be set');

Object.assign(settings, { binary: BIN, allowPrivateNetwork: true, hoverTimeout: 1.0 });
const extension = require('../src/extension');
const urls = require('../src/url');
const { Client } = require('../src/client');
let api;

before(() => { api = extension.activate({ subscriptions: [] }); });
after(async () => { await extension.deactivate(); });

function bounded(promise, ms, what) {
  let timer;
  const limit = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms); });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

async function hover(text, line, character, source) {
  const token = (source || new vscode.CancellationTokenSource()).token;
  const started = Date.now();
  const h = await bounded(api.hoverProvider.provideHover(document(text), new vscode.Position(line, character), token), 10000, 'hover');
  return { hover: h, ms: Date.now() - started };
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

test('hover over a URL in Markdown: the daemon\'s card with the title, site, summary and image', async () => {
  const url = `${BASE}/page?title=Hover+Title`;
  const { hover: h } = await hover(`A link: ${url} end`, 0, 12);
  assert.ok(h, 'no hover');
  const md = h.contents.value;
  assert.match(md, /^\*\*\[Hover Title\]\(http:\/\/127\.0\.0\.1:\d+\/page\?title=Hover\+Title\)\*\*\n/);
  assert.ok(md.includes('Fixture Site · '), md);
  assert.ok(md.includes('An Open Graph description'), md);
  assert.ok(md.includes(`](${BASE}/img/og.png?w=120&h=63)`), md);
  assert.equal(h.contents.isTrusted, false);
  assert.equal(h.contents.supportHtml, false);
  assert.deepEqual([h.range.start.line, h.range.start.character, h.range.end.character], [0, 8, 8 + url.length]);
});

test('hover on plain text answers nothing', async () => {
  const { hover: h } = await hover('no links on this line', 0, 4);
  assert.equal(h, undefined);
});

test('after an edit, the hover sees the new text (full sync by version)', async () => {
  const doc = document('nothing here yet');
  const at = new vscode.Position(0, 3);
  const token = new vscode.CancellationTokenSource().token;
  assert.equal(await bounded(api.hoverProvider.provideHover(doc, at, token), 5000, 'hover'), undefined);
  doc.edit(`${BASE}/page?title=Edited`);
  const h = await bounded(api.hoverProvider.provideHover(doc, at, token), 5000, 'hover');
  assert.ok(h && h.contents.value.startsWith('**[Edited]'), h && h.contents.value);
});

test('a hostile title and summary cannot inject Markdown or HTML', async () => {
  const { hover: h } = await hover(`${BASE}/hostile`, 0, 3);
  const md = h.contents.value;
  assert.ok(md.includes('Evil'), md);
  assertNoInjection(md);
});

test('a slow page: the hover answers within the budget with a partial card, a later one with the full card', async () => {
  const url = `${BASE}/slow?ms=2500&title=Slowly+Done`;
  const first = await hover(url, 0, 3);
  assert.ok(first.ms < 1000 + 700, `first hover took ${first.ms} ms (budget 1000)`);
  assert.ok(first.hover.contents.value.endsWith('*loading…*'), first.hover.contents.value);
  assert.ok(!first.hover.contents.value.includes('Slowly Done'), first.hover.contents.value);
  await new Promise((r) => setTimeout(r, 2500));
  const second = await hover(url, 0, 3);
  assert.ok(second.hover.contents.value.startsWith('**[Slowly Done]'), second.hover.contents.value);
  assert.ok(second.ms < 500, `the second hover took ${second.ms} ms`);
});

test('a cancelled hover answers at once and the next hover works', async () => {
  const source = new vscode.CancellationTokenSource();
  const pending = hover(`${BASE}/slow?ms=4000&title=Cancelled`, 0, 3, source);
  setTimeout(() => source.cancel(), 100);
  const cancelled = await pending;
  assert.equal(cancelled.hover, undefined);
  assert.ok(cancelled.ms < 400, `cancel took ${cancelled.ms} ms`);
  const next = await hover(`${BASE}/page?title=After+Cancel`, 0, 3);
  assert.ok(next.hover.contents.value.startsWith('**[After Cancel]'));
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
  assert.ok(Date.now() - partial.t >= 1000, 'the title came only just before the end');
  assert.equal(recorded.info.at(-1), 'Slow Image Page — The head is quick; the image is not.');
  assert.equal(recorded.opened.at(-1), url);
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
  const at = new vscode.Position(0, 3);
  const token = new vscode.CancellationTokenSource().token;
  assert.ok((await bounded(api.hoverProvider.provideHover(doc, at, token), 5000, 'hover')).contents.value.startsWith('**[Reopened]'));
  for (const listener of recorded.closeListeners) listener(doc);
  const again = await bounded(api.hoverProvider.provideHover(doc, at, token), 5000, 'hover');
  assert.ok(again.contents.value.startsWith('**[Reopened]'));
});

test('cancelling the preview cancels its fetch', async () => {
  recorded.errors.length = 0;
  stub.cancelProgressAfter(100);
  const started = Date.now();
  const meta = await bounded(vscode.commands.executeCommand('linkpeek.preview', `${BASE}/slow?ms=4000&title=X`), 3000, 'cancelled preview');
  stub.cancelProgressAfter(undefined);
  assert.equal(meta, undefined);
  assert.ok(Date.now() - started < 1000);
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
  const { hover: h } = await hover(`${BASE}/page?title=Restarted`, 0, 3);
  assert.ok(h.contents.value.startsWith('**[Restarted]'));
  const now = await api.daemon().get();
  assert.notEqual(now.pid, old.pid);
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
  const fs = require('node:fs');
  const os = require('node:os');
  const path = require('node:path');
  const { Daemon, BACKOFF } = require('../src/daemon');
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
    while (!warnings.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(warnings.length, 1, 'no give-up warning');
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
