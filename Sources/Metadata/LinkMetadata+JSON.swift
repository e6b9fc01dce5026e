import JSON

extension LinkMetadata {
    /// The preview as the wire spells it (CLI and daemon): compact UTF-8
    /// JSON, keys sorted, slashes unescaped, absent fields omitted — the
    /// bytes `WireJSON.bytes(of:)` writes for it.
    ///
    /// Written member by member into one buffer, keys already in UTF-8
    /// order: every fetch encodes its preview once for the cache, and the
    /// `Encodable` path (a node per value, an array per scalar, each
    /// object's members sorted) cost 0.3 M instructions a page, about as
    /// much as a quarter of the rules. A site engine's `site` and a saved
    /// link's `failure`, rare, still go through `WireJSON`.
    /// `LinkMetadataJSONTests` holds the two paths equal on a preview with
    /// every field set, and fails when a field is added to one path only.
    public func jsonBytes() throws -> [UInt8] {
        var writer = JSONWriter(capacity: 2048)
        try write(to: &writer)
        return writer.bytes
    }

    private func write(to writer: inout JSONWriter) throws {
        var first = true
        writer.append(byte: UInt8(ascii: "{"))
        if let audio { writer.member("audio", first: &first); audio.write(to: &writer) }
        if let author { writer.member("author", first: &first); writer.write(string: author) }
        if let authorURL { writer.member("authorURL", first: &first); writer.write(string: authorURL) }
        if let authors { writer.member("authors", first: &first); write(authors, to: &writer) }
        if let bytesRead { writer.member("bytesRead", first: &first); writer.write(integer: bytesRead) }
        if let canonicalURL { writer.member("canonicalURL", first: &first); writer.write(string: canonicalURL) }
        if let expiresAt { writer.member("expiresAt", first: &first); writer.write(string: expiresAt) }
        if let failure { writer.member("failure", first: &first); writer.append(json: try WireJSON.bytes(of: failure)) }
        if let fetchedAt { writer.member("fetchedAt", first: &first); writer.write(string: fetchedAt) }
        if let fromCache { writer.member("fromCache", first: &first); writer.write(bool: fromCache) }
        if let icon { writer.member("icon", first: &first); icon.write(to: &writer) }
        if let icons { writer.member("icons", first: &first); write(icons, to: &writer) }
        if let image { writer.member("image", first: &first); image.write(to: &writer) }
        if let images { writer.member("images", first: &first); write(images, to: &writer) }
        if let lang { writer.member("lang", first: &first); writer.write(string: lang) }
        if let locale { writer.member("locale", first: &first); writer.write(string: locale) }
        writer.member("originalURL", first: &first)
        writer.write(string: originalURL)
        if let publishedTime { writer.member("publishedTime", first: &first); writer.write(string: publishedTime) }
        if let rawTitle { writer.member("rawTitle", first: &first); writer.write(string: rawTitle) }
        if let redirects {
            writer.member("redirects", first: &first)
            writer.append(byte: UInt8(ascii: "["))
            for (index, hop) in redirects.enumerated() {
                if index > 0 { writer.append(byte: UInt8(ascii: ",")) }
                hop.write(to: &writer)
            }
            writer.append(byte: UInt8(ascii: "]"))
        }
        if let remoteVideoURL { writer.member("remoteVideoURL", first: &first); writer.write(string: remoteVideoURL) }
        if let richness { writer.member("richness", first: &first); writer.write(string: richness.rawValue) }
        if let savedAt { writer.member("savedAt", first: &first); writer.write(string: savedAt) }
        if let site { writer.member("site", first: &first); writer.append(json: try WireJSON.bytes(of: site)) }
        if let siteName { writer.member("siteName", first: &first); writer.write(string: siteName) }
        if let sources {
            writer.member("sources", first: &first)
            writer.append(byte: UInt8(ascii: "{"))
            for (index, key) in sources.keys.sorted(by: JSONWriter.utf8Precedes).enumerated() {
                if index > 0 { writer.append(byte: UInt8(ascii: ",")) }
                writer.write(string: key)
                writer.append(byte: UInt8(ascii: ":"))
                writer.write(string: sources[key] ?? "")
            }
            writer.append(byte: UInt8(ascii: "}"))
        }
        if let stale { writer.member("stale", first: &first); writer.write(bool: stale) }
        if let summary { writer.member("summary", first: &first); writer.write(string: summary) }
        if let tags { writer.member("tags", first: &first); write(tags, to: &writer) }
        if let themeColor { writer.member("themeColor", first: &first); writer.write(string: themeColor) }
        if let title { writer.member("title", first: &first); writer.write(string: title) }
        if let truncated { writer.member("truncated", first: &first); writer.write(bool: truncated) }
        if let type { writer.member("type", first: &first); writer.write(string: type) }
        if let url { writer.member("url", first: &first); writer.write(string: url) }
        if let video { writer.member("video", first: &first); video.write(to: &writer) }
        writer.append(byte: UInt8(ascii: "}"))
    }

