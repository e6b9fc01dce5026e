extension OutputQueue {
    /// Makes the caller the writer of one `count`-byte message, if nothing
    /// is queued or being written (so the message cannot overtake another)
    /// and the queue is open. The caller then writes it and calls
    /// `endInline`. The bytes count as pending meanwhile, as queued ones do.
    func claimInline(_ count: Int) -> Bool {
        state.withLock { state in
            guard !state.closing, !state.broken, !state.writing, state.chunks.isEmpty else { return false }
            state.writing = true
            state.pendingBytes += count
            return true
        }
    }

    /// Ends an inline write. `unwritten` (the output could not take it
    /// without blocking) goes first in the queue, for the writer thread.
    func endInline(unwritten: [UInt8]?) {
        let wakeWriter = state.withLock { state -> Bool in
            state.writing = false
            if let unwritten, !state.broken { state.chunks.insert(unwritten, at: 0) }
            return !state.chunks.isEmpty || state.closing
        }
        // Whatever was queued meanwhile, or a close, is the writer thread's
        // (which, finding the output busy, went back to waiting). Otherwise
        // it sleeps on: waking it for nothing is what writing inline saves.
        if wakeWriter { available.signal() }
    }
}
