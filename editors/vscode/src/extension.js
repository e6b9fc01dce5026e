'use strict';
// linkpeek for VS Code: a hover card for the URLs of files and untitled
// documents, and the commands "linkpeek: Preview Link", "linkpeek: Save
// Link" and "linkpeek: Check the Installation". The daemon is `linkpeek
// serve`, spoken to over its stdin/stdout by ./client.js.

const vscode = require('vscode');
const { Daemon } = require('./daemon');
const { Documents } = require('./documents');
const protocol = require('./protocol');
const preview = require('./preview');
const card = require('./card');
const urls = require('./url');
const binary = require('./binary');
const { execFile } = require('child_process');

const NO_SAVED = 'linkpeek: this linkpeek daemon has no saved links (`save` needs a newer linkpeek)';

/**
 * The documents whose URLs get a hover: files and untitled buffers only
 * (not output panes, git views, settings or other extensions' documents),
 * and none larger than MAX_DOCUMENT_BYTES, since a hover sends the whole
 * document to the daemon on each new version.
 */
const SELECTOR = [{ scheme: 'file' }, { scheme: 'untitled' }];
const MAX_DOCUMENT_BYTES = 1024 * 1024;

let daemon;
let output;
let missingSaid = false; // the install sentence was shown for a hover; said again only after linkpeek was found
const documents = new Documents();

/** Whether `document` is small enough to send (UTF-8 bytes, counted only when it might be too large). */
function sendable(document) {
  const text = document.getText();
  return text.length * 3 <= MAX_DOCUMENT_BYTES || Buffer.byteLength(text, 'utf8') <= MAX_DOCUMENT_BYTES;
}

function seconds(config, key, fallback) {
  const v = config.get(key);
  const range = protocol.ranges[key];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'number' || !(v >= range.min && v <= range.max)) {
    vscode.window.showErrorMessage(`linkpeek.${key} must be a number of seconds from ${range.min} to ${range.max}; using ${fallback ?? "the daemon's default"}`);
    return fallback;
  }
  return v;
}

/** A setting the user gave (in any scope), or undefined when only the default applies. */
function given(config, key) {
  const i = config.inspect(key);
  if (!i) return undefined;
  for (const scope of ['workspaceFolderValue', 'workspaceValue', 'globalValue']) {
    if (i[scope] !== undefined) return i[scope];
  }
  return undefined;
}

/** linkpeek.acceptLanguage when it is a string ("" sends none), else VS Code's language. */
function acceptLanguage(config) {
  const v = config.get('acceptLanguage');
  if (typeof v === 'string') return v;
  if (v !== undefined && v !== null) {
    vscode.window.showErrorMessage("linkpeek.acceptLanguage must be a string; using VS Code's language");
  }
  return protocol.editorLanguage(vscode.env.language);
}

function settings() {
  const c = vscode.workspace.getConfiguration('linkpeek');
  // `showImages` is the old name of `hoverImages`: read when only it was set.
  const images = given(c, 'hoverImages') ?? given(c, 'showImages') ?? c.get('hoverImages');
  return {
    binary: c.get('binary') || null,
    allowPrivateNetwork: !!c.get('allowPrivateNetwork'),
    hoverTimeout: seconds(c, 'hoverTimeout', 1.5),
    timeout: seconds(c, 'timeout', undefined),
    hoverImages: images !== false,
    acceptLanguage: acceptLanguage(c),
    hover: hoverSettings(c),
  };
}

/** linkpeek.hover.fetch/allow/deny as initializationOptions.hover: only those set (the daemon's file keeps the rest). */
function hoverSettings(config) {
  const hover = {};
  const fetch = config.get('hover.fetch');
  if (protocol.hoverFetchModes.includes(fetch)) hover.fetch = fetch;
  else if (fetch !== undefined && fetch !== null) {
    vscode.window.showErrorMessage(`linkpeek.hover.fetch must be one of ${protocol.hoverFetchModes.join(', ')}; using the daemon's`);
  }
  for (const [key, setting] of [['allow', 'hover.allow'], ['deny', 'hover.deny']]) {
    const v = config.get(setting);
    if (Array.isArray(v) && v.every((p) => typeof p === 'string')) hover[key] = v;
    else if (v !== undefined && v !== null) vscode.window.showErrorMessage(`linkpeek.${setting} must be a list of host patterns`);
  }
  return Object.keys(hover).length ? hover : undefined;
}

function urlAt(document, position) {
  const line = document.lineAt(position.line).text;
  const hit = urls.at(line, position.character);
  return hit && { url: hit.url, range: new vscode.Range(position.line, hit.start, position.line, hit.end) };
}

