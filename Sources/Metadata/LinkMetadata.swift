/// A link preview: what LinkPresentation's `LPLinkMetadata` holds, plus what
/// the page offers besides. This is also the JSON shape on the wire (CLI and
/// daemon): camelCase keys, absent fields omitted.
public struct LinkMetadata: Codable, Sendable, Equatable {
    /// The URL as the caller asked for it.
    public var originalURL: String
    /// The final URL after redirects.
    public var url: String?
    /// What the page declares as its canonical address (`og:url`, `<link rel=canonical>`).
    public var canonicalURL: String?
    public var title: String?
    /// The title as the page wrote it, when `title` is it without the
    /// site's name ("Article | Site" → title "Article"); absent otherwise.
    public var rawTitle: String?
    public var summary: String?
    public var siteName: String?
    public var type: String?
    /// `<html lang>`, else `og:locale`, else `Content-Language`.
    public var lang: String?
    public var locale: String?
    /// The chosen icon, and every icon the page declares in page order.
    public var icon: MediaResource?
    public var icons: [MediaResource]?
    /// The chosen image, and every image the page offers in page order.
    public var image: MediaResource?
    public var images: [MediaResource]?
    public var video: MediaResource?
    /// A video URL that a player can play directly (LinkPresentation's `remoteVideoURL`).
    public var remoteVideoURL: String?
    public var audio: MediaResource?
    /// The authors' names joined with ", " (`authors` holds them one by one).
    public var author: String?
    /// Every author the page names, in its order, each once.
    public var authors: [String]?
    /// The author's page: a profile URL the page declares (`article:author`,
    /// JSON-LD `author.url`), or oEmbed's `author_url` with an oEmbed `author`.
    public var authorURL: String?
    public var publishedTime: String?
    public var themeColor: String?
    public var richness: Richness?
    public var redirects: [RedirectHop]?
    /// Which tag or rule gave each field, e.g. `"title": "og:title"`.
    public var sources: [String: String]?
    /// True when the byte cap was reached and what was read was used.
    public var truncated: Bool?
    /// Bytes of the page body read (after decompression).
    public var bytesRead: Int?
    /// ISO 8601 instants.
    public var fetchedAt: String?
    public var expiresAt: String?
    public var fromCache: Bool?
    /// Served from the cache past its lifetime (`staleWhileRevalidate`,
    /// `getCached`, `cacheOnly`); absent when fresh.
    public var stale: Bool?
    /// When the link was saved (ISO 8601), and its tags: only in `saved`
    /// lists and `save` answers.
    public var savedAt: String?
    public var tags: [String]?
    /// Why the page could not be fetched when the link was saved: only in
    /// `saved` lists and `save` answers, for a link saved with what was known.
    public var failure: SavedFailure?
    /// What a site engine read from the site's API (`SiteInfo`).
    public var site: SiteInfo?

    public init(originalURL: String) {
        self.originalURL = originalURL
    }
}

/// An icon, image, video or audio resource.
public struct MediaResource: Codable, Sendable, Equatable {
    public var url: String
    /// MIME type, declared by the page or learned by fetching.
    public var type: String?
    public var width: Int?
    public var height: Int?
    public var alt: String?
    /// Size in bytes, when the resource was fetched.
    public var bytes: Int?
    /// Base64 of the bytes, only when asked for (`includeData`).
    public var data: String?
    /// A ready-to-show variant, only when the fetch asked for one (`thumbnail`).
    public var thumbnail: MediaThumbnail?
    /// A guess the page never made (the `/favicon.ico` fallback): not yet
    /// known to exist, so a partial result leaves it out and a failed fetch
    /// of it drops it. Not part of the JSON.
    public var isUnverifiedFallback = false
    /// Fetched without keeping its bytes (`includeData` was off), so a
    /// caller that wants `data` has to fetch it again. Not part of the JSON.
    public var dataLeftOut = false

    private enum CodingKeys: String, CodingKey {
        case url, type, width, height, alt, bytes, data, thumbnail
    }

    /// True when linkpeek fetched this resource itself, under its address
    /// policy, and its bytes were an image (or, for a video, the file):
    /// only then does a fetch set `bytes`. A URL the page merely declares,
    /// one the policy refused and one that failed or was never fetched
    /// (`fetchSubresources: false`, `parse`) is not verified.
    public var isVerified: Bool { bytes != nil }

