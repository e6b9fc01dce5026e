import Curl
import HTMLHead
import TextTrimming

extension PageConsumer {
    /// Decides from the declared media type.
    func decide(declared type: String) -> TransferDecision {
        if Self.isHTML(type) {
            // Declared HTML is still checked for binary garbage before parsing.
            body = .html
            return .proceed
        }
        if type.hasPrefix("image/") || type.hasPrefix("video/") || type.hasPrefix("audio/") {
            body = .media(type: type)
            // Video and audio have no header worth probing here.
            return type.hasPrefix("image/") ? .proceed : .stop
        }
        body = .unsupported("the content type \(type) is not a web page or media")
        return .stop
    }

    /// Decides once the first bytes are in (or the body ended sooner).
    func decideFromSniffBuffer() -> TransferDecision {
        let declaredHTML = body == .html
        let binary = Self.looksBinary(sniffBuffer, contentType: contentType)
        // Undeclared bodies are what their bytes say; text that is not
        // recognisably anything else is read as HTML.
        let sniffed = declaredHTML ? nil : ContentSniffer.sniff(sniffBuffer)
        if let sniffed, !Self.isHTML(sniffed), binary || sniffed != "text/plain" {
            body = nil
            let decision = decide(declared: sniffed)
            if case .media = body { return feedMedia() ?? decision }
            return decision
        }
        if binary {
            body = .unsupported(
                declaredHTML ? "the page says it is HTML but its content is binary" : "the content is binary, not a web page")
            return .stop
        }
        body = .html
        let scanner = HeadScanner(contentType: contentType, bodyRecords: MetadataRules.bodyRecords)
        self.scanner = scanner
        let buffered = sniffBuffer
        sniffBuffer = []
        return buffered.withUnsafeBytes {
            headEnd.scan($0)
            return parse($0, scanner: scanner)
        }
    }

    private func feedMedia() -> TransferDecision? {
        mediaPrefix = Array(sniffBuffer.prefix(Self.mediaPrefixBytes))
        sniffBuffer = []
        return ImageProbe.probe(mediaPrefix)?.width != nil ? .stop : nil
    }

    static func isHTML(_ type: String) -> Bool {
        type == "text/html" || type == "application/xhtml+xml"
    }

    /// WHATWG MIME sniffing's "binary data bytes": control bytes that never
    /// occur in text. UTF-16 pages (with a BOM, or declared by the HTTP
    /// charset) are text despite their NULs.
    static func looksBinary(_ bytes: [UInt8], contentType: String?) -> Bool {
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) { return false }
        if let contentType, contentType.containsIgnoringASCIICase("utf-16") { return false }
        return bytes.prefix(sniffBytes).contains { byte in
            byte <= 0x08 || byte == 0x0B || (0x0E...0x1A).contains(byte) || (0x1C...0x1F).contains(byte)
        }
    }
}
