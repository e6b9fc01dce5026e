#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A named, detached POSIX thread that runs one closure: what the daemon's
/// long-lived threads (stdin reader, stdout writer, curl loop) need from
/// Foundation's `Thread`, without Foundation.
///
/// Why not `Thread`: it lives in full Foundation (`libFoundation.so`), not in
/// FoundationEssentials, and loading full Foundation (with its ICU data)
/// costs the idle daemon about 6 MB of resident memory. These threads are
/// never joined, so a detached pthread is all it takes.
public enum DetachedThread {
    /// Starts `body` on a new thread called `name` (cut to the 15 bytes Linux
    /// keeps), which ends when `body` returns. A thread that cannot be
    /// created (the process is out of resources) stops the process: the
    /// daemon cannot work without its reader, writer or curl thread.
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Context(name: name, body: body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let result = pthread_create(&thread, &attributes, { context in
            guard let context else { return nil }
            let box = Unmanaged<Context>.fromOpaque(context).takeRetainedValue()
            box.run()
            return nil
        }, context)
        guard result == 0 else {
            Unmanaged<Context>.fromOpaque(context).release()
            fatalError("cannot start thread \(name): error \(result)")
        }
    }

    /// What the new thread needs, handed over through `pthread_create`'s one pointer.
    final class Context {
        let name: String
        let body: @Sendable () -> Void

        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }

        func run() {
            nameCurrentThread()
            body()
        }

        /// Names the thread for `top -H`, `perf` and debuggers. Glibc's
        /// `pthread_setname_np` is not visible to Swift (it needs
        /// `_GNU_SOURCE`), so on Linux the name is written where the kernel
        /// keeps it.
        private func nameCurrentThread() {
            #if canImport(Glibc)
            let file = open("/proc/thread-self/comm", O_WRONLY)
            guard file >= 0 else { return }
            let bytes = Array(name.utf8.prefix(15))
            _ = bytes.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
            close(file)
            #elseif canImport(Darwin)
            _ = pthread_setname_np(name)
            #endif
        }
    }
}
