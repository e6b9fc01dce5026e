import SQLite

/// The cache database's schema, as migrations from the first version on,
/// each recorded by name in `grdb_migrations` (the table GRDB kept when it
/// ran them, in builds before this one: files those builds wrote open as
/// they are). A database that has a migration this build does not know was
/// written by a newer linkpeek: it is moved aside, never downgraded.
///
/// Contributor note: never edit a registered migration; add the next one.
enum CacheSchema {
    static let migrations: [(name: String, sql: String)] = [
        ("v1", """
            -- Previews and failures by `CacheKey.description`. `body` is the
            -- served JSON (metadata with `fromCache: true`, or a failure);
            -- times are seconds since 1970.
            CREATE TABLE entry (
                key TEXT PRIMARY KEY NOT NULL,
                originalURL TEXT NOT NULL,
                isFailure INTEGER NOT NULL,
                body BLOB NOT NULL,
                storedAt DOUBLE NOT NULL,
                expiresAt DOUBLE NOT NULL,
                mustRevalidate INTEGER NOT NULL,
                etag TEXT,
                lastModified TEXT,
                lastUsed DOUBLE NOT NULL,
                size INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE INDEX entry_lastUsed ON entry(lastUsed);
            -- Another key that answers with an entry: a redirect's target.
            CREATE TABLE alias (
                key TEXT PRIMARY KEY NOT NULL,
                target TEXT NOT NULL
            ) WITHOUT ROWID;
            CREATE INDEX alias_target ON alias(target);
            -- Saved links, by normalised URL, with the metadata pinned
            -- (refreshed whenever the entry under `key` is stored).
            CREATE TABLE saved (
                url TEXT PRIMARY KEY NOT NULL,
                key TEXT NOT NULL,
                savedAt DOUBLE NOT NULL,
                body BLOB
            ) WITHOUT ROWID;
            CREATE INDEX saved_key ON saved(key);
            CREATE INDEX saved_savedAt ON saved(savedAt);
            CREATE TABLE savedTag (
                url TEXT NOT NULL REFERENCES saved(url) ON DELETE CASCADE,
                tag TEXT NOT NULL,
                PRIMARY KEY (url, tag)
            ) WITHOUT ROWID;
            CREATE INDEX savedTag_tag ON savedTag(tag);
            -- Bytes by key for other parts of linkpeek (image variants).
            CREATE TABLE blob (
                key TEXT PRIMARY KEY NOT NULL,
                bytes BLOB NOT NULL,
                expiresAt DOUBLE NOT NULL,
                lastUsed DOUBLE NOT NULL,
                size INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE INDEX blob_lastUsed ON blob(lastUsed);
            """),
        ("v2-usage", """
            -- What each daemon reports of its cache use, for `linkpeek cache stats`.
            CREATE TABLE usage (
                pid INTEGER NOT NULL,
                startedAt DOUBLE NOT NULL,
                hits INTEGER NOT NULL,
                misses INTEGER NOT NULL,
                updatedAt DOUBLE NOT NULL,
                PRIMARY KEY (pid, startedAt)
            ) WITHOUT ROWID;
            """),
    ]

    /// The outcome of `migrate`.
    enum Outcome {
        case current
        /// The file has migrations this build does not know (their names).
        case newer([String])
    }

    /// Brings `db` to the newest schema in one immediate transaction (two
    /// processes opening a new file at once: the second waits, then finds
    /// nothing left to do), unless the file is from a newer build.
    static func migrate(_ db: Connection) throws -> Outcome {
        try db.transaction(immediate: true) {
            try db.execute("CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
            let applied = Set(try db.rows("SELECT identifier FROM grdb_migrations") { $0.text(0) })
            let unknown = applied.subtracting(migrations.map(\.name))
            if !unknown.isEmpty { return .newer(unknown.sorted()) }
            for migration in migrations where !applied.contains(migration.name) {
                try db.execute(migration.sql)
                try db.run("INSERT INTO grdb_migrations (identifier) VALUES (?)", [.text(migration.name)])
            }
            return .current
        }
    }
}
