'use strict';
// Page text for plain-text messages (the preview's notification): flattened
// to one line, cut at a word boundary. The hover card is the daemon's
// (textDocument/hover), already escaped for Markdown there.

const SUMMARY_MAX = 300;

function clean(s) {
  if (typeof s !== 'string') return undefined;
  // eslint-disable-next-line no-control-regex
  const flat = s.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ').replace(/\s+/g, ' ').trim();
  return flat || undefined;
}

function host(url) {
  const m = typeof url === 'string' && /^[a-z][\w+.-]*:\/\/([^/?#]+)/i.exec(url);
  return m ? m[1] : undefined;
}

/** Cut at a word boundary near `max` characters. */
function cut(s, max = SUMMARY_MAX) {
  if (s.length <= max) return s;
  const head = s.slice(0, max);
  const space = head.lastIndexOf(' ');
  return (space > max / 2 ? head.slice(0, space) : head) + '…';
}

module.exports = { clean, host, cut };
