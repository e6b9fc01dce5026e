import CacheABI
import FoundationEssentials

extension SQLiteStore {
    /// One call from linkpeek, decoded, run and encoded (`CacheCall` says
    /// each one's input and output); nil when the input is damaged.
    func perform(_ call: CacheCall, _ input: inout ByteReader) -> ByteWriter? {
        var out = ByteWriter()
        switch call {
        case .entry:
            guard let key = input.string() else { return nil }
            out.optional(entry(key)) { $1.write(to: &$0) }
        case .put:
            guard let row = StoredRow(from: &input), let aliases = input.strings(), let now = input.double() else {
                return nil
            }
            out.bool(put(row, aliases: aliases, now: now))
        case .remove:
            guard let key = input.string() else { return nil }
            remove(key)
        case .stats:
            guard let json = try? JSONEncoder().encode(stats()) else { return nil }
            out.data(Array(json))
        case .clear:
            out.int(clear())
        case .prune:
            out.int(prune())
        case .save:
            guard let url = input.string(), let key = input.string(), let tags = input.optional({ $0.strings() }),
                let body = input.optional({ $0.data() }), let time = input.double()
            else { return nil }
            out.bool(save(url: url, key: key, tags: tags, body: body, at: time))
        case .unsave:
            guard let url = input.string(), let removed = unsave(url: url) else { return nil }
            out.bool(removed)
        case .saved:
            guard let tag = input.optional({ $0.string() }), let limit = input.int(), let offset = input.int() else {
                return nil
            }
            let records = saved(tag: tag, limit: limit, offset: offset)
            out.int(records.count)
            for record in records { record.write(to: &out) }
        case .blob:
            guard let key = input.string(), let now = input.double() else { return nil }
            out.optional(blob(key, now: now)) { $0.data($1) }
        case .storeBlob:
            guard let bytes = input.data(), let key = input.string(), let expiresAt = input.double(),
                let now = input.double()
            else { return nil }
            out.bool(storeBlob(bytes, for: key, expiresAt: expiresAt, now: now))
        case .isInMemory:
            out.bool(isInMemory)
        case .usage:
            guard let usage = DaemonUsage(from: &input) else { return nil }
            out.bool(report(usage))
        }
        return out
    }
}
