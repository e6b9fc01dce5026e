#if canImport(Glibc)
import Glibc
#endif

/// The configuration file's TOML document as last parsed, kept under the
/// cache directory (`XDG.cacheDirectory`, one file per configuration path),
/// so that a start whose file has not changed skips the TOML parser (toml++
/// costs about 280 instructions a byte: some 5 ms for 200 `[[site]]` rules).
///
/// A cache is used only when it holds exactly the file's bytes and was
/// written by the same binary version in the same format; otherwise the
/// file is parsed as ever and the cache rewritten. What it stores is the
/// parser's output, not options: every value from it goes through the same
/// checks (`TableReader`) as a value from the parser, so the options, the
/// problems and their lines are the same either way, and a cache, damaged
/// or written by someone else, can give no option the file could not. A
/// cache that cannot be read, is not whole (its checksum), or does not
/// decode (every length and count is checked against what is left, the
/// depth against `ConfigNode.maxDepth`) is ignored. It is written mode 600
/// (the file's bytes may hold a token) to a temporary name, then renamed.
public struct ConfigCache: Sendable {
    public let directory: String
    /// The format and the binary's version a cache must have been written with.
    let stamp: [UInt8]

    static let magic = Array("linkpeek-config-cache 1\n".utf8)
    /// A cache holds at most the largest file `ConfigText` allows, and its document.
    static let maxBytes = 8 * ConfigText.maxBytes

    public init(directory: String, binaryVersion: String) {
        self.directory = directory
        stamp = Self.magic + Array(binaryVersion.utf8)
    }

    /// The cache under `$XDG_CACHE_HOME/linkpeek`.
    public static func standard(_ environment: [String: String], binaryVersion: String) -> ConfigCache {
        ConfigCache(directory: XDG.cacheDirectory(environment), binaryVersion: binaryVersion)
    }

    /// The cache file of the configuration file at `path`.
    public func file(for path: String) -> String {
        let hash = Self.checksum(Array(path.utf8)[...])
        let hex = String(hash, radix: 16)
        return directory + "/config-" + String(repeating: "0", count: 16 - hex.count) + hex + ".cache"
    }

    /// The document cached for `path` with exactly `source` as its bytes, or nil.
    func document(for path: String, source: [UInt8]) -> ConfigTable? {
        guard let bytes = Self.readFile(file(for: path)) else { return nil }
        return Self.decode(bytes, stamp: stamp, source: source)
    }

