import ArgumentParser
import LinkPeek

/// The `linkpeek` command: subcommands only; the work lives in the libraries.
struct Linkpeek: AsyncParsableCommand {
    static let version = Settings.version

    static let configuration = CommandConfiguration(
        commandName: "linkpeek",
        abstract: "Link previews for Linux: give it a URL, get the title, summary, icon, image and video.",
        discussion: """
            linkpeek fetch URL...        one JSON object per URL per line
            linkpeek parse --url URL F   the same, from HTML you already have
            linkpeek serve               JSON-RPC 2.0 daemon on stdin/stdout (also: linkpeek --stdio)

            Exit status: 0 when every URL gave a preview, 1 when any failed, 2 on usage errors.
            """,
        version: version,
        subcommands: [Fetch.self, Parse.self, Serve.self]
    )
}
