internal import CHiredis

/// zlib's one-shot compress and uncompress, over byte arrays (zlib is loaded
/// with hiredis on first use: fleet entries are compressed before they go to Redis).
public enum Zlib {
    /// Whether zlib can be loaded; loads it on the first call.
    public static var isAvailable: Bool { lp_zlib_load(nil, 0) == 1 }

    /// `bytes` deflated (zlib format, level 6); nil when zlib is missing.
    public static func compress(_ bytes: [UInt8]) -> [UInt8]? {
        guard isAvailable else { return nil }
        var capacity = compressBound(uLong(bytes.count))
        var output = [UInt8](repeating: 0, count: Int(capacity))
        let status = output.withUnsafeMutableBufferPointer { destination in
            bytes.withUnsafeBufferPointer { source in
                compress2(destination.baseAddress, &capacity, source.baseAddress, uLong(source.count), 6)
            }
        }
        guard status == Z_OK else { return nil }
        output.removeSubrange(Int(capacity)...)
        return output
    }

    /// `bytes` inflated, when they are one zlib stream, nothing after it, that
    /// inflates to exactly `size` bytes (the size the writer recorded); nil
    /// for anything else: damaged, truncated, trailing bytes, or larger.
    public static func decompress(_ bytes: [UInt8], size: Int) -> [UInt8]? {
        guard isAvailable, size >= 0, size <= maximumSize else { return nil }
        var length = uLong(size)
        var consumed = uLong(bytes.count)
        var output = [UInt8](repeating: 0, count: max(size, 1))
        let status = output.withUnsafeMutableBufferPointer { destination in
            bytes.withUnsafeBufferPointer { source in
                uncompress2(destination.baseAddress, &length, source.baseAddress, &consumed)
            }
        }
        guard status == Z_OK, length == uLong(size), consumed == uLong(bytes.count) else { return nil }
        if size == 0 { return [] }
        return output
    }

    /// The largest size `decompress` accepts (a preview is a few KiB; this bounds a hostile entry's cost).
    public static let maximumSize = 8 * 1024 * 1024
}
