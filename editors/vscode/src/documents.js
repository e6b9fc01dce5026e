'use strict';
// The daemon's copy of the documents a hover needs. A document is sent
// (didOpen) the first time a URL in it is hovered, and again as a whole
// (didChange, full text) when its version has changed since; didClose when
// the editor closes it. The copies belong to one daemon: a restarted daemon
// starts with none.

const protocol = require('./protocol');

class Documents {
  constructor() {
    this.client = undefined;
    this.versions = new Map(); // uri -> version the daemon has
  }

  /** Make sure `client` has `document` at its current version. */
  sync(client, document) {
    if (client !== this.client) {
      this.client = client;
      this.versions.clear();
    }
    const uri = document.uri.toString();
    const known = this.versions.get(uri);
    if (known === document.version) return;
    if (known === undefined) {
      client.notify(protocol.methods.didOpen, {
        textDocument: { uri, languageId: document.languageId, version: document.version, text: document.getText() },
      });
    } else {
      client.notify(protocol.methods.didChange, {
        textDocument: { uri, version: document.version }, contentChanges: [{ text: document.getText() }],
      });
    }
    this.versions.set(uri, document.version);
  }

  close(document) {
    const uri = document.uri.toString();
    if (this.client && this.versions.delete(uri)) {
      this.client.notify(protocol.methods.didClose, { textDocument: { uri } });
    }
  }
}

module.exports = { Documents };
