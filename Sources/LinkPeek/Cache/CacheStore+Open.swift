import FoundationEssentials
import SQLite

#if canImport(Glibc)
import Glibc
import Logging
#endif

extension CacheStore {
    struct Opened {
        var pool: DatabasePool
        var inMemory: Bool
    }

    /// Opens the file, moving a broken one aside and retrying once; falls
    /// back to memory when the file cannot be used at all, and to nothing
    /// (nil: only the memory level) when not even that can be made.
    func open(inMemory: Bool) -> Opened? {
        if !inMemory, let directory, let path {
            for attempt in 0..<2 {
                switch openFile(directory: directory, path: path) {
                case .success(let pool):
                    return Opened(pool: pool, inMemory: false)
                case .failure(.broken(let why)) where attempt == 0:
                    moveAside(path: path, why: why)
                case .failure(.broken(let why)), .failure(.unusable(let why)):
                    say("cannot use \(path) (\(why)); keeping the cache in memory.", topic: "open")
                    return memoryDatabase()
                }
            }
        }
        return memoryDatabase()
    }

    enum OpenProblem: Error {
        /// The file is not a database this build can use: move it aside.
        case broken(String)
        /// The directory or disk cannot be used: stay in memory.
        case unusable(String)
    }

    private func openFile(directory: String, path: String) -> Result<DatabasePool, OpenProblem> {
        let files = FileManager.default
        if let problem = Self.makeDirectories(directory) {
            return .failure(.unusable("cannot create the directory: \(problem)"))
        }
        var isDirectory = false
        if files.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory {
            return .failure(.unusable("a directory is where the database file should be"))
        }
        if let problem = Self.headerProblem(path: path) { return .failure(.broken(problem)) }
        do {
            let writer = try Connection(path: path, mode: .readWrite)
            try Self.setUpWriter(writer)
            if case .newer(let names) = try Self.migrate(writer) {
                return .failure(.broken(
                    "written by a newer linkpeek (unknown schema version \(names.joined(separator: ", ")))"))
            }
            return .success(DatabasePool(path: path, writer: writer, readerCount: 4) { reader throws(SQLiteError) in
                // Lookups read the file through a memory map rather than a read(2) per
                // page: with 8 KiB pages, a cold lookup in a 100,000-entry file went from 41 to 23 µs
                // (Benchmarks/bench_cache.py, release build).
                // The mapped pages are the kernel's page cache, shared and clean.
                try reader.execute("PRAGMA mmap_size = 1073741824")
            })
        } catch let error as SQLiteError where error.isCorruption {
            return .failure(.broken(error.message))
        } catch {
            return .failure(.unusable("\(error)"))
        }
    }

