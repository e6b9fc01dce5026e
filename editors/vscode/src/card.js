'use strict';
// Page text for plain-text messages (the preview's notification): flattened
// to one line, cut at a word boundary; a site engine's facts line. The hover card is the daemon's
// (textDocument/hover), already escaped for Markdown there.

const SUMMARY_MAX = 300;

function clean(s) {
  if (typeof s !== 'string') return undefined;
  // eslint-disable-next-line no-control-regex
  const flat = s.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ').replace(/\s+/g, ' ').trim();
  return flat || undefined;
}

const DEFAULT_PORTS = { http: 80, https: 443 };

/**
 * The host of `url` as the daemon's cards show it (protocol/README.md,
 * textDocument/hover): lowercased, with the port unless it is the scheme's
 * default, never the user name or password before an `@`.
 */
function host(url) {
  const m = typeof url === 'string' && /^([a-z][\w+.-]*):\/\/([^/?#]+)/i.exec(url);
  if (!m) return undefined;
  let authority = m[2].replace(/^.*@/, '').toLowerCase();
  const port = /^(.*):(\d+)$/.exec(authority);
  if (port && Number(port[2]) === DEFAULT_PORTS[m[1].toLowerCase()]) authority = port[1];
  return authority || undefined;
}

/** Cut at a word boundary near `max` characters. */
function cut(s, max = SUMMARY_MAX) {
  if (s.length <= max) return s;
  const head = s.slice(0, max);
  const space = head.lastIndexOf(' ');
  return (space > max / 2 ? head.slice(0, space) : head) + '…';
}

const WALLS = {
  challenge: 'the site asked for a browser check before showing the page',
  consent: 'the site asked for cookie consent before showing the page',
  login: 'the site asked for a login before showing the page',
};

/** The extension's hint for a refused private address: its own setting's name. */
const PRIVATE_NETWORK_HINT = 'to read loopback and intranet pages, turn on the linkpeek.allowPrivateNetwork setting';

/**
 * The daemon's Markdown hover card with the hint for a refused private
 * address: the daemon's own hint on the last line (its setting's name)
 * gives way to the extension's, in a paragraph of its own.
 */
function withPrivateNetworkHint(markdown) {
  const protocol = require('./protocol');
  const lines = markdown.split('\n');
  const last = lines[lines.length - 1];
  if (!last.includes(protocol.cardBlockedAddress)) return markdown;
  lines[lines.length - 1] = last.replace(protocol.cardBlockedAddressHint, '');
  return `${lines.join('\n')}\n\nTo read loopback and intranet pages, turn on the \`linkpeek.allowPrivateNetwork\` setting.`;
}

/** The words for a progress stage: the protocol's stages by what they mean, any other by its name. */
function stageLabel(stage) {
  const protocol = require('./protocol');
  return Object.prototype.hasOwnProperty.call(protocol.stages, stage) ? protocol.stages[stage] : clean(stage);
}

/** "90 s", "5 min", "2 h": a retry-after delay for people. */
function duration(seconds) {
  const s = Math.max(0, Math.round(seconds));
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  return `${Math.round(s / 3600)} h`;
}

/**
 * One sentence for a failed request (an RpcError), by its `data.reason`: a
 * private-address refusal names the setting that lifts it, a wall what the
 * site asked for, a rate limit when to try again.
 */
function errorText(err) {
  const protocol = require('./protocol');
  const data = (err && typeof err.data === 'object' && err.data) || {};
  const message = clean(err && err.message);
  switch (data.reason) {
    case protocol.reasons.blockedAddress: {
      // The daemon's message ends with its own names for the setting: the
      // sentence names the extension's instead, once.
      const cut = message ? message.indexOf(protocol.blockedAddressMessageHint) : -1;
      const what = cut >= 0 ? message.slice(0, cut) : message;
      return `linkpeek: ${what || 'blocked: private address'}; ${PRIVATE_NETWORK_HINT}`;
    }
    case protocol.reasons.blocked:
      return `linkpeek: ${message || `blocked: ${WALLS[data.wall] || 'the site did not show the page'}`}`;
    case protocol.reasons.rateLimited: {
      const after = data.retryAfter;
      const when = typeof after === 'number' && after >= 0 && after < 1e9 ? `try again in ${duration(after)}` : 'try again later';
      return `linkpeek: the site is limiting requests; ${when}`;
    }
    default:
      return `linkpeek: ${message || 'the request failed'}`;
  }
}

const CHECKS = { success: '✓ checks passed', failure: '✗ checks failed', pending: 'checks pending' };

const str = (v) => (typeof v === 'string' ? v : undefined);
const int = (v) => (Number.isInteger(v) ? v : undefined);
const count = (n, noun) => `${n} ${noun}${n === 1 ? '' : 's'}`;
// The day of an ISO 8601 instant: cards never say "3 days ago", so a cached card never goes stale.
const day = (v) => (typeof v === 'string' && v.length >= 10 ? v.slice(0, 10) : undefined);
const words = (v) => {
  const list = Array.isArray(v) ? v.filter((w) => typeof w === 'string') : [];
  return list.length ? list.join(', ') : undefined;
};

/**
 * The one line of a preview a site engine read (`site`, protocol/README.md
 * §6b), word for word as the daemon's own cards make it: "merged · #4123 ·
 * 12 comments · bug, performance", "✓ accepted · score 231 · 14 answers",
 * "v2.3.1 · MIT · 2026-01-05". undefined when it says nothing.
 */
function siteLine(site) {
  if (!site || typeof site !== 'object') return undefined;
  const s = site;
  const when = (v, f) => (v === undefined ? undefined : f(v));
  let parts;
  switch (s.kind) {
    case 'issue': case 'pullRequest': case 'mergeRequest':
      parts = [str(s.state), when(int(s.number), (n) => `#${n}`), when(int(s.comments), (n) => count(n, 'comment')), words(s.labels)];
      break;
    case 'question': case 'answer':
      parts = [s.accepted === true ? '✓ accepted' : undefined, str(s.state), when(int(s.score), (n) => `score ${n}`),
        when(int(s.answers), (n) => count(n, 'answer')), words(s.tags)];
      break;
    case 'repository': case 'file': case 'folder':
      parts = [when(int(s.stars), (n) => `★ ${n}`), str(s.language), str(s.license), when(str(s.latestRelease), (r) => `latest ${r}`)];
      break;
    case 'commit':
      parts = [when(str(s.version), (v) => `commit ${v}`), day(s.createdAt), when(str(s.checks), (c) => CHECKS[c] || `checks ${c}`)];
      break;
    case 'release':
      parts = [str(s.version), str(s.state), day(s.createdAt)];
      break;
    case 'paper':
      parts = [str(s.category), Array.isArray(s.authors) ? count(s.authors.length, 'author') : undefined,
        when(day(s.createdAt), (d) => `submitted ${d}`)];
      break;
    case 'package':
      parts = [when(str(s.version), (v) => (/^\d/.test(v) ? `v${v}` : v)), str(s.license), day(s.createdAt)];
      break;
    case 'gist':
      parts = ['gist', when(int(s.comments), (n) => count(n, 'comment'))];
      break;
    default:
      parts = [str(s.description), str(s.language)];
  }
  const shown = parts.map(clean).filter(Boolean);
  return shown.length ? shown.join(' · ') : undefined;
}

module.exports = { clean, host, cut, duration, errorText, withPrivateNetworkHint, stageLabel, siteLine };
