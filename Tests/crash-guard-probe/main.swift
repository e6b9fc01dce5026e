import JSONRPC

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// A process that crashes on purpose, to test the daemon's crash guard on a
// real fault rather than on a signal sent from outside: it takes its
// standard output the way `linkpeek serve` does (the guard closes it on a
// crash), writes one line there, and faults as its argument says.
//
//   crash-guard-probe trap      a Swift runtime trap (SIGILL on Linux)
//   crash-guard-probe segv      a write through a bad pointer (SIGSEGV)
//   crash-guard-probe abort     abort() (SIGABRT)
//
// Anything else exits 2 without faulting.

func say(_ text: String, to fd: Int32) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count) }
}

let mode = CommandLine.arguments.dropFirst().first ?? ""
guard ["trap", "segv", "abort"].contains(mode) else {
    say("usage: crash-guard-probe trap|segv|abort\n", to: STDERR_FILENO)
    exit(2)
}
let output = StandardStreams.takeStandardOutput()
say("ready \(getpid())\n", to: output)

@inline(never)
func fault(_ mode: String) {
    switch mode {
    case "trap":
        // Read from the environment so that the compiler cannot fold the trap away.
        let values = [Int](repeating: 0, count: getenv("PROBE_NEVER_SET") == nil ? 1 : 2)
        _ = values[values.count]
    case "segv":
        let pointer = UnsafeMutablePointer<Int>(bitPattern: 8)
        pointer?.pointee = 1
    default:
        abort()
    }
}
fault(mode)
say("crash-guard-probe: did not fault\n", to: STDERR_FILENO)
exit(3)
