import CacheABI
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

// The C entry points linkpeek finds with `dlsym` after loading this library
// on first use of the cache. Only bytes cross (`CacheABI`): the two sides
// share no Swift types. This library links GRDB, SQLite and full Foundation
// (GRDB needs it); keeping them out of the executable keeps an idle daemon
// from paying for them (about 7 MB of resident memory).

/// A problem report, handed to linkpeek's callback as a C string.
public typealias ReportCallback = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Void

/// Makes a store: `config` is `directory: string?, sizeLimit: int`. Returns
/// a retained handle for `linkpeek_cache_call` (released by
/// `linkpeek_cache_release`), or nil when `config` is damaged.
@_cdecl("linkpeek_cache_open")
public func linkpeekCacheOpen(
    _ config: UnsafePointer<UInt8>?, _ count: Int, _ report: ReportCallback?, _ context: UnsafeMutableRawPointer?
) -> UnsafeMutableRawPointer? {
    var reader = ByteReader(config, count: count)
    guard let directory = reader.optional({ $0.string() }), let sizeLimit = reader.int() else { return nil }
    // The context is linkpeek's, valid for the handle's life; only its address crosses threads.
    let address = context.map { Int(bitPattern: $0) }
    let store = SQLiteStore(directory: directory, sizeLimit: sizeLimit) { message in
        let pointer = address.flatMap { UnsafeMutableRawPointer(bitPattern: $0) }
        message.withCString { report?(pointer, $0) }
    }
    return Unmanaged.passRetained(store).toOpaque()
}

@_cdecl("linkpeek_cache_release")
public func linkpeekCacheRelease(_ handle: UnsafeMutableRawPointer?) {
    guard let handle else { return }
    Unmanaged<SQLiteStore>.fromOpaque(handle).release()
}

/// Runs one `CacheCall`; returns its output in a buffer from `malloc` (free
/// it with `linkpeek_cache_free`) and its size in `outputCount`, or nil when
/// the call failed or has no output.
@_cdecl("linkpeek_cache_call")
public func linkpeekCacheCall(
    _ handle: UnsafeMutableRawPointer?, _ call: Int32, _ input: UnsafePointer<UInt8>?, _ inputCount: Int,
    _ outputCount: UnsafeMutablePointer<Int>?
) -> UnsafeMutablePointer<UInt8>? {
    outputCount?.pointee = 0
    guard let handle, let call = CacheCall(rawValue: call) else { return nil }
    let store = Unmanaged<SQLiteStore>.fromOpaque(handle).takeUnretainedValue()
    var reader = ByteReader(input, count: inputCount)
    guard let output = store.perform(call, &reader) else { return nil }
    let bytes = output.bytes
    guard let buffer = malloc(max(1, bytes.count))?.assumingMemoryBound(to: UInt8.self) else { return nil }
    bytes.withUnsafeBufferPointer { source in
        if let base = source.baseAddress { buffer.update(from: base, count: bytes.count) }
    }
    outputCount?.pointee = bytes.count
    return buffer
}

@_cdecl("linkpeek_cache_free")
public func linkpeekCacheFree(_ buffer: UnsafeMutablePointer<UInt8>?) {
    free(buffer)
}
