'use strict';
// A small stand-in for the `vscode` module, enough for the extension's tests:
// it records what the extension shows and registers, and lets a test drive
// hovers, commands, settings and cancellation. `install()` makes
// require('vscode') return it.

const Module = require('module');

const recorded = { info: [], warnings: [], errors: [], progress: [], opened: [], hovers: [], commands: new Map(), closeListeners: [] };
const settings = {};
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
    const listeners = [];
    this.token = {
      isCancellationRequested: false,
      onCancellationRequested: (fn) => { listeners.push(fn); return { dispose() {} }; },
    };
    this.cancel = () => {
      this.token.isCancellationRequested = true;
      for (const fn of listeners.splice(0)) fn();
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

const vscode = {
  Position, Range, MarkdownString, Hover, CancellationTokenSource,
  ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
  Uri: { parse: (s) => ({ toString: () => s }) },
  env: { openExternal: async (uri) => { recorded.opened.push(uri.toString()); return true; } },
  workspace: {
    getConfiguration: () => ({ get: (key) => settings[key] }),
    onDidChangeConfiguration: () => ({ dispose() {} }),
    onDidCloseTextDocument: (fn) => { recorded.closeListeners.push(fn); return { dispose() {} }; },
  },
  window: {
    activeTextEditor: undefined,
    createOutputChannel: () => ({ append() {}, appendLine() {}, dispose() {} }),
    showInformationMessage: message(recorded.info),
    showWarningMessage: message(recorded.warnings),
    showErrorMessage: message(recorded.errors),
    withProgress: (options, task) => {
      const source = new CancellationTokenSource();
      if (cancelProgressAfterMs !== undefined) setTimeout(() => source.cancel(), cancelProgressAfterMs);
      const progress = { report: (v) => recorded.progress.push({ ...v, t: Date.now() }) };
      return task(progress, source.token);
    },
  },
  languages: {
    registerHoverProvider: (selector, provider) => { recorded.hovers.push({ selector, provider }); return { dispose() {} }; },
  },
  commands: {
    registerCommand: (id, fn) => { recorded.commands.set(id, fn); return { dispose() {} }; },
    executeCommand: (id, ...args) => recorded.commands.get(id)(...args),
  },
};

let documents = 0;

/** A text document of `text` (lines split on \n), with a fresh URI; `edit(text)` makes a new version. */
function document(text, languageId = 'markdown') {
  documents += 1;
  const uri = `untitled:Untitled-${documents}`;
  const doc = {
    languageId, version: 1, uri: { toString: () => uri },
    getText: () => text,
    lineAt: (i) => ({ text: text.split('\n')[i] }),
    get lineCount() { return text.split('\n').length; },
    edit: (next) => { text = next; doc.version += 1; },
  };
  return doc;
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
  vscode, recorded, settings, document, install,
  choose: (item) => { nextChoice = item; },
  cancelProgressAfter: (ms) => { cancelProgressAfterMs = ms; },
};
