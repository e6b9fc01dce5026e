import NIOCore
import NIOPosix

extension HTTPService {
    /// Makes NIO's event loops (the ones Hummingbird serves on) Swift's
    /// global executor. Called once, before the command's first task: a
    /// request's task then runs on its connection's loop thread, instead
    /// of two thread hops per request between NIO's threads and the
    /// cooperative pool (on a cached preview those hops cost more than the
    /// answer). What runs on the global executor runs on a loop: work
    /// that blocks there (a SQLite read on a memory miss, a fleet's Redis
    /// call, each bounded) holds that loop's connections while it runs.
    /// False when the runtime did not take it (the pool stays).
    ///
    /// - Important: call from the main thread, before any task is started.
    public static func runTasksOnEventLoops() -> Bool {
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }
}
