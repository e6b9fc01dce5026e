'use strict';
// A small stand-in for the `vscode` module, as strict as VS Code where the
// extension depends on it: the extension is activated from its manifest
// (`main`, `activationEvents`); hovers reach it only through the document
// selector it registered (as vscode.executeHoverProvider does); settings
// fall back to the defaults of the manifest's `contributes.configuration`,
// and changing them fires onDidChangeConfiguration; a cancellation listener
// added after the cancel is called at once (on the next tick, as VS Code's
// CancellationToken does). It records what the extension shows. `install()`
// makes require('vscode') return it.

const Module = require('module');
const fs = require('fs');
const path = require('path');

const recorded = {
  info: [], warnings: [], errors: [], progress: [], opened: [], output: [],
  hovers: [], commands: new Map(), closeListeners: [], configListeners: [],
};
const settings = {}; // the user's values (global scope), by key without the section
let manifest;
let nextChoice;
let cancelProgressAfterMs;

class Position { constructor(line, character) { this.line = line; this.character = character; } }
class Range {
  constructor(l1, c1, l2, c2) { this.start = new Position(l1, c1); this.end = new Position(l2, c2); }
}
class MarkdownString { constructor(value) { this.value = value; } }
class Hover { constructor(contents, range) { this.contents = contents; this.range = range; } }

class CancellationTokenSource {
  constructor() {
    const listeners = new Set();
    this.token = {
      isCancellationRequested: false,
      onCancellationRequested: (fn) => {
        if (this.token.isCancellationRequested) {
          const handle = setTimeout(fn, 0); // VS Code's shortcutEvent
          return { dispose() { clearTimeout(handle); } };
        }
        listeners.add(fn);
        return { dispose() { listeners.delete(fn); } };
      },
    };
    this.cancel = () => {
      if (this.token.isCancellationRequested) return;
      this.token.isCancellationRequested = true;
      for (const fn of [...listeners]) fn();
      listeners.clear();
    };
  }
}

function message(list) {
  return (text, ...items) => {
    list.push(text);
    const choice = items.includes(nextChoice) ? nextChoice : undefined;
    return Promise.resolve(choice);
  };
}

/** The manifest default of `section.key`, from contributes.configuration. */
function defaultOf(section, key) {
  const props = (manifest && manifest.contributes.configuration.properties) || {};
  const entry = props[`${section}.${key}`];
  return entry ? entry.default : undefined;
}

function configuration(section) {
  const user = section === 'linkpeek' ? settings : {};
  return {
    get: (key, fallback) => {
      if (user[key] !== undefined) return user[key];
      const d = defaultOf(section, key);
      return d !== undefined ? d : fallback;
    },
    has: (key) => user[key] !== undefined || defaultOf(section, key) !== undefined,
    inspect: (key) => ({ key: `${section}.${key}`, defaultValue: defaultOf(section, key), globalValue: user[key] }),
  };
}

/** Change the user's settings (undefined removes one) and fire onDidChangeConfiguration, as VS Code does. */
function updateSettings(changes) {
  const keys = Object.keys(changes).map((k) => `linkpeek.${k}`);
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined) delete settings[k];
    else settings[k] = v;
  }
  const event = { affectsConfiguration: (s) => keys.some((k) => k === s || k.startsWith(`${s}.`)) };
  for (const fn of recorded.configListeners) fn(event);
}

/** VS Code's languages.match, reduced to what a selector can say here: language, scheme, '*'. */
function matches(selector, document) {
  if (Array.isArray(selector)) return selector.some((s) => matches(s, document));
  if (typeof selector === 'string') return selector === '*' || selector === document.languageId;
  if (!selector || typeof selector !== 'object') return false;
  if (selector.pattern !== undefined) throw new Error('the stub does not match glob patterns');
  if (selector.language !== undefined && selector.language !== '*' && selector.language !== document.languageId) return false;
  if (selector.scheme !== undefined && selector.scheme !== '*' && selector.scheme !== document.uri.scheme) return false;
  return selector.language !== undefined || selector.scheme !== undefined;
}

