import Glibc

public struct ListenerError: Error {
    public init() {}
}

/// A TCP socket listening on 127.0.0.1 at a port the kernel picks: the one
/// way the tests' servers open their listener.
public enum LoopbackSocket {
    /// The listening descriptor and its port; nothing is left open on failure.
    public static func listen(backlog: Int32 = 16) throws -> (fd: Int32, port: UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ListenerError() }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Bool in
                bind(fd, pointer, length) == 0 && Glibc.listen(fd, backlog) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw ListenerError()
        }
        return (fd, UInt16(bigEndian: address.sin_port))
    }
}
