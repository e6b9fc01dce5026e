import ArgumentParser
import LinkPeek

#if canImport(Glibc)
import Glibc
#endif

/// `linkpeek sites`: the site engines and the links each answers from its site's API.
struct SitesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sites",
        abstract: "List the site engines and the URL shapes each answers from its site's API (--no-sites turns them off).")

    func run() throws {
        var text = ""
        for engine in SiteEngines.all() {
            text += "\(engine.name)\n"
            for shape in engine.shapes { text += "  \(shape)\n" }
        }
        StandardIO.write(text, to: STDOUT_FILENO)
    }
}