/** What vscode.executeHoverProvider gives: the hovers of every provider whose selector matches `document`. */
async function provideHovers(document, position, token) {
  const found = [];
  for (const { selector, provider } of recorded.hovers) {
    if (!matches(selector, document)) continue;
    const h = await provider.provideHover(document, position, token || new CancellationTokenSource().token);
    if (h) found.push(h);
  }
  return found;
}

const vscode = {
  Position, Range, MarkdownString, Hover, CancellationTokenSource,
  ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
  Uri: { parse: (s) => ({ scheme: s.split(':')[0], toString: () => s }) },
  // VS Code's display language (its default, English); a test changes it.
  env: { language: 'en', openExternal: async (uri) => { recorded.opened.push(uri.toString()); return true; } },
  workspace: {
    getConfiguration: configuration,
    onDidChangeConfiguration: (fn) => { recorded.configListeners.push(fn); return { dispose() {} }; },
    onDidCloseTextDocument: (fn) => { recorded.closeListeners.push(fn); return { dispose() {} }; },
  },
  window: {
    activeTextEditor: undefined,
    createOutputChannel: () => ({
      append(t) { recorded.output.push(t); }, appendLine(t) { recorded.output.push(`${t}\n`); }, show() {}, dispose() {},
    }),
    showInformationMessage: message(recorded.info),
    showWarningMessage: message(recorded.warnings),
    showErrorMessage: message(recorded.errors),
    withProgress: (options, task) => {
      const source = new CancellationTokenSource();
      if (cancelProgressAfterMs !== undefined) setTimeout(() => source.cancel(), cancelProgressAfterMs);
      const progress = { report: (v) => recorded.progress.push({ ...v }) };
      return task(progress, source.token);
    },
  },
  languages: {
    registerHoverProvider: (selector, provider) => { recorded.hovers.push({ selector, provider }); return { dispose() {} }; },
  },
  commands: {
    registerCommand: (id, fn) => {
      if (recorded.commands.has(id)) throw new Error(`command '${id}' already exists`);
      recorded.commands.set(id, fn);
      return { dispose() { recorded.commands.delete(id); } };
    },
    executeCommand: async (id, ...args) => {
      const fn = recorded.commands.get(id);
      if (!fn) throw new Error(`command '${id}' not found`);
      return fn(...args);
    },
  },
};

let documents = 0;

/**
 * A text document of `text` (lines split on \n) with a fresh URI of `scheme`
 * (untitled by default); `edit(text)` makes a new version.
 */
function document(text, { languageId = 'markdown', scheme = 'untitled' } = {}) {
  documents += 1;
  const uri = scheme === 'file' ? `file:///tmp/linkpeek-test-${documents}.md` : `${scheme}:Untitled-${documents}`;
  const doc = {
    languageId, version: 1, uri: { scheme, toString: () => uri },
    getText: () => text,
    lineAt: (i) => ({ text: text.split('\n')[i] }),
    get lineCount() { return text.split('\n').length; },
    edit: (next) => { text = next; doc.version += 1; },
  };
  return doc;
}

/**
 * Activate the extension in `dir` as VS Code does: read its package.json,
 * check an activation event fires at startup, require its `main`, call
 * `activate(context)`. Every command the manifest contributes must then be
 * registered. Returns {module, api, context}.
 */
function activateExtension(dir) {
  manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const events = manifest.activationEvents || [];
  if (!events.includes('onStartupFinished') && !events.includes('*')) {
    throw new Error(`no startup activation event in ${JSON.stringify(events)}`);
  }
  const mod = require(path.resolve(dir, manifest.main));
  const context = { subscriptions: [], extensionPath: dir };
  const api = mod.activate(context);
  for (const { command } of manifest.contributes.commands) {
    if (!recorded.commands.has(command)) throw new Error(`the manifest's command ${command} was not registered`);
  }
  return { module: mod, api, context };
}

function install() {
  const resolve = Module._resolveFilename;
  Module._resolveFilename = function (request, ...rest) {
    if (request === 'vscode') return 'vscode';
    return resolve.call(this, request, ...rest);
  };
  require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: vscode };
}

module.exports = {
  vscode, recorded, settings, document, install, activateExtension, provideHovers, updateSettings, matches,
  choose: (item) => { nextChoice = item; },
  cancelProgressAfter: (ms) => { cancelProgressAfterMs = ms; },
};
