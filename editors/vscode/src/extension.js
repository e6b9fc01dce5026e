'use strict';
// linkpeek for VS Code: a hover card for every URL in every document, and the
// commands "linkpeek: Preview Link" and "linkpeek: Save Link". The daemon is
// `linkpeek serve`, spoken to over its stdin/stdout by ./client.js.

const vscode = require('vscode');
const { Daemon } = require('./daemon');
const { Documents } = require('./documents');
const protocol = require('./protocol');
const preview = require('./preview');
const card = require('./card');
const urls = require('./url');

const NO_SAVED = 'linkpeek: this linkpeek daemon has no saved links (`save` needs a newer linkpeek)';
let daemon;
let output;
const documents = new Documents();

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

function settings() {
  const c = vscode.workspace.getConfiguration('linkpeek');
  return {
    binary: c.get('binary') || 'linkpeek',
    allowPrivateNetwork: !!c.get('allowPrivateNetwork'),
    hoverTimeout: seconds(c, 'hoverTimeout', 1.5),
    timeout: seconds(c, 'timeout', undefined),
    showImages: c.get('showImages') !== false,
  };
}

function urlAt(document, position) {
  const line = document.lineAt(position.line).text;
  const hit = urls.at(line, position.character);
  return hit && { url: hit.url, range: new vscode.Range(position.line, hit.start, position.line, hit.end) };
}

const hoverProvider = {
  async provideHover(document, position, token) {
    const result = await preview.hover(daemon, documents, document, position, {
      onCancel: (fn) => token && token.onCancellationRequested(fn),
    });
    if (!result) return undefined;
    const md = new vscode.MarkdownString(result.markdown);
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
      report: (r) => progress.report({ message: r.partial ? (card.clean(r.partial.title) || 'loading…') : `${r.stage}…` }),
    }));
    const title = card.clean(meta.title) || card.host(meta.url || url) || url;
    const summary = card.clean(meta.summary);
    const choice = await vscode.window.showInformationMessage(summary ? `${title} — ${card.cut(summary, 200)}` : title, 'Open');
    if (choice === 'Open') await vscode.env.openExternal(vscode.Uri.parse(meta.url || url));
    return meta;
  } catch (err) {
    if (err.code !== protocol.errors.cancelled) vscode.window.showErrorMessage(`linkpeek: ${err.message}`);
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
    else vscode.window.showErrorMessage(`linkpeek: ${err.message}`);
    return undefined;
  }
}

function activate(context) {
  output = vscode.window.createOutputChannel('linkpeek');
  daemon = new Daemon(settings, (t) => output.append(t), (t) => vscode.window.showErrorMessage(t));
  context.subscriptions.push(
    output,
    vscode.languages.registerHoverProvider({ scheme: '*' }, hoverProvider),
    vscode.commands.registerCommand('linkpeek.preview', previewLink),
    vscode.commands.registerCommand('linkpeek.save', saveLink),
    vscode.workspace.onDidCloseTextDocument((d) => documents.close(d)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('linkpeek')) daemon.restart();
    }),
  );
  return { daemon: () => daemon, hoverProvider };
}

async function deactivate() {
  if (daemon) await daemon.stop();
}

module.exports = { activate, deactivate, NO_SAVED };
