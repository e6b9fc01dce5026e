'use strict';
// The hover card as Markdown. Every text taken from a page is flattened to
// one line and has every ASCII punctuation character backslash-escaped
// (CommonMark makes each of those literal), so a title such as
// "](javascript:…)", "<img onerror=…>" or "```" renders as text. Link and
// image targets are http(s) only and percent-encode what could end them.

const SUMMARY_MAX = 300;

function clean(s) {
  if (typeof s !== 'string') return undefined;
  // eslint-disable-next-line no-control-regex
  const flat = s.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ').replace(/\s+/g, ' ').trim();
  return flat || undefined;
}

function escapeMarkdown(s) {
  return s.replace(/[!-/:-@[-`{-~]/g, (c) => '\\' + c);
}

function text(s) {
  const c = clean(s);
  return c === undefined ? undefined : escapeMarkdown(c);
}

/** A link target: http(s) only, with what could end or break it percent-encoded. */
function target(url) {
  if (typeof url !== 'string' || !/^https?:\/\//i.test(url)) return undefined;
  return url.replace(/[\s<>()[\]"'`\\\u0000-\u001f\u007f]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0'));
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

/**
 * The card for `meta` (LinkMetadata, possibly partial) of `url`.
 * status: undefined when complete, else a line such as "loading…" or an error.
 * options.images: show the preview image (default true).
 */
function markdown(url, meta, status, options = {}) {
  meta = meta || {};
  const final = meta.url || meta.originalURL || url;
  const lines = [];
  const title = text(meta.title);
  const h = host(final);
  const link = target(final);
  const heading = title || escapeMarkdown(h || url);
  lines.push(link ? `**[${heading}](${link})**` : `**${heading}**`);
  const site = text(meta.siteName);
  const byline = [site, h && escapeMarkdown(h)].filter(Boolean);
  if (byline.length && (title || site)) lines.push(byline.join(' · '));
  const summary = clean(meta.summary);
  if (summary) lines.push(escapeMarkdown(cut(summary)));
  const image = meta.image && target(meta.image.url);
  if (image && options.images !== false) {
    const alt = text(meta.image.alt) || 'preview image';
    lines.push(`![${alt}](${image})`);
  }
  if (meta.url && meta.url !== url && link) lines.push(`→ ${escapeMarkdown(meta.url)}`);
  if (status) lines.push(`*${escapeMarkdown(status)}*`);
  return lines.join('\n\n');
}

module.exports = { markdown, clean, escapeMarkdown, target, host, cut };
