internal import CVips

// Contributor note (Images): Swift over libvips, as `Curl` is over libcurl.
// No C type escapes this module: callers pass bytes and plain values and get
// bytes back. Judgement (pixel caps, which formats, SVG checks, ICO entries)
// lives in `LinkPeek`; this module only runs libvips. Tests: this module's
// in ImagesTests, the pure parts of the pipeline in LinkPeekTests, the whole
// pipeline in Tests/integration/test_images.py.

/// libvips, opened and initialised on first use. Thread-safe (libvips is);
/// its operations block, so callers run them off Swift's cooperative pool
/// (`ImageWorker`).
public enum Vips {
    /// Opens libvips once; the later calls return the first outcome.
    public static func start() -> Result<Void, ImageError> {
        if lp_vips_start() == 0 { return .success(()) }
        return .failure(ImageError(.unavailable, takeError()))
    }

    /// Loads libvips's HEIF module (AVIF and HEIF, read and write), once.
    /// `start` loads no module (a JPEG needs none, and loading them all
    /// costs a one-shot `linkpeek image` a fifth of its time); call this
    /// before reading or writing AVIF or HEIF.
    public static func loadHEIF() -> Result<Void, ImageError> {
        if case .failure(let error) = start() { return .failure(error) }
        if lp_vips_load_heif() == 0 { return .success(()) }
        return .failure(ImageError(.unavailable, String(cString: lp_vips_heif_error())))
    }

    /// libvips's last error text, cleared; one line.
    static func takeError() -> String {
        var buffer = [CChar](repeating: 0, count: 1024)
        let text = buffer.withUnsafeMutableBufferPointer { pointer -> String in
            guard let base = pointer.baseAddress else { return "" }
            lp_vips_take_error(base, pointer.count)
            return String(cString: base)
        }
        let lines = text.split(whereSeparator: \.isNewline).map(String.init)
        return lines.first(where: { !$0.isEmpty }) ?? "libvips gave no reason"
    }
}

/// Why libvips could not do what was asked.
public struct ImageError: Error, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// libvips could not be loaded.
        case unavailable
        /// The bytes could not be decoded (corrupt, truncated, unknown).
        case decode
        /// The result could not be encoded in the format asked for.
        case encode
        /// Decoding and encoding took longer than the time limit.
        case timedOut
    }

    public var kind: Kind
    /// libvips's own words.
    public var detail: String

    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }
}