    /// The loops written out here: `JSONWriter.writeArray`, generic across
    /// the module boundary, ran unspecialised (16,000 instructions an array).
    private func write(_ strings: [String], to writer: inout JSONWriter) {
        writer.append(byte: UInt8(ascii: "["))
        for (index, string) in strings.enumerated() {
            if index > 0 { writer.append(byte: UInt8(ascii: ",")) }
            writer.write(string: string)
        }
        writer.append(byte: UInt8(ascii: "]"))
    }

    private func write(_ resources: [MediaResource], to writer: inout JSONWriter) {
        writer.append(byte: UInt8(ascii: "["))
        for (index, resource) in resources.enumerated() {
            if index > 0 { writer.append(byte: UInt8(ascii: ",")) }
            resource.write(to: &writer)
        }
        writer.append(byte: UInt8(ascii: "]"))
    }
}

extension MediaResource {
    /// As `WireJSON` writes it (its `CodingKeys`, in UTF-8 order).
    func write(to writer: inout JSONWriter) {
        var first = true
        writer.append(byte: UInt8(ascii: "{"))
        if let alt { writer.member("alt", first: &first); writer.write(string: alt) }
        if let bytes { writer.member("bytes", first: &first); writer.write(integer: bytes) }
        if let data { writer.member("data", first: &first); writer.write(string: data) }
        if let height { writer.member("height", first: &first); writer.write(integer: height) }
        if let thumbnail { writer.member("thumbnail", first: &first); thumbnail.write(to: &writer) }
        if let type { writer.member("type", first: &first); writer.write(string: type) }
        writer.member("url", first: &first)
        writer.write(string: url)
        if let width { writer.member("width", first: &first); writer.write(integer: width) }
        writer.append(byte: UInt8(ascii: "}"))
    }
}

extension MediaThumbnail {
    func write(to writer: inout JSONWriter) {
        var first = true
        writer.append(byte: UInt8(ascii: "{"))
        writer.member("bytes", first: &first)
        writer.write(integer: bytes)
        writer.member("data", first: &first)
        writer.write(string: data)
        writer.member("height", first: &first)
        writer.write(integer: height)
        writer.member("type", first: &first)
        writer.write(string: type)
        writer.member("width", first: &first)
        writer.write(integer: width)
        writer.append(byte: UInt8(ascii: "}"))
    }
}

extension RedirectHop {
    /// As its `encode(to:)` writes it: a refresh's status is the word.
    func write(to writer: inout JSONWriter) {
        var first = true
        writer.append(byte: UInt8(ascii: "{"))
        writer.member("status", first: &first)
        if isRefresh { writer.write(string: Self.refreshStatus) } else { writer.write(integer: status) }
        writer.member("url", first: &first)
        writer.write(string: url)
        writer.append(byte: UInt8(ascii: "}"))
    }
}
