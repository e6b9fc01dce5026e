import ArgumentParser

#if canImport(Glibc)
import Glibc
#endif

// Usage errors exit with 2 (the convention for shells), not
// ArgumentParser's 64; everything else keeps its own code.
signal(SIGPIPE, SIG_IGN)
var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--stdio" { arguments[0] = "serve" }
do {
    var command = try Linkpeek.parseAsRoot(arguments)
    if var command = command as? any AsyncParsableCommand {
        try await command.run()
    } else {
        try command.run()
    }
} catch {
    let code = Linkpeek.exitCode(for: error)
    let message = Linkpeek.fullMessage(for: error)
    if !message.isEmpty {
        if code == .success { print(message) } else { FileHandle.standardErrorWrite(message + "\n") }
    }
    if code == .validationFailure {
        exit(2)
    }
    exit(code.rawValue)
}
