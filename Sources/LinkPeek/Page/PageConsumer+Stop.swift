#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Curl
import HTMLHead

/// The stop rule: when the head is complete, whether to stop, to hold the
/// body unparsed until it shows a sign of a missing field, or to parse on to
/// the body budget; past the budget, whether to search on for a late byline
/// or date.
extension PageConsumer {
    /// Stops once the head is complete and either the page declared every
    /// field the rules could still use (`DeclaredFields.isEverything`) or the
    /// head was followed by `bodyScanBytes` of body (`bodyBytesRead`). Once
    /// the main fields are declared (`holdsBody`) the body is held unparsed
    /// (`hold`) until it shows a sign of the rest; from then on the reading
    /// is optional (`.settle`): a body that comes slowly or stalls ends it
    /// after `Transfer.settleMilliseconds` with what was read. A page that
    /// declared no author or no date is searched on past the budget
    /// (`searchPastBudget`).
    func afterScanning() -> TransferDecision {
        guard let scanner, scanner.headComplete else { return .proceed }
        if !sentHead {
            sentHead = true
            onEvent(.headParsed(scanner.document, bytes: bytesSeen))
        }
        // Re-check only when the scanner found something new, and only then
        // build the document (a copy of every element while one is open).
        // Body fallbacks (an `<img>`, a byline) do not count as declared
        // fields: the reading goes on for what the page declares late, such
        // as body JSON-LD, and the fallbacks keep being collected meanwhile.
        if scanner.elementCount != elementsChecked {
            let document = scanner.document
            elementsChecked = document.elements.count
            let fields = declared.update(document)
            declaredSoFar = fields
            if fields.isEverything { return .stop }
            if fields.holdsBody, !readingOn {
                // What was parsed of the body already may show a sign (the
                // parser reports the head's end a chunk late).
                if document.elements.contains(where: BodyEvidence.isSign) { readingOn = true } else { holding = true }
            }
        }
        let read = bodyBytesRead(scanner)
        if read >= bodyScanBytes, read >= parsedUntil { return searchPastBudget(read: read) }
        return holding || readingOn ? .settle : .proceed
    }

    /// At the body budget: stops, unless the page declared no author or no
    /// date, whose byline or `<time>` may sit further down. Then the body is
    /// held and searched (`hold`), without parsing, up to `searchBytes`; a
    /// sign parses what was held and `signTailBytes` more
    /// (`BodyEvidence`), in the parser's own context (the landmarks the
    /// rules weigh a byline by), and the search goes on.
    func searchPastBudget(read: Int) -> TransferDecision {
        guard lacksBylineOrDate, read < searchBytes else { return .stop }
        searching = true
        held = []
        evidence.restart()
        return .settle
    }

    /// The page declared no author or no date so far: the fields the body
    /// gives most often, and furthest down.
    var lacksBylineOrDate: Bool { !declaredSoFar.isSuperset(of: [.author, .published]) }

    /// How far into the body a byline or date is searched for
    /// (`BodyEvidence.reach`): further for an article.
    var searchBytes: Int {
        guard let scanner else { return 2 * bodyScanBytes }
        return evidence.reach(budget: bodyScanBytes, article: declaredSoFar.contains(.article),
                              read: bodyBytesRead(scanner)) { scanner.document }
    }

    /// Parses the chunk just received (the last `bytes.count` of
    /// `bytesSeen`). When the page's head ends in it, the chunk is parsed in
    /// two: up to the `>` of its `</head>` or `<body>`, then the stop rule,
    /// then the rest (held, when the rule said so), so that a head that
    /// answers the card ends the reading before libxml2 sees any body.
    func parse(_ bytes: UnsafeRawBufferPointer, scanner: HeadScanner) -> TransferDecision {
        let chunkStart = bytesSeen - bytes.count
        guard !scanner.headComplete, let end = headEnd.end, end > chunkStart, end < bytesSeen,
            let base = bytes.baseAddress,
            let close = memchr(base + (end - chunkStart), Int32(UInt8(ascii: ">")), bytesSeen - end)
        else {
            scanner.feed(bytes)
            return afterFeeding(bytes)
        }
        let cut = base.distance(to: UnsafeRawPointer(close)) + 1
        let head = UnsafeRawBufferPointer(rebasing: bytes[..<cut])
        let seen = bytesSeen
        bytesSeen = chunkStart + cut
        scanner.feed(head)
        let decision = afterFeeding(head)
        bytesSeen = seen
        guard decision != .stop, cut < bytes.count else { return decision }
        let rest = UnsafeRawBufferPointer(rebasing: bytes[cut...])
        if holding || searching { return hold(rest, scanner: scanner) }
        scanner.feed(rest)
        return afterFeeding(rest)
    }

