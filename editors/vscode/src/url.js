'use strict';
// The URL at a position of a line, before asking the daemon: http(s) and www.
// URLs, trailing punctuation trimmed unless it closes a bracket the URL opened
// (Wikipedia's Foo_(bar)), no match inside a longer word. Columns are UTF-16
// code units, as VS Code's Position.character.

const URL_RE = /(?:https?:\/\/|www\.)[^\s<>"'`{}|\\^]+/gi;
const TRAILING = new Set(['.', ',', ';', ':', '!', '?', "'", '"', '>', ')', ']']);
const OPENER = { ')': '(', ']': '[' };

function count(s, ch) {
  return s.split(ch).length - 1;
}

function trim(url) {
  while (url.length) {
    const last = url[url.length - 1];
    if (!TRAILING.has(last)) break;
    const open = OPENER[last];
    if (open && count(url, open) >= count(url, last)) break;
    url = url.slice(0, -1);
  }
  return url;
}

/** Every URL of `line`: {url, start, end} (end exclusive). */
function findAll(line) {
  const found = [];
  for (const m of line.matchAll(URL_RE)) {
    const before = m.index > 0 ? line[m.index - 1] : '';
    if (/[\p{L}\p{N}_]/u.test(before)) continue;
    const raw = trim(m[0]);
    if (!raw || /^www\.$/i.test(raw)) continue;
    const url = /^www\./i.test(raw) ? 'https://' + raw : raw;
    found.push({ url, start: m.index, end: m.index + raw.length });
  }
  return found;
}

/** The URL covering column `character`, or undefined. */
function at(line, character) {
  return findAll(line).find((u) => character >= u.start && character < u.end);
}

module.exports = { findAll, at };
