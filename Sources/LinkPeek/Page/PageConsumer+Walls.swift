import HTMLHead

/// Which bytes of a 2xx page are searched for a wall's forms
/// (`WallEvidence`): only those of a page whose head declares no preview of
/// its own (`WallDetector.declaresPreview`), since a page that does is
/// never judged a wall by its forms. Until the head is complete the bytes
/// are kept (at most `WallEvidence.maximumBytes`), then searched or dropped;
/// most pages are never searched at all.
extension PageConsumer {
    enum WallScan {
        /// The head is not complete yet; the bytes so far are kept.
        case undecided([UInt8])
        case scanning
        case skipped
    }

    /// Called with every chunk of a 2xx response, before it is parsed.
    func noteForWalls(_ bytes: UnsafeRawBufferPointer) {
        switch wallScan {
        case .scanning:
            wallEvidence.scan(bytes)
        case .skipped:
            return
        case .undecided(var kept):
            if let scanner, scanner.headComplete {
                decideWallScan(document: scanner.document)
                if case .scanning = wallScan { wallEvidence.scan(bytes) }
                return
            }
            wallScan = .skipped  // while `kept` is not shared, so the append does not copy
            kept.append(contentsOf: bytes.prefix(WallEvidence.maximumBytes - kept.count))
            wallScan = .undecided(kept)
        }
    }

    /// Decides once the head is known (or the page ended): search what was kept and what follows, or nothing.
    func decideWallScan(document: HeadDocument?) {
        guard case .undecided(let kept) = wallScan else { return }
        guard let document, body == .html, !WallDetector.declaresPreview(document) else {
            wallScan = .skipped
            return
        }
        wallScan = .scanning
        wallEvidence.scan(kept)
    }
}
