'use strict';
// A small JSON-RPC client for `linkpeek serve` over child_process, in LSP
// framing (Content-Length headers). Requests resolve with their result or
// reject with an RpcError; $/progress values go to the listener of their
// token. No dependencies.

const { spawn } = require('child_process');
const { EventEmitter } = require('events');
const protocol = require('./protocol');

class RpcError extends Error {
  constructor(code, message, data) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

const HEADER_END = Buffer.from('\r\n\r\n');
const MAX_MESSAGE = 64 * 1024 * 1024;

class Client extends EventEmitter {
  /** command: [binary, ...args]; emits 'exit' (code, signal) and 'stderr' (text). */
  constructor(command) {
    super();
    this.nextId = 1;
    this.pending = new Map(); // id -> {resolve, reject}
    this.streams = new Map(); // token -> function(value)
    this.buffer = Buffer.alloc(0);
    this.exited = false;
    this.proc = spawn(command[0], command.slice(1), { stdio: ['pipe', 'pipe', 'pipe'] });
    this.pid = this.proc.pid;
    this.proc.stdout.on('data', (chunk) => this.onData(chunk));
    this.proc.stderr.on('data', (chunk) => this.emit('stderr', chunk.toString()));
    this.proc.stdin.on('error', () => {}); // EPIPE after the daemon died: 'exit' reports it
    this.proc.on('error', (err) => { this.spawnError = err; this.onExit(null, null, err); });
    this.proc.on('exit', (code, signal) => this.onExit(code, signal));
  }

  onExit(code, signal, err) {
    if (this.exited) return;
    this.exited = true;
    const why = new RpcError(-32099, err ? `linkpeek did not start: ${err.message}` : 'the linkpeek daemon exited');
    for (const { reject } of this.pending.values()) reject(why);
    this.pending.clear();
    this.emit('exit', code, signal, err);
  }

  onData(chunk) {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const end = this.buffer.indexOf(HEADER_END);
      if (end < 0) return;
      const header = this.buffer.subarray(0, end).toString('ascii');
      const match = /content-length:\s*(\d+)/i.exec(header);
      const length = match ? Number(match[1]) : NaN;
      if (!Number.isSafeInteger(length) || length > MAX_MESSAGE) {
        this.emit('stderr', `linkpeek: bad header from the daemon: ${header}\n`);
        this.proc.kill();
        return;
      }
      if (this.buffer.length < end + 4 + length) return;
      const body = this.buffer.subarray(end + 4, end + 4 + length).toString('utf8');
      this.buffer = this.buffer.subarray(end + 4 + length);
      let message;
      try {
        message = JSON.parse(body);
      } catch (e) {
        this.emit('stderr', `linkpeek: unreadable message from the daemon: ${e.message}\n`);
        continue;
      }
      this.dispatch(message);
    }
  }

  dispatch(m) {
    if (m.method === protocol.methods.progress && m.params) {
      const route = this.streams.get(m.params.token);
      if (route) route(m.params.value);
    } else if (m.method !== undefined && m.id !== undefined) {
      this.write({ jsonrpc: '2.0', id: m.id, result: null }); // server -> client request
    } else if (m.id !== undefined && this.pending.has(m.id)) {
      const { resolve, reject } = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (m.error) reject(new RpcError(m.error.code, m.error.message, m.error.data));
      else resolve(m.result === undefined ? null : m.result);
    }
  }

  write(message) {
    if (this.exited) return;
    const body = Buffer.from(JSON.stringify(message), 'utf8');
    this.proc.stdin.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]));
  }

  /** Send a request; returns {id, promise}. */
  send(method, params) {
    const id = this.nextId++;
    const promise = new Promise((resolve, reject) => {
      if (this.exited) return reject(new RpcError(-32099, 'the linkpeek daemon exited'));
      this.pending.set(id, { resolve, reject });
      this.write({ jsonrpc: '2.0', id, method, params });
    });
    return { id, promise };
  }

  request(method, params) {
    return this.send(method, params).promise;
  }

  notify(method, params) {
    this.write({ jsonrpc: '2.0', method, params });
  }

  /** Cancel a request the LSP way; its promise rejects with -32800. */
  cancel(id) {
    if (this.pending.has(id)) this.notify(protocol.methods.cancelRequest, { id });
  }

  /** Route $/progress values of `token` to `fn` until release(token). */
  stream(token, fn) {
    this.streams.set(token, fn);
  }

  release(token) {
    this.streams.delete(token);
  }

  /** shutdown, exit; kill the process (by its pid) if it has not gone within `ms`. */
  async stop(ms = 2000) {
    if (this.exited) return;
    const gone = new Promise((resolve) => this.once('exit', resolve));
    let wait;
    try {
      await Promise.race([this.request(protocol.methods.shutdown, null),
        new Promise((resolve) => { wait = setTimeout(resolve, ms); })]);
      this.notify(protocol.methods.exit);
      this.proc.stdin.end();
    } catch (_) {
      /* it died meanwhile: 'exit' has fired or will */
    } finally {
      clearTimeout(wait);
    }
    const kill = setTimeout(() => this.proc.kill('SIGKILL'), ms);
    await gone;
    clearTimeout(kill);
  }
}

module.exports = { Client, RpcError };
