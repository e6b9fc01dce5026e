import ArgumentParser
import CBuildInfo
import LinkPeek

/// The `linkpeek` command: subcommands only; the work lives in the libraries.
///
/// Every command here names itself (`commandName:`): a name left to
/// ArgumentParser is worked out from the type's name at every start, which
/// cost a type-name lookup per command (about a quarter of a start's
/// instructions).
struct Linkpeek: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "linkpeek",
        abstract: "Link previews for Linux: give it a URL, get the title, summary, icon, image and video.",
        discussion: """
            linkpeek fetch URL...        JSON lines, or cards with --format
            linkpeek parse --url URL F   the same, from HTML you already have
            linkpeek serve               JSON-RPC daemon and LSP server (also: linkpeek --stdio)
            linkpeek cache stats|get|clear|prune    the preview cache on disk
            linkpeek saved add|list|remove|export   saved links
            linkpeek image URL -o FILE   a preview image, resized and converted
            linkpeek fleet stats --fleet redis://…   the fleet's shared cache (serve/fetch --fleet)
            linkpeek config show|check|explain|keys  the configuration file and what is in effect

            Exit status: 0 when every URL gave a preview, 1 when any failed, 2 on usage errors,
            66 when parse cannot read its HTML file.
            """,
        version: Linkpeek.versionLine,
        subcommands: [Fetch.self, Parse.self, Serve.self, CacheCommand.self, SavedCommand.self, ImageCommand.self, FleetCommand.self,
            ConfigCommand.self, SitesCommand.self]
    )
}

extension Linkpeek {
    /// What `--version` prints: the version, then the git commit the binary
    /// was built from (`unknown` when built outside a git checkout).
    static let versionLine = "\(Settings.version) (commit \(String(cString: linkpeek_build_commit())))"
}
