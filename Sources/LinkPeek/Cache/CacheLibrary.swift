import CacheABI
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The cache library (`libLinkPeekCacheStore.so`: GRDB, SQLite and the full
/// Foundation GRDB needs), opened with `dlopen` the first time a process uses
/// its cache, and its four C entry points. Linking it would load all of
/// that at start-up, whether or not the cache is used: about 7 MB more
/// resident memory for every idle daemon, against a 20 MB budget.
///
/// Where it is looked for, first found wins: `$LINKPEEK_CACHE_LIBRARY`; beside
/// the executable (where `swift build` puts it); `../lib/linkpeek/` from
/// the executable (an installed layout); the dynamic loader's search path.
struct CacheLibrary: Sendable {
    typealias Report = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Void
    typealias Open = @convention(c) (UnsafePointer<UInt8>?, Int, Report?, UnsafeMutableRawPointer?)
        -> UnsafeMutableRawPointer?
    typealias Call = @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafePointer<UInt8>?, Int,
                                     UnsafeMutablePointer<Int>?) -> UnsafeMutablePointer<UInt8>?
    typealias Free = @convention(c) (UnsafeMutablePointer<UInt8>?) -> Void
    typealias Release = @convention(c) (UnsafeMutableRawPointer?) -> Void

    let open: Open
    let call: Call
    let free: Free
    let release: Release

    static let fileName = "libLinkPeekCacheStore.so"

    /// The library, loaded once per process; the error says why it could not be.
    static func shared() -> Result<CacheLibrary, LoadError> {
        loaded.withLock { state in
            if let state { return state }
            let result = load()
            state = result
            return result
        }
    }

    struct LoadError: Error, CustomStringConvertible {
        var description: String
    }

    private static let loaded = Mutex<Result<CacheLibrary, LoadError>?>(nil)

    private static func load() -> Result<CacheLibrary, LoadError> {
        var tried: [String] = []
        for path in candidates() {
            guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
                tried.append(dlerror().map { String(cString: $0) } ?? path)
                continue
            }
            guard let open = dlsym(handle, "linkpeek_cache_open"), let call = dlsym(handle, "linkpeek_cache_call"),
                let free = dlsym(handle, "linkpeek_cache_free"), let release = dlsym(handle, "linkpeek_cache_release")
            else {
                tried.append("\(path): entry points missing")
                continue
            }
            return .success(CacheLibrary(
                open: unsafeBitCast(open, to: Open.self), call: unsafeBitCast(call, to: Call.self),
                free: unsafeBitCast(free, to: Free.self), release: unsafeBitCast(release, to: Release.self)))
        }
        return .failure(LoadError(description: tried.joined(separator: "; ")))
    }

    private static func candidates() -> [String] {
        var paths: [String] = []
        if let explicit = ProcessInfo.processInfo.environment["LINKPEEK_CACHE_LIBRARY"], !explicit.isEmpty {
            paths.append(explicit)
        }
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if length > 0 {
            let executable = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if let slash = executable.lastIndex(of: "/") {
                let directory = String(executable[..<slash])
                paths.append(directory + "/" + fileName)
                paths.append(directory + "/../lib/linkpeek/" + fileName)
            }
        }
        paths.append(fileName)
        return paths
    }
}
