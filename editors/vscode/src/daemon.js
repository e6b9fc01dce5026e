'use strict';
// One linkpeek daemon per window: started on first use, initialised with the
// settings, and started again with exponential backoff when it dies (after
// five quick deaths in a row it stays down and says so once).

const { Client } = require('./client');
const protocol = require('./protocol');
const binary = require('./binary');

/** No binary to run: `message` is the sentence to show (how to install linkpeek). */
class MissingBinary extends Error {
  constructor(message) {
    super(message);
    this.missing = true;
  }
}

const BACKOFF = { firstMs: 500, maxMs: 30000, maxQuick: 5, resetAfterMs: 60000 };

class Daemon {
  /**
   * settings(): {binary, allowPrivateNetwork, timeout, hoverTimeout, hoverImages, acceptLanguage, hover}; log(text); warn(text);
   * locate(setting): {path} or {missing} (binary.find; tests give their own).
   */
  constructor(settings, log, warn, locate = binary.find) {
    this.settings = settings;
    this.locate = locate;
    this.log = log || (() => {});
    this.warn = warn || (() => {});
    this.client = undefined;
    this.ready = undefined; // Promise<Client>
    this.quickDeaths = 0;
    this.startedAt = 0;
    this.stopped = false;
    this.restartTimer = undefined;
  }

  command() {
    const s = this.settings();
    const found = this.locate(s.binary);
    if (!found.path) throw new MissingBinary(found.missing);
    const cmd = [found.path, 'serve'];
    if (s.allowPrivateNetwork) cmd.push('--allow-private-network');
    return cmd;
  }

  /** The initialised client, starting the daemon if needed. */
  get() {
    if (this.stopped) return Promise.reject(new Error('linkpeek is stopped'));
    if (!this.ready) {
      const ready = this.start();
      this.ready = ready;
      // No binary: the next use looks again (it may have been installed since).
      ready.catch((err) => { if (err.missing && this.ready === ready) this.ready = undefined; });
    }
    return this.ready;
  }

  async start() {
    const s = this.settings();
    const client = new Client(this.command());
    this.client = client;
    this.startedAt = Date.now();
    client.on('stderr', (t) => this.log(t));
    client.on('exit', (code, signal, err) => this.onExit(client, code, signal, err));
    try {
      await client.request(protocol.methods.initialize, {
        processId: process.pid,
        clientInfo: { name: 'linkpeek-vscode' },
        capabilities: protocol.capabilities,
        initializationOptions: protocol.initOptions(s),
      });
    } catch (err) {
      // spawn's ENOENT: the file went away, or a script's interpreter is missing.
      if (client.spawnError && client.spawnError.code === 'ENOENT') throw new MissingBinary(binary.INSTALL);
      throw err;
    }
    client.notify(protocol.methods.initialized, {});
    return client;
  }

  onExit(client, code, signal, err) {
    if (client !== this.client) return;
    this.client = undefined;
    this.ready = undefined;
    if (this.stopped) return;
    if (err && err.code === 'ENOENT') return; // nothing to restart: the next use looks for the binary again
    if (Date.now() - this.startedAt > BACKOFF.resetAfterMs) this.quickDeaths = 0;
    this.quickDeaths += 1;
    if (this.quickDeaths > BACKOFF.maxQuick) {
      this.warn(`linkpeek: the daemon keeps exiting (${err ? err.message : `code ${code}, signal ${signal}`}); not restarting it`);
      return;
    }
    const wait = Math.min(BACKOFF.maxMs, BACKOFF.firstMs * 2 ** (this.quickDeaths - 1));
    this.log(`linkpeek: the daemon exited (code ${code}, signal ${signal}); restarting in ${wait} ms\n`);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (!this.stopped && !this.ready) this.ready = this.start();
      this.ready && this.ready.catch(() => {});
    }, wait);
  }

  /** Settings changed: stop this daemon; the next use starts one with the new settings. */
  async restart() {
    this.quickDeaths = 0;
    const client = this.client;
    this.client = undefined;
    this.ready = undefined;
    if (client) await client.stop();
  }

  async stop() {
    this.stopped = true;
    this.quickDeaths = 0;
    clearTimeout(this.restartTimer);
    const client = this.client;
    this.client = undefined;
    this.ready = undefined;
    if (client) await client.stop();
  }
}

module.exports = { Daemon, BACKOFF, MissingBinary };
