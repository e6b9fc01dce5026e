internal import CCrashGuard

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Process-wide setup for a daemon that speaks on its standard output.
public enum StandardStreams {
    /// Keeps the protocol stream safe from stray writes: duplicates fd 1 for
    /// the protocol writer and points fd 1 at stderr, so a `print` anywhere
    /// in the process lands in the log instead of corrupting a message
    /// (as sourcekit-lsp's `run()` does). Returns the descriptor to write
    /// protocol output to.
    ///
    /// The protocol descriptor is close-on-exec, and a crash closes it before
    /// anything else happens (`linkpeek_close_on_crash`), so that a client
    /// sees end-of-file within moments of a crash, not after the runtime's
    /// backtracer — a child process that would otherwise inherit it, and
    /// that the crashed process waits for — has finished. The backtrace
    /// itself goes to fd 1, which is stderr from here on.
    ///
    /// - Important: call once, before any other thread writes to stdout.
    public static func takeStandardOutput() -> Int32 {
        let protocolOutput = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3)
        guard protocolOutput >= 0 else { return STDOUT_FILENO }
        _ = dup2(STDERR_FILENO, STDOUT_FILENO)
        _ = linkpeek_close_on_crash(protocolOutput)
        return protocolOutput
    }

    /// A write to a closed pipe must fail with `EPIPE` (and shut the
    /// connection down quietly) rather than kill the process.
    public static func ignoreSIGPIPE() {
        _ = signal(SIGPIPE, SIG_IGN)
    }
}
