import ArgumentParser
import Dispatch
import FoundationEssentials
import LinkPeekHTTP

#if canImport(Glibc)
import Glibc
#endif

/// Runs an async subcommand; a generic so the existential is opened and the
/// async `run()` (not the synchronous one) is chosen.
func runAsync<Command: AsyncParsableCommand>(_ command: Command) async throws {
    var command = command
    try await command.run()
}

/// Runs the command line and exits with its status.
func runCommandLine(_ arguments: [String]) async -> Never {
    do {
        var command = try Linkpeek.parseAsRoot(arguments)
        if let asyncCommand = command as? any AsyncParsableCommand {
            try await runAsync(asyncCommand)
        } else {
            try command.run()
        }
        exit(0)
    } catch {
        // Usage errors exit with 2 (the shell convention), not ArgumentParser's 64.
        let code = Linkpeek.exitCode(for: error)
        let message = Linkpeek.fullMessage(for: error)
        if !message.isEmpty {
            if code == .success { print(message) } else { StandardIO.writeError(message + "\n") }
        }
        exit(code == .validationFailure ? 2 : code.rawValue)
    }
}

MallocArenas.cap()
// A client that goes away must not kill us with SIGPIPE; writes see EPIPE.
signal(SIGPIPE, SIG_IGN)
var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--stdio" { arguments[0] = "serve" }
// The command runs off the main queue and exits from there; the main thread
// only parks in `dispatchMain`, so nothing the command does waits on it.
let commandLine = arguments
// `serve --http`: NIO's event loops become the global executor before the
// first task (`HTTPService.runTasksOnEventLoops`). The command line is parsed
// here once more only for `serve` (the root takes no options, so a
// subcommand is the first argument): every other command is parsed once.
if commandLine.first == "serve", let serve = try? Linkpeek.parseAsRoot(commandLine) as? Serve,
    serve.httpOptions.servesHTTP, !serve.httpOptions.httpOnPool
{
    _ = HTTPService.runTasksOnEventLoops()
}
Task.detached { await runCommandLine(commandLine) }
dispatchMain()
