#if canImport(Glibc)
import Glibc
#endif

/// Caps glibc's malloc arenas before any thread starts.
///
/// glibc gives threads arenas of their own, up to eight per core. The
/// engine's threads (dispatch workers, the transfer threads) each free into
/// whichever arena they allocated from, and every arena keeps its own free
/// pages, so a `fetch --stdin` at concurrency 16 peaked with four arenas of
/// 1.2–4.5 MB each. One arena holds the same work in less memory (peak
/// 41.7 → 39.4 MB; two arenas: 40.3). The threads that share its lock are
/// few, and each thread's malloc cache (tcache) serves most small blocks
/// without it.
/// `mallopt` is not in Swift's Glibc module (it lives in `malloc.h`), so it
/// is looked up by name; where it does not exist (another C library) this
/// does nothing. A user's own `MALLOC_ARENA_MAX` or `GLIBC_TUNABLES` wins.
enum MallocArenas {
    static let limit: Int32 = 1

    static func cap() {
        #if canImport(Glibc)
        if getenv("MALLOC_ARENA_MAX") != nil || getenv("GLIBC_TUNABLES") != nil { return }
        typealias SetOption = @convention(c) (Int32, Int32) -> Int32
        // RTLD_DEFAULT is the null handle on glibc: search every loaded object.
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: SetOption.self)
        let arenaMax: Int32 = -8  // M_ARENA_MAX in malloc.h
        _ = mallopt(arenaMax, limit)
        #endif
    }
}
