#if canImport(Glibc)
import Glibc
#endif

/// Whole-buffer reads and writes on file descriptors: what the commands
/// used `FileHandle` for. `FileHandle` lives in full Foundation, which this
/// executable does not load (it costs the daemon about 6 MB of resident
/// memory), so these are POSIX calls.
enum StandardIO {
    /// A read that failed, with the system's sentence for it.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Writes all of `text`, retrying short writes and `EINTR`; gives up
    /// quietly on other errors (a closed pipe: nobody is reading).
    static func write(_ text: String, to descriptor: Int32) {
        _ = write(bytes: Array(text.utf8), to: descriptor)
    }

    /// Writes all of `bytes` (the same retries); false when a write failed.
    @discardableResult
    static func write(bytes: [UInt8], to descriptor: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                guard let base = buffer.baseAddress else { return 0 }
                return Glibc.write(descriptor, base + offset, buffer.count - offset)
            }
            if written < 0, errno == EINTR { continue }
            if written <= 0 { return false }
            offset += written
        }
        return true
    }

    static func writeError(_ text: String) {
        write(text, to: STDERR_FILENO)
    }

    /// Everything readable from `descriptor` until end of file.
    static func readAll(from descriptor: Int32) throws(Failure) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count < 0 { throw Failure(description: String(cString: strerror(errno))) }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    /// The whole file at `path`.
    static func readFile(_ path: String) throws(Failure) -> [UInt8] {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw Failure(description: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        return try readAll(from: descriptor)
    }
}
