import FoundationEssentials
import HTMLHead
import TextTrimming

/// A page a site shows instead of the one asked for.
public enum Wall: String, Sendable, Codable, CaseIterable {
    /// A bot check: Cloudflare's `cf-mitigated: challenge`, or an error page that is a challenge or captcha.
    case challenge
    /// A cookie or privacy consent prompt.
    case consent
    /// A sign-in page.
    case login

    /// The plain sentence of the failure (after "Metadata fetch failed: ").
    public var sentence: String {
        switch self {
        case .challenge: "the site answered with a bot check (a challenge page) instead of the page."
        case .consent: "the site asked for cookie consent before showing the page."
        case .login: "the site asked to sign in before showing the page."
        }
    }

    /// The few words a card shows ("blocked: consent page").
    public var cardPhrase: String {
        switch self {
        case .challenge: "bot check"
        case .consent: "consent page"
        case .login: "sign-in page"
        }
    }
}

/// Tells a wall from a page, from signals that name no site: response
/// headers, where the redirects went, the page's title and its forms.
/// A wall is a failure (`FetchError.blocked`), never a preview.
///
/// The page-based signals (a consent title with a form, a lone password
/// form) count only on a page that declares no Open Graph or Twitter title
/// or description of its own: a page that describes itself for previews is
/// previewed as it is, whatever forms it also has.
public enum WallDetector {
    /// What the detector looks at, gathered by the page load.
    public struct Response: Sendable {
        public var status: Int
        /// Header fields, lowercased names.
        public var fields: [String: String]
        /// The URL asked for.
        public var originalURL: String
        /// Every URL the redirects led to, in order, ending with the final one (which the redirect signals judge).
        public var hops: [String]
        /// The page's title (for a 2xx HTML page), as the rules read it.
        public var title: String?
        /// Whether the page declares its own preview fields (`og:`/`twitter:` title or description).
        public var declaresPreview: Bool
        public var evidence: WallEvidence

        public init(
            status: Int, fields: [String: String], originalURL: String, hops: [String], title: String? = nil,
            declaresPreview: Bool = false, evidence: WallEvidence = WallEvidence()
        ) {
            self.status = status
            self.fields = fields
            self.originalURL = originalURL
            self.hops = hops
            self.title = title
            self.declaresPreview = declaresPreview
            self.evidence = evidence
        }
    }

    /// Whether a page's head declares its own preview: an Open Graph or
    /// Twitter title or description (such a page is not judged by its forms).
    public static func declaresPreview(_ document: HeadDocument) -> Bool {
        document.elements.contains { element in
            guard element.name == "meta", !element.isFallback,
                let key = (element["property"] ?? element["name"])?.lowercased(),
                previewKeys.contains(key), let content = element["content"]
            else { return false }
            return !content.trimmedWhitespace.isEmpty
        }
    }

    static let previewKeys: Set<String> = ["og:title", "og:description", "twitter:title", "twitter:description"]

    /// Statuses whose body is read for a challenge (a bot check answers with one of them).
    public static let challengeStatuses: Set<Int> = [403, 429, 503]

    /// The wall `response` is, or nil when it is the page.
    public static func detect(_ response: Response) -> Wall? {
        if isChallenge(response) { return .challenge }
        // Where the redirects ended: a chain that passes a consent or sign-in
        // URL and comes back to the content (a cookie set on the way) is no
        // wall. A fetch that ended where it was asked has no such signal:
        // neither URL is parsed for it.
        if let last = response.hops.last, last != response.originalURL {
            let asked = URLParts(response.originalURL)
            let reached = URLParts(last)
            if !(asked?.isConsent ?? false), reached?.isConsent == true { return .consent }
            if !(asked?.isSignIn ?? false), reached?.isSignIn == true { return .login }
        }
        guard (200..<300).contains(response.status), !response.declaresPreview else { return nil }
        let evidence = response.evidence
        // The page's own signals all need a form.
        guard evidence.forms > 0 else { return nil }
        let asked = URLParts(response.originalURL)
        if !(asked?.isConsent ?? false), let title = response.title, isConsentTitle(title) {
            return .consent
        }
        if !(asked?.isSignIn ?? false), evidence.forms == 1, evidence.passwordFields > 0 { return .login }
        return nil
    }

    /// `cf-mitigated: challenge`, or a 403/429/503 whose page is a bot check.
    static func isChallenge(_ response: Response) -> Bool {
        if let mitigated = response.fields["cf-mitigated"],
            mitigated.lowercased().split(separator: ",").contains(where: { $0.trimmedWhitespace == "challenge" })
        {
            return true
        }
        guard challengeStatuses.contains(response.status) else { return false }
        let evidence = response.evidence
        return evidence.challengePhrase || (evidence.captcha && evidence.forms > 0)
    }

    /// Words of a consent prompt's title.
    static let consentTitleWords = [
        "cookie consent", "cookie settings", "cookie preferences", "cookies on", "use of cookies", "accept cookies",
        "before you continue", "privacy choices", "we value your privacy", "consent",
    ]

    static func isConsentTitle(_ title: String) -> Bool {
        let folded = title.lowercased()
        return consentTitleWords.contains { folded.contains($0) }
    }
}

/// A URL's host labels and path segments, lowercased, for the redirect signals.
struct URLParts {
    let firstLabel: String
    let labels: [Substring]
    let segments: [String]

    init?(_ url: String) {
        guard let parsed = URL(string: url), let host = parsed.host?.lowercased(), !host.isEmpty else { return nil }
        labels = host.split(separator: ".")
        firstLabel = labels.first.map(String.init) ?? ""
        segments = parsed.path.lowercased().split(separator: "/").map(String.init)
    }

    /// The host's first label or the path's first segment is a consent word.
    var isConsent: Bool {
        labels.count > 2 && Self.isConsentWord(firstLabel) || segments.first.map(Self.isConsentWord) == true
    }

    /// A sign-in page: a path segment such as `login`, `signin`, `sign-in`
    /// (also `ServiceLogin`, `i/flow/login`), or a host whose first label is one.
    var isSignIn: Bool {
        labels.count > 2 && Self.signInHostLabels.contains(firstLabel) || segments.contains(where: Self.isSignInSegment)
    }

    static func isConsentWord(_ word: String) -> Bool {
        let letters = word.filter(\.isLetter)
        return letters.hasPrefix("consent") || letters.hasPrefix("gdpr") || letters.hasPrefix("cookie")
            || letters == "privacygate" || letters == "privacyconsent"
    }

    static let signInHostLabels: Set<String> = ["login", "signin", "sso", "auth", "accounts"]

    static func isSignInSegment(_ segment: String) -> Bool {
        let letters = segment.filter(\.isLetter)
        return letters.hasSuffix("login") || letters.hasSuffix("signin") || letters == "logon" || letters == "signon"
    }
}
