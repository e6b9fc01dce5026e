'use strict';
// Fetching a card for the editor: the hover (answer within a budget with
// what is known) and the streaming preview (progress, then the partial
// result, then the whole card). Nothing here knows the vscode API.

const protocol = require('./protocol');
const card = require('./card');

let nextToken = 0;
function token(kind) {
  nextToken += 1;
  return `linkpeek-vscode-${kind}-${nextToken}`;
}

/**
 * The hover card of `url` within `budgetMs`: {markdown, complete}, or
 * undefined when `isCancelled` turns true first. A fetch still running when
 * the budget ends keeps running, so the next hover finds it cached.
 * `onCancel(fn)` registers the editor's cancellation callback.
 */
async function hover(daemon, url, { budgetMs, timeout, images, onCancel }) {
  const client = await daemon.get();
  const partialToken = token('hover');
  let partial;
  client.stream(partialToken, (v) => { if (!protocol.isWorkDone(v)) partial = v; });
  const { promise } = client.send(protocol.methods.fetch, protocol.fetchParams(url, { partial: partialToken }, timeout));
  const settled = promise.then((meta) => ({ meta }), (err) => ({ err }));
  settled.then(() => client.release(partialToken));
  const cancelled = new Promise((resolve) => onCancel && onCancel(() => resolve({ cancelled: true })));
  let timer;
  const late = new Promise((resolve) => { timer = setTimeout(() => resolve({ late: true }), budgetMs); });
  const outcome = await Promise.race([settled, late, cancelled]);
  clearTimeout(timer); // a pending budget timer would keep the extension host (and tests) busy
  if (outcome.cancelled) return undefined;
  if (outcome.meta) return { markdown: card.markdown(url, outcome.meta, undefined, { images }), complete: true };
  if (outcome.err) {
    const status = outcome.err.message || 'the fetch failed';
    return { markdown: card.markdown(url, { originalURL: url }, status, { images }), complete: true };
  }
  return { markdown: card.markdown(url, partial, 'loading…', { images }), complete: false };
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