    /// Makes `path` and its missing parents (`mkdir -p`); the reason when it cannot.
    static func makeDirectories(_ path: String) -> String? {
        var prefix = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            prefix += "/" + part
            if mkdir(prefix, 0o755) != 0, errno != EEXIST {
                return "\(prefix): " + String(cString: strerror(errno))
            }
        }
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return "\(path): Not a directory" }
        return nil
    }

    /// Pragmas of the writer connection, run before the schema.
    static func setUpWriter(_ db: Connection) throws(SQLiteError) {
        // Both only take effect on a new file (before the first table): pages
        // that hold a typical preview without overflow pages, and a prune
        // that gives space back. Set before WAL, which fixes the page size.
        try db.execute("PRAGMA page_size = 8192")
        try db.execute("PRAGMA auto_vacuum = INCREMENTAL")
        // Readers never wait for the writer, and several processes share the file.
        try db.execute("PRAGMA journal_mode = WAL")
        // WAL with NORMAL sync: a kill -9 or crash loses no committed transaction's
        // integrity (a power cut may lose the last ones); no fsync per write.
        try db.execute("PRAGMA synchronous = NORMAL")
        // The writer's own page cache: 256 KiB (32 pages) rather than SQLite's
        // 2 MiB. A write touches a handful of pages (the b-tree's inner pages
        // stay cached), and the 2 MiB filled up over a batch of writes: 1.3 MB
        // more peak RSS for `fetch --stdin` over 500 pages, for no CPU
        // difference (Benchmarks/README.md, "The cache's write cost").
        try db.execute("PRAGMA cache_size = -256")
        try db.execute("PRAGMA foreign_keys = ON")
    }

    /// Migrates, retrying a few times when another process holds the write
    /// lock past the busy timeout (never on a corrupt file).
    static func migrate(_ db: Connection) throws -> CacheSchema.Outcome {
        for attempt in 1...5 {
            do {
                return try CacheSchema.migrate(db)
            } catch let error as SQLiteError where attempt < 5 && error.isBusy {
                usleep(UInt32(20_000 * attempt))
            }
        }
        return try CacheSchema.migrate(db)
    }

    private func memoryDatabase() -> Opened? {
        // An in-memory database with the schema above fails to open or
        // migrate only through a bug or no memory at all: then only the memory level works.
        do {
            let connection = try Connection(path: ":memory:", mode: .memory)
            try connection.execute("PRAGMA foreign_keys = ON")
            _ = try CacheSchema.migrate(connection)
            return Opened(pool: DatabasePool(memory: connection), inMemory: true)
        } catch {
            say("cannot create an in-memory cache database (\(error)); previews stay in memory and saved links are not kept.",
                topic: "memory")
            return nil
        }
    }

    /// Why the file is not a whole SQLite database, from its first 100 bytes
    /// and its size; nil when it looks whole (or is absent or empty, which
    /// SQLite treats as a new database: another process may have just made it).
    static func headerProblem(path: String) -> String? {
        // SQLite's smallest page: a header claiming less is not one to check sizes against.
        let minimumPageSize = 512
        let descriptor = Glibc.open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_size > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: 100)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 100, 0) }
        guard count == 100, bytes.starts(with: Array("SQLite format 3\0".utf8)) else {
            return "not an SQLite database"
        }
        let rawPageSize = Int(bytes[16]) << 8 | Int(bytes[17])
        let pageSize = rawPageSize == 1 ? 65536 : rawPageSize
        let pageCount = bytes[28..<32].reduce(0) { $0 << 8 | Int($1) }
        let size = Int(info.st_size)
        // Only when no WAL file exists, that is when no process has the database
        // open: during another process's checkpoint the header can already
        // count pages the file does not have yet. (A truncated file that is in
        // use is caught when a read meets it: SQLITE_CORRUPT moves it aside.)
        let inUse = access(path + "-wal", F_OK) == 0
        if !inUse, pageSize >= minimumPageSize, pageCount > 0, size < pageSize * pageCount {
            return "truncated: \(size) bytes of \(pageSize * pageCount)"
        }
        return nil
    }

    /// Renames the file (and its WAL and shared-memory files) to
    /// `<path>.corrupt-<UTC time>`, and says so once.
    func moveAside(path: String, why: String) {
        let stamp = Date().formatted(.iso8601).replacing(":", with: "")
        let target = path + ".corrupt-" + stamp
        let files = FileManager.default
        do { try files.moveItem(atPath: path, toPath: target) } catch {
            logger.warning("cannot move the unusable cache file aside", metadata: [
                "path": "\(path)", "target": "\(target)", "error": "\(error)",
            ])
        }
        for suffix in ["-wal", "-shm"] where files.fileExists(atPath: path + suffix) {
            do { try files.removeItem(atPath: path + suffix) } catch {
                logger.warning("cannot remove the unusable cache's \(suffix) file", metadata: ["path": "\(path)", "error": "\(error)"])
            }
        }
        say("\(path) is unusable (\(why)); moved it aside as \(target) and started a new cache.", topic: "corrupt")
    }
}