    /// `afterScanning` for a chunk just parsed. When the chunk made the
    /// consumer start holding, its own body part (after the page's head end)
    /// was parsed already: a sign of a missing field there means reading on.
    func afterFeeding(_ bytes: UnsafeRawBufferPointer) -> TransferDecision {
        let decision = afterScanning()
        guard holding, decision != .stop, let end = headEnd.end else { return decision }
        let chunkStart = bytesSeen - bytes.count
        guard end < bytesSeen else { return decision }
        var search = BodyEvidence()
        search.lookFor(lacking: declaredSoFar)
        if search.search(Array(bytes[max(0, end - chunkStart)...])) {
            holding = false
            readingOn = true
        }
        return decision
    }

    /// Holds body bytes unparsed, looking for a sign of a missing field
    /// (`BodyEvidence`); at the first, parses what was held and reads on to
    /// the budget. Without one within `holdLimit` of body the
    /// transfer ends and the held bytes are dropped: they add nothing the
    /// rules use (the main fields are declared, so the body fallbacks are
    /// not chosen). The held bytes count too, which bounds them when the
    /// page's own head end has not come (a stray body element in the head).
    ///
    /// Past the budget (`searching`) the same: at a sign the held bytes are
    /// parsed, and at least `signTailBytes` more (the byline's name or the
    /// date follows its marker), then the search goes on to `searchBytes`.
    func hold(_ bytes: UnsafeRawBufferPointer, scanner: HeadScanner) -> TransferDecision {
        if held.isEmpty {
            // Room for what is usually held, once: growing by doubling from
            // a chunk copied the held bytes over again several times a page.
            held.reserveCapacity(max(bytes.count, min(holdLimit, bodyScanBytes, Self.heldReserveBytes) + Self.holdSlackBytes))
        }
        held.append(contentsOf: bytes)
        evidence.lookFor(lacking: declaredSoFar)
        guard evidence.search(held) else {
            let read = max(held.count, bodyBytesRead(scanner))
            return read >= holdLimit ? .stop : .settle
        }
        parsedUntil = bodyBytesRead(scanner) + Self.signTailBytes
        holding = false
        searching = false
        readingOn = true
        let parsed = held
        held = []
        evidence.restart()
        parsed.withUnsafeBytes { scanner.feed($0) }
        return afterScanning()
    }

    /// How much body may be held without a sign before the reading ends:
    /// past the budget, `searchBytes`; before it, the whole search for a
    /// page that declared no author or no date; the budget for an article
    /// that declared them (its player, the one field left, sits up to 55 KiB
    /// into the body on the open corpus: it was parsed that far before it
    /// was held); `evidenceWindowBytes` for any other page (players and
    /// microdata sit near the top of the body).
    private var holdLimit: Int {
        if searching || lacksBylineOrDate { return searchBytes }
        if declaredSoFar.contains(.article) { return bodyScanBytes }
        return min(bodyScanBytes, Self.evidenceWindowBytes)
    }

    /// How much body a page that is no article and gave its main fields,
    /// author and date may show before a sign of a missing field must have
    /// appeared: bylines, dates and players of such pages sit near the top
    /// of the body (1–13 KiB into it on the open corpus, one of seven at 43
    /// KiB), and each further KiB is read from the network by every such page.
    static let evidenceWindowBytes = 16 * 1024

    /// Room reserved past the hold's limit for the chunk that crosses it
    /// (curl hands at most 16 KiB at a time).
    static let holdSlackBytes = 16 * 1024

    /// The most reserved for held bytes up front (the default budget);
    /// a longer hold grows as it goes.
    static let heldReserveBytes = 64 * 1024

    /// Bytes of body read: after the page's own `</head>` or `<body>`. When
    /// the parser started the body sooner (a stray `<img>` or `<div>` in the
    /// head), the head's `<meta>` tags still follow: the count waits for the
    /// marker, at most `impliedHeadBytes` past where the parser's body began.
    /// Held bytes count as read.
    func bodyBytesRead(_ scanner: HeadScanner) -> Int {
        let afterHead = scanner.bytesAfterHead + held.count
        if let end = headEnd.end { return min(afterHead, max(0, bytesSeen - end)) }
        return max(0, afterHead - Self.impliedHeadBytes)
    }

    /// Bytes parsed after a sign found past the budget: a byline's name, a
    /// `<time>`'s text and a JSON-LD block follow their marker closely.
    static let signTailBytes = 8 * 1024

    /// How long a head may go on after the parser started the body, before
    /// the body budget starts counting anyway.
    static let impliedHeadBytes = 512 * 1024
}
