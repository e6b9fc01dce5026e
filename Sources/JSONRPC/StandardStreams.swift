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
    /// - Important: call once, before any other thread writes to stdout.
    public static func takeStandardOutput() -> Int32 {
        let protocolOutput = dup(STDOUT_FILENO)
        guard protocolOutput >= 0 else { return STDOUT_FILENO }
        _ = dup2(STDERR_FILENO, STDOUT_FILENO)
        return protocolOutput
    }

    /// A write to a closed pipe must fail with `EPIPE` (and shut the
    /// connection down quietly) rather than kill the process.
    public static func ignoreSIGPIPE() {
        _ = signal(SIGPIPE, SIG_IGN)
    }
}
