/// A preview held by reference, for the values that travel with a request
/// in flight (`LoadedPreview`, `FetchedPreview`). A `LinkMetadata` is
/// about 1.5 KB inline, and every copy of it that an async function holds
/// across an `await` is a slot in the task's frame, allocated for as long
/// as the request runs; boxed, the slot is a pointer. Immutable: a new
/// value is a new box.
final class MetadataBox: Sendable {
    let metadata: LinkMetadata

    init(_ metadata: LinkMetadata) {
        self.metadata = metadata
    }
}
