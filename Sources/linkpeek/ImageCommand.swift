import ArgumentParser
import FoundationEssentials
import LinkPeek
import LinkPeekProtocol
import LinkPeekServer

#if canImport(Glibc)
import Glibc
#endif

/// `linkpeek image`: one image, or a page's preview image or icon, resized
/// and converted: the CLI face of `getMedia`, with the same params and checks.
struct ImageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "image",
        abstract: "A page's preview image (or icon), or an image URL, resized and converted.",
        discussion: """
            The image goes to FILE with -o, as a JSON object with base64 data with --base64, else to stdout \
            when stdout is not a terminal. A failure is a sentence on stderr (and with --base64 an object \
            {"originalURL", "error": {"kind", "reason", "message"}} on stdout). Exit status: 0 on success, \
            1 when the image failed, 2 on usage errors.
            """)

    @Argument(help: "A page or an image URL.")
    var url: String

    @Option(name: .long, help: "Which image of a page: image, icon or auto (the image, else the icon).")
    var kind: String = "auto"

    @Option(name: .long, help: "Target width in pixels (1-2048).")
    var width: Double?

    @Option(name: .long, help: "Target height in pixels (1-2048).")
    var height: Double?

    @Option(name: .long, help: "With width and height: contain (fit inside), cover (fill, crop) or fill (stretch).")
    var fit: String = "contain"

    @Option(name: .long, help: "Device pixel ratio, 1-4: the box is multiplied by it (longest side at most 2048).")
    var dpr: Double = 1

    @Option(name: .long, help: "png, webp, jpeg, avif or original (default: JPEG stays JPEG, the rest PNG).")
    var format: String?

    @Option(name: .long, help: "JPEG, WebP and AVIF quality, 1-100.")
    var quality: Double = 80

    @Option(name: .long, help: "What transparency becomes in JPEG: #rgb or #rrggbb.")
    var background: String = "#ffffff"

    @Option(name: .shortAndLong, help: ArgumentHelp("Write the image to this file.", valueName: "file"))
    var output: String?

    @Flag(name: .long, help: "Print the result as JSON with the image in base64.")
    var base64 = false

    @OptionGroup var network: NetworkOptions

    @OptionGroup var cacheOptions: CacheOptions

    @OptionGroup var config: ConfigOptions

    var params: GetMediaParams {
        GetMediaParams(
            url: url, kind: kind, width: width, height: height, fit: fit, dpr: dpr, format: format,
            quality: quality, background: background, timeout: network.timeout)
    }

    func validate() throws {
        // The daemon's own check, with the flags' names.
        if let problem = params.validationError() { throw ValidationError("--" + problem + ".") }
        if output != nil && base64 { throw ValidationError("Give -o or --base64, not both.") }
        if output == nil && !base64 && isatty(STDOUT_FILENO) == 1 {
            throw ValidationError("stdout is a terminal: give -o FILE or --base64 (or redirect stdout).")
        }
    }

    @OptionGroup var logging: LoggingOptions

    func run() async throws {
        try logging.bootstrap()
        let settings = try config.settings(network: network, cache: cacheOptions)
        let engine = LinkPeekEngine(settings: settings)
        defer { engine.shutdown() }
        let image: MediaImage
        do {
            image = try await engine.media(url: url, transform: params.transform, timeout: network.timeout)
        } catch {
            StandardIO.writeError("linkpeek: \(error.message)\n")
            // With --base64 the output is JSON: the failure is too, shaped as `fetch` prints one.
            if base64 { ResultPrinter(pretty: false).emit(.failure(error), url: url) }
            throw ExitCode(1)
        }
        if let output {
            let descriptor = open(output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard descriptor >= 0 else {
                StandardIO.writeError("linkpeek: cannot write \(output): \(String(cString: strerror(errno)))\n")
                throw ExitCode(1)
            }
            defer { close(descriptor) }
            guard StandardIO.write(bytes: image.bytes, to: descriptor) else {
                StandardIO.writeError("linkpeek: cannot write \(output): \(String(cString: strerror(errno)))\n")
                throw ExitCode(1)
            }
        } else if base64 {
            StandardIO.write(try CommandOutput.json(GetMediaResult(image)) + "\n", to: STDOUT_FILENO)
        } else {
            StandardIO.write(bytes: image.bytes, to: STDOUT_FILENO)
        }
    }
}
