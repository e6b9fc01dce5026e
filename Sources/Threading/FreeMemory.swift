#if canImport(Glibc)
import Glibc
#endif

/// Gives the process's free heap back to the system.
///
/// glibc keeps memory that `free` returned inside the process (in the heap
/// and in each thread's arena) for reuse, so after a burst of requests a
/// daemon's resident size stays near its peak for good. `malloc_trim(0)`
/// returns the free pages of every arena. It is not in Swift's Glibc module
/// (it lives in `malloc.h`), so it is looked up once by name; where it does
/// not exist (another C library), this does nothing.
public enum FreeMemory {
    private typealias Trim = @convention(c) (Int) -> Int32

    private static let trim: Trim? = {
        #if canImport(Glibc)
        // RTLD_DEFAULT is the null handle on glibc: search every loaded object.
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: Trim.self)
        #else
        return nil
        #endif
    }()

    /// Returns free heap pages to the system; true if any were.
    @discardableResult
    public static func giveBack() -> Bool {
        (trim?(0) ?? 0) != 0
    }
}