const hoverProvider = {
  async provideHover(document, position, token) {
    if (!sendable(document)) return undefined;
    let result;
    try {
      result = await preview.hover(daemon, documents, document, position, {
        onCancel: (fn) => token && token.onCancellationRequested(fn),
      });
    } catch (err) {
      if (!err.missing) throw err;
      // No binary: say how to install it once, not on every hover.
      if (!missingSaid) vscode.window.showErrorMessage(err.message);
      missingSaid = true;
      return undefined;
    }
    missingSaid = false;
    if (!result) return undefined;
    // A refused private address: the hint names the extension's setting.
    const md = new vscode.MarkdownString(card.withPrivateNetworkHint(result.markdown));
    md.isTrusted = false;
    md.supportHtml = false;
    const r = result.range;
    return new vscode.Hover(md, r && new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character));
  },
};

function targetURL(arg) {
  if (typeof arg === 'string' && arg) return arg;
  const editor = vscode.window.activeTextEditor;
  const hit = editor && urlAt(editor.document, editor.selection.active);
  if (!hit) vscode.window.showWarningMessage('linkpeek: no URL under the cursor');
  return hit && hit.url;
}

async function previewLink(arg) {
  const url = targetURL(arg);
  if (!url) return undefined;
  const s = settings();
  try {
    const meta = await vscode.window.withProgress({
      location: vscode.ProgressLocation.Notification, title: `linkpeek: ${card.host(url) || url}`, cancellable: true,
    }, (progress, token) => preview.stream(daemon, url, {
      timeout: s.timeout,
      onCancel: (fn) => token.onCancellationRequested(fn),
      report: (r) => progress.report({ message: r.partial ? (card.clean(r.partial.title) || 'loading…') : `${card.stageLabel(r.stage) || 'loading'}…` }),
    }));
    const facts = card.siteLine(meta.site);
    const title = (card.clean(meta.title) || card.host(meta.url || url) || url) + (facts ? ` (${facts})` : '');
    const summary = card.clean(meta.summary);
    const choice = await vscode.window.showInformationMessage(summary ? `${title} — ${card.cut(summary, 200)}` : title, 'Open');
    if (choice === 'Open') await vscode.env.openExternal(vscode.Uri.parse(meta.url || url));
    return meta;
  } catch (err) {
    if (err.code !== protocol.errors.cancelled) vscode.window.showErrorMessage(err.missing ? err.message : card.errorText(err));
    return undefined;
  }
}

async function saveLink(arg) {
  const url = targetURL(arg);
  if (!url) return undefined;
  try {
    const client = await daemon.get();
    const result = await client.request(protocol.methods.save, { url });
    const meta = protocol.entryMetadata(result);
    vscode.window.showInformationMessage(`linkpeek: saved ${card.clean(meta.title) || url}`);
    return result;
  } catch (err) {
    if (err.code === protocol.errors.methodNotFound) vscode.window.showWarningMessage(NO_SAVED);
    else vscode.window.showErrorMessage(err.missing ? err.message : card.errorText(err));
    return undefined;
  }
}

/** "linkpeek: Check the Installation": the binary, its version, whether the daemon answers (in the output channel). */
async function doctor() {
  const s = settings();
  const found = binary.find(s.binary);
  const lines = [];
  if (!found.path) {
    lines.push(found.missing);
    if (!binary.isSet(s.binary)) lines.push(`looked on PATH, then in ${binary.places().join(', ')}`);
  } else {
    lines.push(`binary: ${found.path}${binary.isSet(s.binary) ? ' (the linkpeek.binary setting)' : ''}`);
    lines.push(await new Promise((resolve) => {
      execFile(found.path, ['--version'], { timeout: 10000 }, (err, stdout, stderr) => {
        resolve(err ? `\`linkpeek --version\` failed: ${(stderr || err.message).trim()}` : `version: ${stdout.trim()}`);
      });
    }));
    try {
      const client = await daemon.get();
      await client.request(protocol.methods.getCached, { url: 'https://linkpeek.invalid/doctor' });
      lines.push(`the daemon answers (pid ${client.pid})`);
    } catch (err) {
      lines.push(`the daemon does not answer: ${err.message}`);
    }
  }
  for (const line of lines) output.appendLine(line);
  output.show(true);
  return lines.join('\n');
}

function activate(context) {
  output = vscode.window.createOutputChannel('linkpeek');
  daemon = new Daemon(settings, (t) => output.append(t), (t) => vscode.window.showErrorMessage(t));
  context.subscriptions.push(
    output,
    vscode.languages.registerHoverProvider(SELECTOR, hoverProvider),
    vscode.commands.registerCommand('linkpeek.preview', previewLink),
    vscode.commands.registerCommand('linkpeek.save', saveLink),
    vscode.commands.registerCommand('linkpeek.doctor', doctor),
    vscode.workspace.onDidCloseTextDocument((d) => documents.close(d)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('linkpeek')) {
        missingSaid = false;
        daemon.restart();
      }
    }),
  );
  return { daemon: () => daemon, hoverProvider };
}

async function deactivate() {
  if (daemon) await daemon.stop();
}

module.exports = { activate, deactivate, NO_SAVED, SELECTOR, MAX_DOCUMENT_BYTES };
