import FoundationEssentials
import GRDB

#if canImport(Glibc)
import Glibc
#endif

extension SQLiteStore {
    /// Opens the file, moving a broken one aside and retrying once; falls
    /// back to memory when the file cannot be used at all.
    func open(inMemory: Bool) -> (writer: any DatabaseWriter, inMemory: Bool) {
        if !inMemory, let directory, let path {
            for attempt in 0..<2 {
                switch openFile(directory: directory, path: path) {
                case .success(let pool):
                    return (pool, false)
                case .failure(.broken(let why)) where attempt == 0:
                    moveAside(path: path, why: why)
                case .failure(.broken(let why)), .failure(.unusable(let why)):
                    say("cannot use \(path) (\(why)); keeping the cache in memory.", topic: "open")
                    return (memoryDatabase(), true)
                }
            }
        }
        return (memoryDatabase(), true)
    }

    enum OpenProblem: Error {
        /// The file is not a database this build can use: move it aside.
        case broken(String)
        /// The directory or disk cannot be used: stay in memory.
        case unusable(String)
    }

    private func openFile(directory: String, path: String) -> Result<DatabasePool, OpenProblem> {
        let files = FileManager.default
        do {
            try files.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            return .failure(.unusable("cannot create the directory: \(error.localizedDescription)"))
        }
        var isDirectory = false
        if files.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory {
            return .failure(.unusable("a directory is where the database file should be"))
        }
        if let problem = Self.headerProblem(path: path) { return .failure(.broken(problem)) }
        do {
            let pool = try DatabasePool(path: path, configuration: Self.configuration)
            let migrator = CacheSchema.migrator
            if try pool.read(migrator.hasBeenSuperseded) {
                return .failure(.broken("written by a newer linkpeek (unknown schema version)"))
            }
            try Self.migrate(pool, with: migrator)
            return .success(pool)
        } catch let error as DatabaseError where Self.isCorruption(error) {
            return .failure(.broken(error.message ?? "\(error.resultCode)"))
        } catch {
            return .failure(.unusable("\(error)"))
        }
    }

    /// Migrates, retrying a few times: two processes that open a new (or
    /// older) file at once may both start a migration; the second fails
    /// ("table … already exists") once the first commits, and then finds
    /// nothing left to do.
    static func migrate(_ pool: DatabasePool, with migrator: DatabaseMigrator) throws {
        for attempt in 1...5 {
            do {
                return try migrator.migrate(pool)
            } catch let error as DatabaseError where attempt < 5 && !isCorruption(error) {
                usleep(UInt32(20_000 * attempt))
            }
        }
    }

    static var configuration: Configuration {
        var configuration = Configuration()
        // Other processes write too: wait for their transactions (bounded) rather than fail.
        configuration.busyMode = .timeout(10)
        configuration.maximumReaderCount = 4
        configuration.prepareDatabase { db in
            if db.configuration.readonly {
                // Lookups read the file through a memory map rather than a read(2) per
                // page: with 8 KiB pages, a cold lookup in a 100,000-entry file went from 41 to 23 µs
                // (Benchmarks/bench_cache.py, release build).
                // The mapped pages are the kernel's page cache, shared and clean.
                try db.execute(sql: "PRAGMA mmap_size = 1073741824")
            } else {
                // Both only take effect on a new file (before the first table): pages
                // that hold a typical preview without overflow pages, and a prune
                // that gives space back.
                try db.execute(sql: "PRAGMA page_size = 8192")
                try db.execute(sql: "PRAGMA auto_vacuum = INCREMENTAL")
            }
            // WAL with NORMAL sync: a kill -9 or crash loses no committed transaction's
            // integrity (a power cut may lose the last ones); no fsync per write.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        return configuration
    }

    private func memoryDatabase() -> any DatabaseWriter {
        // An in-memory database with the schema above fails to open or
        // migrate only through a bug (or no memory at all): no input reaches this.
        do {
            let queue = try DatabaseQueue()
            try CacheSchema.migrator.migrate(queue)
            return queue
        } catch {
            fatalError("cannot create an in-memory SQLite database: \(error)")
        }
    }

    static func isCorruption(_ error: DatabaseError) -> Bool {
        error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB
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
        try? files.moveItem(atPath: path, toPath: target)
        for suffix in ["-wal", "-shm"] { try? files.removeItem(atPath: path + suffix) }
        say("\(path) is unusable (\(why)); moved it aside as \(target) and started a new cache.", topic: "corrupt")
    }
}
