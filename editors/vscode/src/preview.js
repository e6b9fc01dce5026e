'use strict';
// Fetching a card for the editor: the hover (answer within a budget with
// what is known) and the streaming preview (progress, then the partial
// result, then the whole card). Nothing here knows the vscode API.

const protocol = require('./protocol');

let nextToken = 0; // tokens for $/progress, unique per extension host
function token(kind) {
  nextToken += 1;
  return `linkpeek-vscode-${kind}-${nextToken}`;
}

/**
 * The daemon's hover card at `position` of `document` (LSP textDocument/hover;
 * the daemon finds the URL, waits at most its hoverTimeout and escapes the
 * page's text): {markdown, range} or undefined. `onCancel(fn)` registers the
 * editor's cancellation: the hover is cancelled ($/cancelRequest), which
 * never cancels the daemon's shared fetch, so a later hover finds it cached.
 */
async function hover(daemon, documents, document, position, { onCancel }) {
  const client = await daemon.get();
  documents.sync(client, document);
  const { id, promise } = client.send(protocol.methods.hover, {
    textDocument: { uri: document.uri.toString() },
    position: { line: position.line, character: position.character },
  });
  let cancelled = false;
  if (onCancel) onCancel(() => { cancelled = true; client.cancel(id); });
  try {
    const result = await promise;
    if (cancelled || !result || !result.contents) return undefined;
    return { markdown: result.contents.value, range: result.range };
  } catch (err) {
    if (err.code === protocol.errors.cancelled) return undefined;
    throw err;
  }
}

/**
 * Fetch `url` with progress and the partial result streamed to `report`
 * ({stage, bytes} or {partial: meta}); resolves with the metadata. `onCancel`
 * registers the editor's cancellation: the fetch is cancelled ($/cancelRequest).
 */
async function stream(daemon, url, { timeout, report, onCancel }) {
  const client = await daemon.get();
  const work = token('work');
  const partial = token('partial');
  client.stream(work, (v) => {
    if (protocol.isWorkDone(v) && v.kind !== 'end') report({ stage: v.stage || v.message, bytes: v.bytes });
  });
  client.stream(partial, (v) => { if (!protocol.isWorkDone(v)) report({ partial: v }); });
  const { id, promise } = client.send(protocol.methods.fetch, protocol.fetchParams(url, { work, partial }, timeout));
  if (onCancel) onCancel(() => client.cancel(id));
  try {
    return await promise;
  } finally {
    client.release(work);
    client.release(partial);
  }
}

module.exports = { hover, stream };
