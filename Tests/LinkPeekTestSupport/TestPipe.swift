import Foundation

/// A pipe's two ends, for tests that talk to a connection or a daemon
/// session in-process. The test closes the ends it is done with.
public struct TestPipe: Sendable {
    public let read: Int32
    public let write: Int32

    public init() throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw POSIXError(.EMFILE) }
        read = fds[0]
        write = fds[1]
    }
}
