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

module.exports = { clean, host, cut, duration, errorText, withPrivateNetworkHint, stageLabel };
