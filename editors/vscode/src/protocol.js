'use strict';
// The linkpeek protocol as this extension uses it: method names, params,
// error codes, fields. It mirrors protocol/README.md (sections 4-6) of the
// linkpeek repository; when the protocol changes, this file changes with it,
// and no other file names a method or a field.

const methods = Object.freeze({
  initialize: 'initialize',
  initialized: 'initialized',
  shutdown: 'shutdown',
  exit: 'exit',
  fetch: 'fetch', // {url, timeout?, workDoneToken?, partialResultToken?} -> LinkMetadata
  getCached: 'getCached', // {url} -> LinkMetadata | null
  cancel: 'cancel', // {providerId} -> {cancelled}
  cancelRequest: '$/cancelRequest', // {id}
  progress: '$/progress', // {token, value}: work-done progress or a partial LinkMetadata
  didOpen: 'textDocument/didOpen', // {textDocument: {uri, languageId, version, text}}
  didChange: 'textDocument/didChange', // {textDocument: {uri, version}, contentChanges: [{text}]}
  didClose: 'textDocument/didClose', // {textDocument: {uri}}
  hover: 'textDocument/hover', // {textDocument: {uri}, position} -> {contents: {kind, value}, range} | null
  save: 'save', // {url, tags?} -> the saved entry (saved links)
  saved: 'saved', // {tag?, limit?, offset?} -> saved entries, newest first
});

const errors = Object.freeze({
  methodNotFound: -32601,
  invalidParams: -32602,
  cancelled: -32800,
  fetchFailed: -32000,
  timedOut: -32005,
});

/** `data.reason` values of a failed request that the extension explains (an open set, protocol/README.md section 5). */
const reasons = Object.freeze({
  blockedAddress: 'blockedAddress', // a loopback/private address, refused by the daemon's policy
  blocked: 'blocked', // the site showed a wall (`data.wall`: challenge, consent, login) instead of the page
  rateLimited: 'rateLimited', // HTTP 429/503, with `data.retryAfter` seconds
});

/**
 * The hover card's last line for a refused address (protocol/README.md,
 * textDocument/hover: the failure words), and the daemon's own hint that
 * follows them there. The extension puts its own setting's name in place of
 * the daemon's hint, so the card says it once, in the user's terms.
 */
const cardBlockedAddress = 'blocked: private address';
const cardBlockedAddressHint = ' (set allowPrivateNetwork to allow)';

/** How the message of a `blockedAddress` failure ends (protocol/README.md section 5): the daemon's names for the setting. */
const blockedAddressMessageHint =
  '; the allowPrivateNetwork setting (initializationOptions.allowPrivateNetwork, --allow-private-network) allows it';

/**
 * Work-done progress stages (protocol/README.md, `$/progress`), in their
 * order, with the words the preview shows; a stage not listed (a newer
 * daemon's) is shown by its name.
 */
const stages = Object.freeze({
  resolving: 'looking up the host',
  connecting: 'connecting',
  waiting: 'waiting for the server',
  downloading: 'downloading the page',
  parsing: 'reading the page',
  icon: 'fetching the icon',
  image: 'fetching the image',
  transforming: 'making the thumbnail',
});

/**
 * The client capabilities the extension announces: hover cards in Markdown
 * only (VS Code renders Markdown, and draws the card's `data:` thumbnail);
 * a plain-text card given to a MarkdownString would be read as Markdown.
 */
const capabilities = Object.freeze({ textDocument: { hover: { contentFormat: ['markdown'] } } });

/** The initializationOptions key that lifts the private-address refusal. */
const allowPrivateNetwork = 'allowPrivateNetwork';

/** The daemon's ranges for the numbers this extension sends (ParamRanges, protocol/README.md). */
const ranges = Object.freeze({
  timeout: { min: 0.001, max: 3600 }, // seconds
  hoverTimeout: { min: 0, max: 60 }, // seconds
});

/**
 * VS Code's display language (`vscode.env.language`, a BCP 47 tag in lower
 * case: `de`, `pt-br`, `zh-hant-tw`) as an Accept-Language value in the tag's
 * usual case (`de`, `pt-BR`, `zh-Hant-TW`); undefined for what is not a
 * language tag.
 */
function editorLanguage(language) {
  if (typeof language !== 'string') return undefined;
  const parts = language.split('-');
  if (!/^[A-Za-z]{2,3}$/.test(parts[0])) return undefined;
  if (!parts.slice(1).every((p) => /^[A-Za-z0-9]{1,8}$/.test(p))) return undefined;
  return parts.map((p, i) => {
    if (i === 0) return p.toLowerCase();
    if (/^[A-Za-z]{2}$/.test(p)) return p.toUpperCase();
    if (/^[A-Za-z]{4}$/.test(p)) return p[0].toUpperCase() + p.slice(1).toLowerCase();
    return p.toLowerCase();
  }).join('-');
}

/** initializationOptions.hover.fetch's values (protocol/config.md, hover.fetch). */
const hoverFetchModes = Object.freeze(['always', 'allowList', 'cacheOnly']);

/**
 * initializationOptions keys (protocol/README.md, `initialize`).
 * acceptLanguage: the linkpeek.acceptLanguage setting ("" sends none), else
 * VS Code's language; left out when neither gives one (the daemon's locale).
 */
function initOptions(settings) {
  const opts = {};
  if (settings.allowPrivateNetwork) opts[allowPrivateNetwork] = true;
  if (settings.timeout) opts.timeout = settings.timeout;
  if (settings.hoverTimeout !== undefined) opts.hoverTimeout = settings.hoverTimeout;
  opts.hoverImages = settings.hoverImages !== false;
  if (typeof settings.acceptLanguage === 'string') opts.acceptLanguage = settings.acceptLanguage;
  if (settings.hover) opts.hover = settings.hover;
  return opts;
}

/** The fetch params for a preview that streams progress and a partial result. */
function fetchParams(url, tokens, timeout) {
  const p = { url };
  if (timeout) p.timeout = timeout;
  if (tokens && tokens.work !== undefined) p.workDoneToken = tokens.work;
  if (tokens && tokens.partial !== undefined) p.partialResultToken = tokens.partial;
  return p;
}

/** Work-done progress has a `kind`; a partial result is a LinkMetadata, which never has one. */
function isWorkDone(value) {
  return !!value && ['begin', 'report', 'end'].includes(value.kind);
}

/** The `saved` answer: a bare array or an object holding it. */
function savedEntries(result) {
  if (Array.isArray(result)) return result;
  if (result && typeof result === 'object') return result.items || result.links || result.saved || [];
  return [];
}

/** A saved entry's metadata: nested under `metadata`, or the entry itself. */
function entryMetadata(entry) {
  return entry && typeof entry.metadata === 'object' && entry.metadata ? entry.metadata : (entry || {});
}

module.exports = { methods, errors, reasons, allowPrivateNetwork, cardBlockedAddress, cardBlockedAddressHint, blockedAddressMessageHint, stages, capabilities, ranges, hoverFetchModes, editorLanguage, initOptions, fetchParams, isWorkDone, savedEntries, entryMetadata };
