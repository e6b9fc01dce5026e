import Curl

/// Reads an icon or image: its type and pixel size from the first bytes,
/// and all of its bytes only when the caller wants them.
///
/// - Important: a `TransferConsumer`: curl thread only.
final class MediaConsumer: TransferConsumer {
    struct Output: Sendable {
        var status: Int
        var declaredType: String?
        var declaredLength: Int?
        var bytes: [UInt8]
        /// True when every byte was read (so `bytes.count` is the size).
        var complete: Bool
    }

    private let keepAll: Bool
    private var status = 0
    private var declaredType: String?
    private var declaredLength: Int?
    private var bytes: [UInt8] = []
    private var stopped = false

    /// Bytes read before the probe is trusted for the pixel size (every
    /// format's header fits; the same as `PageConsumer.sniffBytes`).
    static let probeBytes = 512

    init(keepAll: Bool) {
        self.keepAll = keepAll
    }

    func responseStarted(_ head: ResponseHead) -> TransferDecision {
        status = head.status
        declaredType = head.mediaType
        // A lying server's "-5" or "99999999999999999999" is no length (`Int(String)` is nil past Int).
        declaredLength = head["content-length"].flatMap { Int($0) }.flatMap { $0 >= 0 ? $0 : nil }
        return (200..<300).contains(head.status) ? .proceed : .stop
    }

    func received(_ chunk: UnsafeRawBufferPointer) -> TransferDecision {
        bytes.append(contentsOf: chunk)
        // Without the data, the header bytes are enough once the size is
        // known from Content-Length (else read on, to count the bytes).
        if !keepAll, declaredLength != nil, bytes.count >= Self.probeBytes, ImageProbe.probe(bytes)?.width != nil {
            stopped = true
            return .stop
        }
        return .proceed
    }

    func finish() -> Output {
        Output(status: status, declaredType: declaredType, declaredLength: declaredLength,
               bytes: bytes, complete: !stopped)
    }
}
