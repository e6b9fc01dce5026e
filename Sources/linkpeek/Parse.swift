import ArgumentParser
import FoundationEssentials
import HTMLHead
import LinkPeek

#if canImport(Glibc)
import Glibc
#endif

/// `linkpeek parse`: the same extraction on HTML the caller already has.
struct Parse: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parse",
        abstract: "Extract preview metadata from an HTML file (or stdin), without fetching the page.")

    @Option(name: .long, help: "The page's address, for resolving relative links.")
    var url: String

    @Argument(help: "The HTML file; stdin when omitted or '-'. Exit status 66 when it cannot be read.")
    var file: String?

    @Option(name: .long, help: "The page's Content-Type header, if known (its charset guides decoding).")
    var contentType: String?

    @Flag(name: .long, help: "Also fetch the chosen icon and image (off by default).")
    var subresources = false

    @Flag(name: .long, help: "Allow loopback and private addresses for --subresources.")
    var allowPrivateNetwork = false

    @Flag(name: .long, help: "Pretty-print the JSON.")
    var pretty = false

    /// The exit status when the HTML cannot be read (sysexits' `EX_NOINPUT`),
    /// apart from 1 (a page that gave no preview) and 2 (a usage error).
    static let unreadableInputExitCode: Int32 = 66

    @OptionGroup var logging: LoggingOptions

    func run() async throws {
        try logging.bootstrap()
        let printer = ResultPrinter(pretty: pretty)
        let bytes: [UInt8]
        do {
            if let file, file != "-" {
                bytes = try StandardIO.readFile(file)
            } else {
                bytes = try StandardIO.readAll(from: STDIN_FILENO)
            }
        } catch {
            // Not a page that failed (stdout stays empty): the input itself is missing.
            StandardIO.writeError("linkpeek parse: cannot read \(file ?? "stdin"): \(error)\n")
            throw ExitCode(Self.unreadableInputExitCode)
        }
        let scanner = HeadScanner(contentType: contentType, bodyRecords: MetadataRules.bodyRecords)
        bytes.withUnsafeBytes { scanner.feed($0) }
        var metadata = MetadataRules.extract(from: scanner.finish(), pageURL: url)
        if subresources {
            var settings = Settings()
            settings.allowPrivateNetwork = allowPrivateNetwork
            let engine = LinkPeekEngine(settings: settings)
            metadata = await engine.loadSubresources(of: metadata, options: FetchOptions(), events: { _ in })
        }
        printer.emit(.success(metadata), url: url)
    }
}
