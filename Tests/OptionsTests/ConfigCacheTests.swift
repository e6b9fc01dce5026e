import Glibc
import Testing

@testable import Options

/// `ConfigCache`: a start whose file has not changed reads the document from
/// the cache, with the same options, problems and lines as a parse; any
/// other byte, version or a damaged cache is a parse.
@Suite struct ConfigCacheTests {
    /// A file of `rules` rules (one without `match`, so one is dropped) and
    /// two problems, so that lines and dropped rules are compared too.
    static func text(rules: Int) -> String {
        var text = "timeout = 12\nuserAgent = \"ua\"\nbogus = 1\n[hover]\nfetch = \"allowList\"\nallow = [\"*.a.test\"]\n"
        for n in 0..<rules {
            text += """

                [[site]]
                match = ["host\(n).example.com", "*.host\(n).example.org/docs"]
                userAgent = "agent-\(n)/1.0"
                headers = { "X-Rule" = "r\(n)", Cookie = "c" }
                timeout = \(5 + n % 20)
                minTTL = 60
                maxTTL = \(3600 + n)
                failureTTL = { notFound = 600, rateLimited = 5 }
                fetch = "\(["always", "cacheOnly", "never"][n % 3])"
                when = 1979-05-27
                deep.a.b.c.d.e.f.g.h.i = 1

                """
            if n == 2 { text += "[[site]]\nuserAgent = \"no match\"\n" }
        }
        return text
    }

    final class Directory {
        let path: String
        init() {
            var template = Array("/tmp/linkpeek-config-cache-XXXXXX".utf8CString)
            path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        }
        deinit {
            if let dir = opendir(path) {
                while let entry = readdir(dir) {
                    let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
                    if name != "." && name != ".." { unlink(path + "/" + name) }
                }
                closedir(dir)
            }
            rmdir(path)
        }
    }

    private func cache(_ directory: Directory, version: String = "1.0 (commit a)") -> ConfigCache {
        ConfigCache(directory: directory.path + "/linkpeek", binaryVersion: version)
    }

    private func expectSame(_ lhs: ConfigFile, _ rhs: ConfigFile) {
        #expect(lhs.options == rhs.options)
        #expect(lhs.problems == rhs.problems)
        #expect(lhs.warnings == rhs.warnings)
    }