    /// Keeps `table` as the document of `path` with `source` as its bytes;
    /// a cache that cannot be written is no cache (nothing is said).
    func keep(_ table: ConfigTable, for path: String, source: [UInt8]) {
        let target = file(for: path)
        let parent = directory.lastIndex(of: "/").map { String(directory[..<$0]) } ?? ""
        if !parent.isEmpty { mkdir(parent, 0o700) }
        mkdir(directory, 0o700)
        let temporary = target + ".\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return }
        let bytes = Self.encode(stamp: stamp, source: source, table: table)
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress.map { $0 + written }, $0.count - written) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            written += count
        }
        close(fd)
        if written != bytes.count || rename(temporary, target) != 0 { unlink(temporary) }
    }

    private static func readFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size >= 0, info.st_size <= maxBytes else {
            return nil
        }
        let size = Int(info.st_size)
        var bytes = [UInt8](repeating: 0, count: size)
        var filled = 0
        while filled < size {
            let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress.map { $0 + filled }, size - filled) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            filled += count
        }
        return bytes
    }

    // MARK: - The format
    //
    // stamp length (u32), stamp; source length (u32), source; checksum of
    // the rest (u64, FNV-1a); then the document, a table. A node is a tag
    // byte and its payload: table (count u32, then key and node each), array
    // (count u32, nodes), string (length u32, UTF-8), int (i64), double (its
    // bits, u64), bool (0 or 1), other (nothing). All little-endian.

    enum Tag: UInt8 {
        case table = 1, array, string, int, double, bool, other
    }

    static func encode(stamp: [UInt8], source: [UInt8], table: ConfigTable) -> [UInt8] {
        var document: [UInt8] = []
        document.reserveCapacity(source.count)
        encode(table, into: &document)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(stamp.count + source.count + document.count + 16)
        append(UInt64(stamp.count), bytes: 4, to: &bytes)
        bytes += stamp
        append(UInt64(source.count), bytes: 4, to: &bytes)
        bytes += source
        append(checksum(document[...]), bytes: 8, to: &bytes)
        bytes += document
        return bytes
    }

    private static func encode(_ table: ConfigTable, into bytes: inout [UInt8]) {
        append(UInt64(table.keys.count), bytes: 4, to: &bytes)
        for (key, value) in table.entries {
            append(UInt64(key.utf8.count), bytes: 4, to: &bytes)
            bytes += key.utf8
            encode(value, into: &bytes)
        }
    }

    private static func encode(_ node: ConfigNode, into bytes: inout [UInt8]) {
        switch node {
        case .table(let table):
            bytes.append(Tag.table.rawValue)
            encode(table, into: &bytes)
        case .array(let items):
            bytes.append(Tag.array.rawValue)
            append(UInt64(items.count), bytes: 4, to: &bytes)
            for item in items { encode(item, into: &bytes) }
        case .string(let text):
            bytes.append(Tag.string.rawValue)
            append(UInt64(text.utf8.count), bytes: 4, to: &bytes)
            bytes += text.utf8
        case .int(let number):
            bytes.append(Tag.int.rawValue)
            append(UInt64(bitPattern: number), bytes: 8, to: &bytes)
        case .double(let number):
            bytes.append(Tag.double.rawValue)
            append(number.bitPattern, bytes: 8, to: &bytes)
        case .bool(let flag):
            bytes.append(Tag.bool.rawValue)
            bytes.append(flag ? 1 : 0)
        case .other:
            bytes.append(Tag.other.rawValue)
        }
    }

    private static func append(_ value: UInt64, bytes count: Int, to bytes: inout [UInt8]) {
        for shift in 0..<count { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * shift))) }
    }

    /// The document of a cache, nil unless `bytes` is a whole cache of
    /// `stamp`'s format and version for exactly `source`.
    static func decode(_ bytes: [UInt8], stamp: [UInt8], source: [UInt8]) -> ConfigTable? {
        bytes.withUnsafeBytes { buffer in
            var reader = Decoder(bytes: buffer)
            guard let stampLength = reader.number(4), let stored = reader.slice(stampLength), same(stored, stamp),
                let sourceLength = reader.number(4), sourceLength == source.count, let kept = reader.slice(sourceLength),
                same(kept, source), let sum = reader.bits(), checksum(UnsafeRawBufferPointer(rebasing: buffer[reader.index...])) == sum,
                let table = reader.table(depth: 0), reader.index == buffer.count
            else { return nil }
            return table
        }
    }

    /// Whether `slice` holds exactly `bytes` (one `memcmp`).
    private static func same(_ slice: UnsafeRawBufferPointer, _ bytes: [UInt8]) -> Bool {
        guard slice.count == bytes.count else { return false }
        return bytes.withUnsafeBytes { whole in
            guard let left = slice.baseAddress, let right = whole.baseAddress else { return whole.isEmpty }
            return memcmp(left, right, whole.count) == 0
        }
    }

    /// FNV-1a, 64 bits: finds a damaged cache (it is no defence against a forged one, nor need be).
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.withUnsafeBytes { checksum($0) }
    }

    /// Reads a cache front to back; every read checks what is left first.
    struct Decoder {
        let bytes: UnsafeRawBufferPointer
        var index = 0

        /// A little-endian unsigned number of 1 or 4 bytes.
        mutating func number(_ count: Int) -> Int? {
            guard count <= bytes.count - index else { return nil }
            defer { index += count }
            if count == 4 { return Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt32.self))) }
            var value = 0
            for shift in 0..<count { value |= Int(bytes[index + shift]) << (8 * shift) }
            return value
        }

        mutating func bits() -> UInt64? {
            guard 8 <= bytes.count - index else { return nil }
            defer { index += 8 }
            return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
        }

        mutating func slice(_ count: Int) -> UnsafeRawBufferPointer? {
            guard count >= 0, count <= bytes.count - index else { return nil }
            defer { index += count }
            return UnsafeRawBufferPointer(rebasing: bytes[index..<index + count])
        }

        /// A string, nil unless its bytes are UTF-8 (decoding would repair them: it must give them back).
        mutating func string() -> String? {
            guard let length = number(4), let slice = slice(length) else { return nil }
            let text = String(decoding: slice, as: UTF8.self)
            if slice.allSatisfy({ $0 < 0x80 }) { return text }
            return text.utf8.elementsEqual(slice) ? text : nil
        }

        mutating func table(depth: Int) -> ConfigTable? {
            // Each entry takes at least 5 bytes: a count above that is a lie.
            guard let count = number(4), count <= (bytes.count - index) / 5 else { return nil }
            var keys: [String] = []
            var values: [ConfigNode] = []
            keys.reserveCapacity(count)
            values.reserveCapacity(count)
            for _ in 0..<count {
                guard let key = string(), let value = node(depth: depth) else { return nil }
                keys.append(key)
                values.append(value)
            }
            return ConfigTable(keys: keys, values: values)
        }

        mutating func node(depth: Int) -> ConfigNode? {
            guard let raw = number(1), let tag = Tag(rawValue: UInt8(raw)) else { return nil }
            // Below the depth the document is read to, only `.other` (as `ConfigNode.init` makes it).
            guard depth < ConfigNode.maxDepth else { return tag == .other ? .other : nil }
            switch tag {
            case .table: return table(depth: depth + 1).map(ConfigNode.table)
            case .array:
                guard let count = number(4), count <= bytes.count - index else { return nil }
                var items: [ConfigNode] = []
                items.reserveCapacity(count)
                for _ in 0..<count {
                    guard let item = node(depth: depth + 1) else { return nil }
                    items.append(item)
                }
                return .array(items)
            case .string: return string().map(ConfigNode.string)
            case .int: return bits().map { .int(Int64(bitPattern: $0)) }
            case .double: return bits().map { .double(Double(bitPattern: $0)) }
            case .bool:
                switch number(1) {
                case 0?: return .bool(false)
                case 1?: return .bool(true)
                default: return nil
                }
            case .other: return .other
            }
        }
    }
}