    /// Equal when the JSON is: the two flags above are working notes.
    public static func == (lhs: MediaResource, rhs: MediaResource) -> Bool {
        lhs.url == rhs.url && lhs.type == rhs.type && lhs.width == rhs.width && lhs.height == rhs.height
            && lhs.alt == rhs.alt && lhs.bytes == rhs.bytes && lhs.data == rhs.data && lhs.thumbnail == rhs.thumbnail
    }

    public init(
        url: String, type: String? = nil, width: Int? = nil, height: Int? = nil, alt: String? = nil,
        isUnverifiedFallback: Bool = false
    ) {
        self.url = url
        self.type = type
        self.width = width
        self.height = height
        self.alt = alt
        self.isUnverifiedFallback = isUnverifiedFallback
    }
}

/// A transformed copy of an icon or image, attached by a fetch with `thumbnail`.
public struct MediaThumbnail: Codable, Sendable, Equatable {
    /// MIME type of the thumbnail.
    public var type: String
    public var width: Int
    public var height: Int
    /// Size in bytes.
    public var bytes: Int
    /// Base64 of the bytes.
    public var data: String

    public init(type: String, width: Int, height: Int, bytes: Int, data: String) {
        self.type = type
        self.width = width
        self.height = height
        self.bytes = bytes
        self.data = data
    }
}

/// How rich a preview is: video > image > icon > text.
public enum Richness: String, Codable, Sendable, Comparable {
    case text, icon, image, video

    private var rank: Int {
        switch self {
        case .text: 0
        case .icon: 1
        case .image: 2
        case .video: 3
        }
    }

    public static func < (lhs: Richness, rhs: Richness) -> Bool { lhs.rank < rhs.rank }

    /// What `metadata` can really show, best first: a video (a playable
    /// file or a player page, which a card only links to and never loads),
    /// an image, an icon, else text. The one place richness is decided.
    /// An image or icon counts only once it is verified
    /// (`MediaResource.isVerified`: linkpeek fetched it under its address
    /// policy and its bytes were an image), so a page whose image was
    /// refused, failed or was never fetched is not `image`.
    /// `pageIsImage`: the response itself was an image its bytes proved.
    public init(of metadata: LinkMetadata, pageIsImage: Bool = false) {
        self = if metadata.video != nil { .video }
            else if pageIsImage || metadata.image?.isVerified == true { .image }
            else if metadata.icon?.isVerified == true { .icon }
            else { .text }
    }
}

/// A fetch failure kept with a saved link: the error's fields as `fetch` answers them.
public struct SavedFailure: Codable, Sendable, Equatable {
    public var kind: String
    public var reason: String?
    public var message: String
    public var status: Int?

    public init(kind: String, reason: String?, message: String, status: Int?) {
        self.kind = kind
        self.reason = reason
        self.message = message
        self.status = status
    }
}

/// One redirect hop: the URL that answered and its status, or for a page
/// that redirected with `<meta http-equiv="refresh">` the status `"refresh"`
/// on the wire (`isRefresh`).
public struct RedirectHop: Codable, Sendable, Equatable {
    public var url: String
    public var status: Int
    /// The hop was a meta refresh (the page's own status was `status`).
    public var isRefresh = false

    public init(url: String, status: Int) {
        self.url = url
        self.status = status
    }

    /// A page at `url` that redirected with a meta refresh.
    public static func refresh(url: String, status: Int = 200) -> RedirectHop {
        var hop = RedirectHop(url: url, status: status)
        hop.isRefresh = true
        return hop
    }

    /// The wire's word for a refresh hop's status.
    public static let refreshStatus = "refresh"

    private enum CodingKeys: String, CodingKey { case url, status }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        url = try container.decode(String.self, forKey: .url)
        if let word = try? container.decode(String.self, forKey: .status) {
            guard word == Self.refreshStatus else {
                throw DecodingError.dataCorruptedError(
                    forKey: .status, in: container, debugDescription: "status is a number or \"refresh\"")
            }
            status = 200
            isRefresh = true
        } else {
            status = try container.decode(Int.self, forKey: .status)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(url, forKey: .url)
        if isRefresh { try container.encode(Self.refreshStatus, forKey: .status) } else {
            try container.encode(status, forKey: .status)
        }
    }
}
