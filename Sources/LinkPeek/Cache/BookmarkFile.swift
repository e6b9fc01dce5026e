import FoundationEssentials

/// Saved links as the Netscape bookmark file that every browser imports
/// (`<!DOCTYPE NETSCAPE-Bookmark-file-1>`): one `<DT><A>` per link with its
/// title, `ADD_DATE` (seconds since 1970) and `TAGS` (comma-separated), and
/// the summary as `<DD>`. Every text and attribute value is HTML-escaped.
public enum BookmarkFile {
    public static func html(_ links: [LinkMetadata]) -> String {
        var lines = [
            "<!DOCTYPE NETSCAPE-Bookmark-file-1>",
            "<!-- This is an automatically generated file. -->",
            "<META HTTP-EQUIV=\"Content-Type\" CONTENT=\"text/html; charset=UTF-8\">",
            "<TITLE>Bookmarks</TITLE>",
            "<H1>Bookmarks</H1>",
            "<DL><p>",
        ]
        for link in links {
            var attributes = "HREF=\"\(escape(link.originalURL))\""
            if let savedAt = link.savedAt, let date = try? Date(savedAt, strategy: .iso8601) {
                attributes += " ADD_DATE=\"\(Int(date.timeIntervalSince1970.rounded(.down)))\""
            }
            if let tags = link.tags, !tags.isEmpty {
                // A comma inside a tag would split it on import: it becomes a space.
                attributes += " TAGS=\"\(escape(tags.map { $0.replacing(",", with: " ") }.joined(separator: ",")))\""
            }
            lines.append("    <DT><A \(attributes)>\(escape(link.title ?? link.originalURL))</A>")
            if let summary = link.summary { lines.append("    <DD>\(escape(summary))") }
        }
        lines.append("</DL><p>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Text on one line (a line break becomes a space), safe in HTML content
    /// and in a quoted attribute (`HTMLCard.escape`).
    static func escape(_ text: String) -> String {
        var line = ""
        line.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "\r\n", "\n", "\r": line += " "
            default: line.append(character)
            }
        }
        return HTMLCard.escape(line)
    }
}