    private func contents(_ path: String) -> [UInt8]? {
        guard let fd = Optional(open(path, O_RDONLY)), fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { return bytes }
            bytes += chunk[0..<count]
        }
    }

    private func replace(_ path: String, with bytes: [UInt8]) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    @Test func aHitGivesTheSameOptionsProblemsAndLinesAsAParse() throws {
        let directory = Directory()
        let cache = cache(directory)
        let bytes = Array(Self.text(rules: 20).utf8)
        let fresh = ConfigFile.parse(bytes, path: "c.toml")
        let cold = ConfigFile.parse(bytes, path: "c.toml", cache: cache)
        let warm = ConfigFile.parse(bytes, path: "c.toml", cache: cache)
        #expect(!cold.fromCache)
        #expect(warm.fromCache)
        expectSame(fresh, cold)
        expectSame(fresh, warm)
        #expect(fresh.options.siteRules?.count == 20)
        #expect(fresh.problems.count > 20)
        #expect(warm.options.siteRules?.map(\.line) == fresh.options.siteRules?.map(\.line))
        // Mode 600: the file's bytes may hold a token.
        var info = stat()
        #expect(stat(cache.file(for: "c.toml"), &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
    }

    @Test func anyChangedByteOrAnotherVersionOrPathIsAParse() {
        let directory = Directory()
        let bytes = Array(Self.text(rules: 3).utf8)
        _ = ConfigFile.parse(bytes, path: "c.toml", cache: cache(directory))
        #expect(ConfigFile.parse(bytes, path: "c.toml", cache: cache(directory)).fromCache)
        #expect(!ConfigFile.parse(bytes, path: "c.toml", cache: cache(directory, version: "1.0 (commit b)")).fromCache)
        #expect(!ConfigFile.parse(bytes, path: "d.toml", cache: cache(directory)).fromCache)
        // Written again by the miss above: the first version's cache is gone.
        #expect(!ConfigFile.parse(bytes, path: "c.toml", cache: cache(directory)).fromCache)
        let changed = bytes.indices.filter { bytes[$0] == 0x31 }  // every "1" in turn
        for index in changed.prefix(12) {
            var edited = bytes
            edited[index] = 0x32
            let file = ConfigFile.parse(edited, path: "c.toml", cache: cache(directory))
            #expect(!file.fromCache)
            expectSame(file, ConfigFile.parse(edited, path: "c.toml"))
        }
        #expect(!ConfigFile.parse(bytes + [0x0A], path: "c.toml", cache: cache(directory)).fromCache)
        #expect(!ConfigFile.parse(Array(bytes.dropLast()), path: "c.toml", cache: cache(directory)).fromCache)
    }

    @Test func aFileTheParserRefusesIsNeverCached() {
        let directory = Directory()
        for text in ["a = [}", "timeout = ", "\u{1}"] {
            let bytes = Array(text.utf8)
            let first = ConfigFile.parse(bytes, path: "c.toml", cache: cache(directory))
            let second = ConfigFile.parse(bytes, path: "c.toml", cache: cache(directory))
            #expect(!second.fromCache)
            #expect(!first.problems.isEmpty)
            expectSame(first, second)
        }
    }

    @Test func aDamagedCacheIsIgnored() {
        let directory = Directory()
        let cache = cache(directory)
        let bytes = Array(Self.text(rules: 1).utf8)
        let fresh = ConfigFile.parse(bytes, path: "c.toml", cache: cache)
        let path = cache.file(for: "c.toml")
        guard let good = contents(path) else {
            Issue.record("no cache written")
            return
        }
        // Cut short at every third length, and every third byte flipped in turn.
        var damaged: [[UInt8]] = stride(from: 0, to: good.count, by: 3).map { Array(good.prefix($0)) }
        damaged += stride(from: 1, to: good.count, by: 3).map { index in
            var copy = good
            copy[index] ^= 0x5A
            return copy
        }
        damaged.append(good + [0])
        for bytesOfCache in damaged {
            replace(path, with: bytesOfCache)
            let file = ConfigFile.parse(bytes, path: "c.toml", cache: cache)
            #expect(!file.fromCache)
            expectSame(file, fresh)
        }
        // A directory where the cache should be, or nothing to write into: a parse.
        unlink(path)
        mkdir(path, 0o700)
        #expect(!ConfigFile.parse(bytes, path: "c.toml", cache: cache).fromCache)
        rmdir(path)
        let nowhere = ConfigCache(directory: directory.path + "/missing/parent/linkpeek", binaryVersion: "1")
        expectSame(ConfigFile.parse(bytes, path: "c.toml", cache: nowhere), fresh)
    }

    @Test func theDecoderNeverTrapsOnRandomBytes() throws {
        let stamp = Array("s".utf8)
        let source = Array(Self.text(rules: 1).utf8)
        let table = try ConfigTable(toml: String(decoding: source, as: UTF8.self))
        let good = ConfigCache.encode(stamp: stamp, source: source, table: table)
        #expect(ConfigCache.decode(good, stamp: stamp, source: source) == table)
        var generator = SystemRandomNumberGenerator()
        var documents = 0
        for _ in 0..<3_000 {
            var bytes = good
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[index] = UInt8.random(in: 0...255, using: &generator)
                case 1: bytes.insert(UInt8.random(in: 0...255, using: &generator), at: index)
                default: bytes.remove(at: index)
                }
                if bytes.isEmpty { bytes = [0] }
            }
            // The document alone, its checksum made right: only the decoder stands guard.
            let prefix = 4 + stamp.count + 4 + source.count
            if bytes.count > prefix + 8, bytes.prefix(prefix).elementsEqual(good.prefix(prefix)) {
                let sum = ConfigCache.checksum(bytes[(prefix + 8)...])
                for shift in 0..<8 { bytes[prefix + shift] = UInt8(truncatingIfNeeded: sum >> (8 * UInt64(shift))) }
            }
            if ConfigCache.decode(bytes, stamp: stamp, source: source) != nil { documents += 1 }
        }
        // Some mutations still decode (a changed letter in a string): the
        // reader checks every value from them as from the parser.
        #expect(documents < 3_000)
        // Counts far beyond what is left, and nesting past the depth read.
        let head = Array(good.prefix(4 + stamp.count + 4 + source.count))
        for document: [UInt8] in [
            [0xFF, 0xFF, 0xFF, 0xFF], [1, 0, 0, 0, 0, 0, 0, 0, 2, 0xFF, 0xFF, 0xFF, 0x7F],
            [1, 0, 0, 0, 0, 0, 0, 0] + Array(repeating: [1, 1, 0, 0, 0, 0, 0, 0, 0], count: 12).flatMap { $0 },
            [1, 0, 0, 0, 0, 0, 0, 0, 6, 2],
        ] {
            var bytes = head
            let sum = ConfigCache.checksum(document[...])
            for shift in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: sum >> (8 * UInt64(shift)))) }
            #expect(ConfigCache.decode(bytes + document, stamp: stamp, source: source) == nil)
        }
    }

    @Test func aForgedCacheGivesNoValueTheFileCouldNot() {
        let directory = Directory()
        let cache = cache(directory)
        let bytes = Array("timeout = 5\n".utf8)
        // Well formed, for exactly these bytes and this version, with values out of range.
        let forged = ConfigTable(
            keys: ["maxConcurrency", "site", "timeout"],
            values: [.int(0), .array([.table(ConfigTable(keys: ["match"], values: [.string("a b")]))]), .double(-1)])
        _ = ConfigFile.parse(bytes, path: "c.toml", cache: cache)
        replace(cache.file(for: "c.toml"), with: ConfigCache.encode(stamp: cache.stamp, source: bytes, table: forged))
        let file = ConfigFile.parse(bytes, path: "c.toml", cache: cache)
        #expect(file.fromCache)
        #expect(file.options.timeout == nil && file.options.maxConcurrency == nil)
        #expect(file.options.siteRules?.isEmpty == true)
        #expect(file.problems.map(\.message).contains { $0.hasPrefix("timeout must be a number from 0.001") })
        #expect(file.problems.count == 3)
    }

    @Test func aDocumentDeeperThanTheReaderLooksRoundTrips() throws {
        let source = Array("a.b.c.d.e.f.g.h.i.j.k = [[[[[[[[1]]]]]]]]\n[[site]]\nmatch = \"a.test\"\n".utf8)
        let table = try ConfigTable(toml: String(decoding: source, as: UTF8.self))
        let bytes = ConfigCache.encode(stamp: [1], source: source, table: table)
        #expect(ConfigCache.decode(bytes, stamp: [1], source: source) == table)
    }
}
