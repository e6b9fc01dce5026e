import Foundation
import JSONRPC
import LinkPeek
import LinkPeekProtocol
import LinkPeekTestSupport
import Testing

/// Tier 2: getMedia and prefetch through the dispatcher (the fake service
/// transforms `data:` URLs with the real pipeline and libvips).
@Suite struct MediaTests {
    /// A 4×2 opaque red PNG.
    static let redPNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAQAAAACCAIAAADwyuo0AAAAEElEQVR42mM4IScHRwzIHABvCggh7qR9+QAAAABJRU5ErkJggg=="

    @Test func getMediaAnswersWithTheTransformedImage() async throws {
        let client = try TestClient()
        let answer = try await client.request(1, "getMedia", ["url": .string(Self.redPNG), "width": 8, "format": "webp"])
        let result = try #require(answer["result"])
        #expect(result["type"] == "image/webp")
        #expect(result["width"] == 8 && result["height"] == 4)
        #expect(result["sourceURL"] == "data:image/png")
        #expect(result["sourceType"] == "image/png")
        guard case .string(let data)? = result["data"], let bytes = Data(base64Encoded: data) else {
            Issue.record("no base64 data in \(result)")
            return
        }
        #expect(result["bytes"] == .int(bytes.count))
        #expect(bytes.prefix(4) == Data("RIFF".utf8))
        #expect(try await client.shutdownAndExit() == 0)
    }

    @Test func getMediaParamsAndFailures() async throws {
        let client = try TestClient()
        let cases: [(JSONValue, String)] = [
            (["url": .string(Self.redPNG), "width": 0], "width must be an integer from 1 to 2048 (pixels)"),
            (["url": .string(Self.redPNG), "height": 1e300], "height must be an integer from 1 to 2048 (pixels)"),
            (["url": .string(Self.redPNG), "dpr": 0.5], "dpr must be a number from 1 to 4"),
            (["url": .string(Self.redPNG), "quality": 101], "quality must be an integer from 1 to 100"),
            (["url": .string(Self.redPNG), "format": "bmp"], "format must be one of png, webp, jpeg, avif, original"),
            (["url": .string(Self.redPNG), "background": "#12345"], "background must be a colour like #ffffff"),
            (["width": 10], "url is required"),
            (["url": .string(Self.redPNG), "partialResultToken": "p"],
             "partialResultToken is not supported by getMedia: its result is one image (workDoneToken reports progress)"),
        ]
        for (index, (params, message)) in cases.enumerated() {
            let answer = try await client.request(.int(index), "getMedia", params)
            #expect(answer.errorCode == -32602)
            #expect(answer.errorMessage == message)
        }
        let garbage = try await client.request(50, "getMedia", ["url": "data:image/png;base64,aGVsbG8="])
        #expect(garbage.errorCode == -32000)
        #expect(garbage["error"]?["data"] == ["kind": "failed", "reason": "unsupportedImage"])
        #expect(try await client.shutdownAndExit() == 0)
    }

    @Test func prefetchCountsAndReportsProgress() async throws {
        let client = try TestClient()
        client.send(.request(id: 1, method: "prefetch", params: [
            "urls": ["https://fast/a", "https://fail/b", "https://fast/c"], "workDoneToken": "warm"]))
        var progress: [JSONValue] = []
        while true {
            let message = try await client.next()
            if message["id"] == 1 {
                let result = try #require(message["result"])
                #expect(result["total"] == 3 && result["succeeded"] == 2 && result["failed"] == 1)
                guard case .array(let failures)? = result["failures"] else {
                    Issue.record("no failures array in \(result)")
                    break
                }
                #expect(failures.count == 1 && failures.first?["url"] == "https://fail/b")
                #expect(failures.first?["reason"] == "httpStatus")
                break
            }
            progress.append(message["params"]?["value"] ?? .null)
        }
        #expect(progress.first?["kind"] == "begin" && progress.first?["title"] == "Prefetching 3 links")
        #expect(progress.last?["kind"] == "end")
        #expect(progress.contains { $0["kind"] == "report" && $0["message"] == "3/3" && $0["percentage"] == 100 })
        let empty = try await client.request(2, "prefetch", ["urls": []])
        #expect(empty.errorMessage == "urls must hold 1 to 1000 URLs")
        #expect(try await client.shutdownAndExit() == 0)
    }

    @Test func prefetchIsCancellableByProvider() async throws {
        let service = FakeService()
        let client = try TestClient(service: service)
        client.send(.request(id: 1, method: "prefetch", params: ["urls": ["https://slow/1", "https://slow/2"], "providerId": "p"]))
        try await service.wait(until: { $0.fetchCount >= 1 }, "the prefetch started")
        let cancel = try await client.request(2, "cancel", ["providerId": "p"])
        #expect(cancel["result"] == ["cancelled": true])
        #expect(try await client.response(1)["error"]?["code"] == -32800)
        let again = try await client.request(3, "prefetch", ["urls": ["https://fast/"], "providerId": "p"])
        #expect(again.errorCode == -32003)
        #expect(try await client.shutdownAndExit() == 0)
    }
}

/// The protocol's lists of choices and the engine's enums are written in
/// two modules (LinkPeekProtocol has no dependencies): they must agree.
@Suite struct MediaChoicesTests {
    @Test func protocolChoicesMatchTheEngine() {
        #expect(GetMediaParams.kinds == ImageTransform.Kind.allCases.map(\.rawValue))
        #expect(GetMediaParams.fits == ImageTransform.Fit.allCases.map(\.rawValue))
        #expect(GetMediaParams.formats == ImageTransform.Format.allCases.map(\.rawValue))
    }
}
