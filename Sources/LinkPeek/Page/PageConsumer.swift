import Curl
import HTMLHead

/// Turns a page's bytes into a `HeadDocument` as they arrive, and stops the
/// transfer as soon as more bytes cannot add anything: at the end of the head
/// when it declared every field the rules could still use
/// (`DeclaredFields.isEverything`), else after `bodyScanBytes` of body, read
/// for late tags, bylines and dates. Once the head gave the main fields
/// (`DeclaredFields.holdsBody`) the body is held unparsed until it shows a
/// sign of what is missing (`BodyEvidence`).
///
/// - Important: a `TransferConsumer`: curl thread only.
final class PageConsumer: TransferConsumer {
    /// What the consumer tells the fetch while it runs.
    enum Event {
        case connecting
        /// The request is sent; the answer has not started (`TransferConsumer.requestSent`).
        case waiting
        /// The final response's status line and header fields (after any redirects).
        case responded(ResponseHead)
        case downloading(bytes: Int)
        /// The head is complete; what it holds so far, and the bytes read.
        case headParsed(HeadDocument, bytes: Int)
    }

    struct Output: Sendable {
        /// What the response turned out to be.
        var body: Body
        var document: HeadDocument?
        /// The first bytes of a media response (image/video/audio), for probing.
        var mediaPrefix: [UInt8]
        /// What the first bytes showed of a wall (`WallDetector`).
        var wallEvidence = WallEvidence()
    }

    enum Body: Sendable, Equatable {
        case html
        case media(type: String)
        /// Not something linkpeek can preview; the sentence says why.
        case unsupported(String)
        case empty
    }

    let bodyScanBytes: Int
    let onEvent: @Sendable (Event) -> Void
    var body: Body?
    var contentType: String?
    var sniffBuffer: [UInt8] = []
    var mediaPrefix: [UInt8] = []
    var scanner: HeadScanner?
    var bytesSeen = 0
    var sentHead = false
    var elementsChecked = -1
    /// What the head declared so far (`HeadDocument.declaredFields`), kept
    /// up to date element by element.
    var declared = DeclaredFieldsTally()
    /// Where the page's markup ends its head (`</head`, `<body`), which may
    /// be long after the parser started the body.
    var headEnd = HeadEndMarker()
    /// Body bytes read but not parsed: the head gave the main fields and the
    /// body has shown no sign yet of the others (`BodyEvidence`).
    var held: [UInt8] = []
    var holding = false
    /// The body showed a sign of a missing field: it is parsed to the budget.
    var readingOn = false
    /// Past the budget, the body is held and searched for a late byline or
    /// date (`searchPastBudget`).
    var searching = false
    /// Past the budget, where parsing after the last sign ends (body bytes).
    var parsedUntil = 0
    /// What the head declared, as of the last check.
    var declaredSoFar = DeclaredFields()
    var evidence = BodyEvidence()
    /// Forms, password fields and bot-check words (`WallDetector`, `PageConsumer+Walls`).
    var wallEvidence = WallEvidence(markers: .forms)
    var wallScan = WallScan.undecided([])
    /// The error page of a status a bot check answers with is read (its first bytes only), not parsed.
    var readingErrorPage = false

    /// Bytes kept of a media response: enough for every image header linkpeek probes.
    static let mediaPrefixBytes = 64 * 1024
    /// Bytes looked at before deciding what an undeclared or suspicious body is.
    static let sniffBytes = 512

    init(bodyScanBytes: Int, onEvent: @escaping @Sendable (Event) -> Void) {
        self.bodyScanBytes = bodyScanBytes
        self.onEvent = onEvent
    }

    func connecting() { onEvent(.connecting) }
    func requestSent() { onEvent(.waiting) }

    func responseStarted(_ head: ResponseHead) -> TransferDecision {
        onEvent(.responded(head))
        onEvent(.downloading(bytes: 0))
        // Error pages are not previews: the status is the answer, unless
        // the page may be a bot check (`WallDetector`), whose first bytes say so.
        guard (200..<300).contains(head.status) else {
            readingErrorPage = WallDetector.challengeStatuses.contains(head.status)
            wallEvidence = WallEvidence(markers: .everything)
            return readingErrorPage ? .proceed : .stop
        }
        contentType = head["content-type"]
        guard let type = head.mediaType, type != "application/octet-stream", type != "text/plain" else {
            return .proceed  // sniff the first bytes
        }
        return decide(declared: type)
    }

    func received(_ bytes: UnsafeRawBufferPointer) -> TransferDecision {
        bytesSeen += bytes.count
        if readingErrorPage {
            wallEvidence.scan(bytes)
            // Optional reading: a stalled error page ends with what came (`.settle`).
            return wallEvidence.isFull || wallEvidence.challengePhrase ? .stop : .settle
        }
        noteForWalls(bytes)
        // Every chunk is reported; the daemon merges bursts into a few notifications.
        onEvent(.downloading(bytes: bytesSeen))
        // Until a scanner exists, bytes are sniffed: undeclared bodies for
        // their type, declared HTML for binary garbage.
        if let scanner {
            headEnd.scan(bytes)
            if holding || searching { return hold(bytes, scanner: scanner) }
            return parse(bytes, scanner: scanner)
        }
        switch body {
        case nil, .html?:
            sniffBuffer.append(contentsOf: bytes)
            guard sniffBuffer.count >= Self.sniffBytes else { return .proceed }
            return decideFromSniffBuffer()
        case .media?:
            mediaPrefix.append(contentsOf: bytes.prefix(Self.mediaPrefixBytes - mediaPrefix.count))
            let probed = ImageProbe.probe(mediaPrefix)
            let enough = mediaPrefix.count >= Self.mediaPrefixBytes || probed?.width != nil
            return enough ? .stop : .proceed
        case .unsupported?, .empty?:
            return .stop
        }
    }

    func finish() -> Output {
        if body == nil || (body == .html && scanner == nil) {
            if sniffBuffer.isEmpty {
                body = .empty
            } else {
                _ = decideFromSniffBuffer()
            }
        }
        let document = scanner?.finish()
        decideWallScan(document: document)
        // A short page ends before libxml2 reports the end of its head: the
        // partial result still goes out before the final one.
        if let document, !sentHead {
            sentHead = true
            onEvent(.headParsed(document, bytes: bytesSeen))
        }
        return Output(body: body ?? .empty, document: document, mediaPrefix: mediaPrefix, wallEvidence: wallEvidence)
    }
}
