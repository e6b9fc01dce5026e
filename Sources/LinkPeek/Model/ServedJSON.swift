import Synchronization

/// A cache entry's served JSON, encoded on first use and then kept: shared
/// by the copies of one `CacheEntry`, so that however often it is copied
/// (memory level, hits) the preview is encoded once at most.
final class ServedJSON: Sendable {
    private enum State {
        case pending(LinkMetadata)
        case done([UInt8]?)
    }

    private let state: Mutex<State>

    /// Encodes `metadata` when first asked; nil metadata has no served form.
    init(encoding metadata: LinkMetadata?) {
        state = Mutex(metadata.map(State.pending) ?? .done(nil))
    }

    /// A served form already known (read back from the store).
    init(known bytes: [UInt8]?) {
        state = Mutex(.done(bytes))
    }

    /// The bytes, encoded now if this is the first use.
    var bytes: [UInt8]? {
        state.withLock { state in
            switch state {
            case .done(let bytes):
                return bytes
            case .pending(let metadata):
                let bytes = try? metadata.jsonBytes()
                state = .done(bytes)
                return bytes
            }
        }
    }
}

extension ServedJSON {
    /// A preview's answer to the fetch that loaded it (`fromCache: false`)
    /// from the served form of what it stored (`fromCache: true`): the one
    /// top-level member changed, nothing encoded again. Nil when `served`
    /// has no such member at its top level.
    static func fetchedForm(of served: [UInt8]) -> [UInt8]? {
        let member = Array(#""fromCache":true"#.utf8)
        var depth = 0
        var index = 0
        var inString = false
        while index < served.count {
            let byte = served[index]
            if inString {
                if byte == UInt8(ascii: "\\") {
                    index += 2
                    continue
                }
                if byte == UInt8(ascii: "\"") { inString = false }
                index += 1
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                // At the top level a string followed by `:` is a member's name.
                if depth == 1, served.count - index >= member.count,
                    served[index..<(index + member.count)].elementsEqual(member)
                {
                    var fetched = Array(served[..<index])
                    fetched.append(contentsOf: #""fromCache":false"#.utf8)
                    fetched.append(contentsOf: served[(index + member.count)...])
                    return fetched
                }
                inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
            default:
                break
            }
            index += 1
        }
        return nil
    }
}
