internal import CVips

/// One libvips image, released when this goes away.
///
/// Not `Sendable`: an image is used by the one operation that made it.
final class VipsImage {
    let pointer: OpaquePointer

    /// Takes over a reference; nil (with libvips's error) when `pointer` is nil.
    static func adopt(_ pointer: OpaquePointer?, _ kind: ImageError.Kind) -> Result<VipsImage, ImageError> {
        guard let pointer else { return .failure(ImageError(kind, Vips.takeError())) }
        return .success(VipsImage(pointer))
    }

    private init(_ pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        lp_vips_unref(pointer)
    }

    var width: Int { Int(lp_vips_width(pointer)) }
    /// The height of one frame (the whole height for a still image).
    var pageHeight: Int { Int(lp_vips_page_height(pointer)) }
    var hasAlpha: Bool { lp_vips_has_alpha(pointer) != 0 }

    /// This image over an opaque background.
    func flattened(onto colour: RGB) -> Result<VipsImage, ImageError> {
        Self.adopt(
            lp_vips_flatten(pointer, Double(colour.red), Double(colour.green), Double(colour.blue)), .decode)
    }

    /// Encoded as `suffix` says (".png[strip]"). Decoding is lazy in
    /// libvips, so decode errors surface here too and count as `.decode`,
    /// and so does the time: past `timeLimit` seconds the work is stopped.
    func encoded(_ suffix: String, timeLimit: Double) -> Result<[UInt8], ImageError> {
        var bytes: UnsafeMutableRawPointer?
        var length = 0
        var timedOut: Int32 = 0
        let status = lp_vips_write(pointer, suffix, timeLimit, &bytes, &length, &timedOut)
        if timedOut != 0 {
            _ = Vips.takeError()
            return .failure(ImageError(.timedOut, "stopped after \(timeLimit) s"))
        }
        guard status == 0, let bytes else {
            return .failure(ImageError(.decode, Vips.takeError()))
        }
        defer { lp_vips_free(bytes) }
        return .success(Array(UnsafeRawBufferPointer(start: bytes, count: length)))
    }
}
