import Curl
import Testing
@testable import LinkPeek

/// The live fetch's stop rule: body fallbacks never end the reading early.
@Suite struct PageConsumerStopTests {
    /// Feeds `html` in one chunk and tells whether the consumer stopped.
    private func stops(_ html: String) -> Bool {
        let consumer = PageConsumer(bodyScanBytes: 64 * 1024, onEvent: { _ in })
        let decision = Array(html.utf8).withUnsafeBytes { consumer.received($0) }
        if case .stop = decision { return true }
        return false
    }

    private let head = "<html><head><title>T</title><meta name=description content=D></head><body>"
    private let padding = String(repeating: "<div>filler text</div>\n", count: 40)

    @Test func bodyImageDoesNotStopTheReading() {
        // A declared image may still come in body JSON-LD; an <img> must not end the read.
        #expect(!stops(head + "<h1>H</h1><img src=/photo.jpg width=800 height=600><p>Some paragraph text here.</p>" + padding))
    }

    @Test func declaredImageStopsTheReading() {
        let declared = "<html><head><title>T</title><meta name=description content=D>"
            + "<meta property=og:image content=/og.png></head><body>"
        #expect(stops(declared + padding))
    }
}
