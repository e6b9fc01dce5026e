import FoundationEssentials

/// The one image a card may show: a small thumbnail that linkpeek made
/// itself, with the image pipeline, from an image it fetched under its own
/// address policy, embedded as a `data:` URI. A card never carries the
/// page's image URL: an editor that renders Markdown images would fetch it
/// itself, reaching an address the policy refused (a router, a cloud
/// metadata service) and telling a tracker that the user hovered a link.
public struct CardImage: Sendable, Equatable {
    /// `data:image/jpeg;base64,…`: only base64 characters after the comma.
    public let dataURI: String
    public let byteCount: Int

    /// Thumbnails larger than this (encoded) are left out: a card stays small.
    public static let maximumBytes = 24 * 1024

    /// How the thumbnail is made: at most 240 × 160 pixels, JPEG (which
    /// every client that renders images can show), cached as a variant.
    public static let transform = ImageTransform(
        kind: .image, width: 240, height: 160, fit: .contain, format: .jpeg, quality: 70)

    /// Types a card embeds.
    static let embeddedTypes: Set<String> = ["image/jpeg", "image/png", "image/webp", "image/gif"]

    /// nil when `bytes` is empty, over `maximumBytes`, or not of an embedded type.
    public init?(type: String, bytes: [UInt8]) {
        guard Self.embeddedTypes.contains(type), !bytes.isEmpty, bytes.count <= Self.maximumBytes else { return nil }
        dataURI = "data:\(type);base64," + Data(bytes).base64EncodedString()
        byteCount = bytes.count
    }
}

extension MetadataService {
    /// No card images from a service that makes no thumbnails (test fakes).
    public func cardImage(for metadata: LinkMetadata, allowNetwork: Bool) async -> CardImage? { nil }
}
