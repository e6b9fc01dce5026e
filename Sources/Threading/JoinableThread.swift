import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A named POSIX thread that runs one closure and can be waited for until
/// it has ended: its closure returned and its thread-exit destructors ran.
///
/// Why not `DetachedThread` plus a signal at the end of the closure: the
/// thread goes on after that signal, into the destructors other libraries
/// keep per thread (OpenSSL frees a thread's error state and random
/// generators there). A process that exits as soon as the signal came runs
/// its exit handlers (`OPENSSL_cleanup`) alongside those destructors, and
/// the two free the same memory. `join` waits for the thread itself.
///
/// A thread never joined is detached when this handle goes, so it leaves
/// nothing behind when it ends.
public final class JoinableThread: Sendable {
    private let thread: ThreadID
    /// Signalled once, when the closure has returned.
    private let returned = DispatchSemaphore(value: 0)
    /// The thread was joined or detached (a pthread may be either only once).
    private let settled = Mutex(false)

    /// Starts `body` on a new thread called `name` (cut to the 15 bytes Linux
    /// keeps). A thread that cannot be created (the process is out of
    /// resources) stops the process, as `DetachedThread.start` does.
    public init(name: String, _ body: @escaping @Sendable () -> Void) {
        let returned = returned
        let context = Unmanaged.passRetained(DetachedThread.Context(name: name) {
            body()
            returned.signal()
        }).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { context in
            guard let context else { return nil }
            let box = Unmanaged<DetachedThread.Context>.fromOpaque(context).takeRetainedValue()
            box.run()
            return nil
        }, context)
        guard result == 0 else {
            Unmanaged<DetachedThread.Context>.fromOpaque(context).release()
            fatalError("cannot start thread \(name): error \(result)")
        }
        self.thread = ThreadID(raw: thread)
    }

    /// Waits until the thread has ended, or until `deadline` while its
    /// closure still runs; true when it has ended. Once the closure has
    /// returned only the thread's own exit is left, which is waited for
    /// whole. Call it from another thread, one caller at a time.
    public func join(until deadline: DispatchTime) -> Bool {
        if settled.withLock({ $0 }) { return true }
        guard returned.wait(timeout: deadline) == .success else { return false }
        settled.withLock { settled in
            guard !settled else { return }
            pthread_join(thread.raw, nil)
            settled = true
        }
        return true
    }

    deinit {
        let thread = thread
        settled.withLock { settled in
            if !settled { pthread_detach(thread.raw) }
        }
    }
}

/// A pthread handle, used only to join or detach that thread once.
private struct ThreadID: @unchecked Sendable {
    let raw: pthread_t
}
