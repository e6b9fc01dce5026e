// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "linkpeek",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "linkpeek", targets: ["linkpeek"]),
        .library(name: "LinkPeek", targets: ["LinkPeek"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // The one logging API of the libraries; the executable picks the handler (STYLE.md, Logging).
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // The HTTP service (`serve --http`): Hummingbird on SwiftNIO, without its
        // optional traits (swift-configuration, full Foundation), metrics in
        // Prometheus text, and the lifecycle that drains on SIGTERM.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // The configuration file's TOML reader (toml++ underneath; `ConfigFile` guards what reaches it).
        .package(url: "https://github.com/LebJe/TOMLKit", exact: "0.6.0"),
    ],
    targets: [
        // MARK: CCurl
        // Typed wrappers for libcurl's variadic functions, and the loader that
        // opens libcurl on first use (loader.c says why it is not linked).
        .target(
            name: "CCurl",
            linkerSettings: [
                .linkedLibrary("dl", .when(platforms: [.linux])),
            ]
        ),

        // MARK: CLibXML2
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [
                .apt(["libxml2-dev"]),
            ]
        ),

        // MARK: CVips
        // Fixed-argument wrappers for libvips's variadic operations, and the
        // loader that opens libvips on first use (loader.c says why it is not linked).
        .target(
            name: "CVips",
            linkerSettings: [
                .linkedLibrary("dl", .when(platforms: [.linux])),
            ]
        ),

        // MARK: CBuildInfo
        // The git commit the binary was built from (build_info.c says why it is C).
        .target(
            name: "CBuildInfo"
        ),

        // MARK: CHiredis
        // hiredis and zlib for fleet mode, loaded on first use (loader.c says why it is not linked).
        .target(
            name: "CHiredis",
            linkerSettings: [
                .linkedLibrary("dl", .when(platforms: [.linux])),
            ]
        ),

        // MARK: Redis
        // Swift over hiredis: connections, replies, the endpoint URL; zlib. No C type escapes it.
        .target(
            name: "Redis",
            dependencies: [
                "CHiredis",
                "TextTrimming",
            ]
        ),
        .testTarget(
            name: "RedisTests",
            dependencies: [
                "Redis",
            ]
        ),

        // MARK: LogCapture
        // Test support: loggers whose records swift-log's in-memory handler keeps, for tests of what is logged.
        .target(
            name: "LogCapture",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ],
            path: "Tests/LogCapture"
        ),

        // MARK: TextTrimming
        // The one place `String`s are trimmed (and protocol text searched on its bytes), for every target (no dependencies).
        .target(
            name: "TextTrimming"
        ),
        .testTarget(
            name: "TextTrimmingTests",
            dependencies: [
                "TextTrimming",
            ]
        ),
        // MARK: JSON
        // The one JSON of the daemon, the library and the CLI: `JSONValue`,
        // its parser, its writer, the wire encoder configuration, and the
        // decoder that reads params from the parsed tree (only TextTrimming's byte helpers).
        .target(
            name: "JSON",
            dependencies: [
                "TextTrimming",
            ]
        ),
        .testTarget(
            name: "JSONTests",
            dependencies: [
                "JSON",
                "PureTestSupport",
            ]
        ),

        // MARK: Threading
        // Named detached pthreads, so that no target needs full Foundation for `Thread`.
        .target(
            name: "Threading"
        ),
        .testTarget(
            name: "ThreadingTests",
            dependencies: [
                "Threading",
            ]
        ),

        // MARK: CInflate
        // zlib's inflate for the content codings linkpeek decodes itself, loaded on first use (inflate.c says why).
        .target(
            name: "CInflate",
            linkerSettings: [
                .linkedLibrary("dl", .when(platforms: [.linux])),
            ]
        ),

        // MARK: Curl
        .target(
            name: "Curl",
            dependencies: [
                "CCurl",
                "CInflate",
                "TextTrimming",
                "Threading",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "CurlTests",
            dependencies: [
                "LogCapture",
                .product(name: "Logging", package: "swift-log"),
                "Curl",
                // zlib's deflate, to make the content decoder's test streams.
                "Redis",
                "LinkPeekTestSupport",
                "Threading",
            ]
        ),

        // MARK: HTMLHead
        .target(
            name: "HTMLHead",
            dependencies: [
                "CLibXML2",
                "TextTrimming",
            ],
            // libxml2's callbacks mutate the collector's state once per
            // element and text run; the runtime's dynamic exclusivity checks
            // on a class's stored properties (swift_beginAccess,
            // AccessSet::insert) were 1.2% of a fetch's samples (in a
            // profile of fetches; 0.06% without them). The checks catch overlapping
            // accesses, which this target never makes: the callbacks do not
            // re-enter the collector, and nothing here hands out inout access
            // across a call into other code. Static checks still apply.
            swiftSettings: [
                .unsafeFlags(["-enforce-exclusivity=unchecked"]),
            ]
        ),
        .testTarget(
            name: "HTMLHeadTests",
            dependencies: [
                "HTMLHead",
                "PureTestSupport",
            ]
        ),

        // MARK: Images
        // Swift over libvips: thumbnails and encoding. No C type escapes it.
        .target(
            name: "Images",
            dependencies: [
                "CVips",
            ]
        ),
        .testTarget(
            name: "ImagesTests",
            dependencies: [
                "Images",
            ]
        ),

        // MARK: Metadata
        // The preview: `LinkMetadata`, its media, redirects and richness, and
        // its wire JSON. Plain values, with nothing of how a page is fetched.
        .target(
            name: "Metadata",
            dependencies: [
                "JSON",
            ]
        ),
        .testTarget(
            name: "MetadataTests",
            dependencies: [
                "Metadata",
                "JSON",
                "PureTestSupport",
            ]
        ),

        // MARK: Rules
        // `MetadataRules`: a parsed head in, a `LinkMetadata` out. Pure, and
        // the compiler sees to it: it depends on the model, the scanner's
        // element records, the JSON parser and the trimming helpers only;
        // the engine, the network, the cache and the logs are out of reach.
        .target(
            name: "Rules",
            dependencies: [
                "Metadata",
                "HTMLHead",
                "JSON",
                "TextTrimming",
            ]
        ),
        .testTarget(
            name: "RulesTests",
            dependencies: [
                "Rules",
                "Metadata",
                "HTMLHead",
                "JSON",
                "PureTestSupport",
            ]
        ),

        // MARK: Options
        // The one options type: every preference's key, range and documentation,
        // the layers (flag, client, environment, file, default) merged by
        // precedence, the configuration file with its `[[site]]` rules and
        // `hover.*` keys, and the XDG rule. Knows nothing of the engine.
        .target(
            name: "Options",
            dependencies: [
                "Curl",
                "LinkPeekProtocol",
                "Redis",
                "SiteEngines",
                .product(name: "TOMLKit", package: "TOMLKit"),
            ]
        ),
        .testTarget(
            name: "OptionsTests",
            dependencies: [
                "Options",
            ]
        ),

        // MARK: SiteEngines
        // One file per site API: the links it answers, the request, and the
        // answer read into a preview. Pure: no network, cache or logs.
        .target(
            name: "SiteEngines",
            dependencies: [
                "Metadata",
                "JSON",
                "CLibXML2",
            ]
        ),
        .testTarget(
            name: "SiteEnginesTests",
            dependencies: [
                "SiteEngines",
                "Metadata",
                "JSON",
            ]
        ),

        // MARK: LinkPeek
        .target(
            name: "LinkPeek",
            dependencies: [
                "Options",
                "Curl",
                "JSON",
                "HTMLHead",
                "Metadata",
                "Rules",
                "SiteEngines",
                "Images",
                "SQLite",
                "Redis",
                "TextTrimming",
                "Threading",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "LinkPeekTests",
            dependencies: [
                "LogCapture",
                .product(name: "Logging", package: "swift-log"),
                "LinkPeek",
                "HTMLHead",
                "JSON",
                "Images",
                "Redis",
                "LinkPeekTestSupport",
                "TextTrimming",
            ]
        ),

        // MARK: CSQLite
        // System library module for Debian's libsqlite3 (linked: the cache is used by most runs).
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [
                .apt(["libsqlite3-dev"]),
            ]
        ),

        // MARK: SQLite
        // A thin Swift layer over SQLite's C API: connections with cached
        // prepared statements, and a WAL pool of one writer and a few readers.
        // No C type escapes it.
        .target(
            name: "SQLite",
            dependencies: [
                "CSQLite",
            ]
        ),
        .testTarget(
            name: "SQLiteTests",
            dependencies: [
                "SQLite",
            ]
        ),

        // MARK: LinkPeekProtocol
        .target(
            name: "LinkPeekProtocol"
        ),
        .testTarget(
            name: "LinkPeekProtocolTests",
            dependencies: [
                "LinkPeekProtocol",
            ]
        ),

        // MARK: CCrashGuard
        // Closes the protocol stream first thing on a crash (crash_guard.h says why it is C).
        .target(
            name: "CCrashGuard"
        ),

        // MARK: JSONRPC
        .target(
            name: "JSONRPC",
            dependencies: [
                "CCrashGuard",
                "JSON",
                "Threading",
            ]
        ),
        .testTarget(
            name: "JSONRPCTests",
            dependencies: [
                "JSONRPC",
                "LinkPeekTestSupport",
            ]
        ),

        // MARK: LinkPeekServer
        .target(
            name: "LinkPeekServer",
            dependencies: [
                "LinkPeek",
                "Options",
                "LinkPeekProtocol",
                "JSONRPC",
                "Threading",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "LinkPeekServerTests",
            dependencies: [
                "LogCapture",
                .product(name: "Logging", package: "swift-log"),
                "LinkPeekServer",
                "JSONRPC",
                "LinkPeekTestSupport",
            ]
        ),

        // MARK: LinkPeekHTTP
        // The HTTP front (`serve --http`): the same engine API as the daemon
        // behind Hummingbird, with its limits, metrics and lifecycle.
        .target(
            name: "LinkPeekHTTP",
            dependencies: [
                "LinkPeek",
                "LinkPeekProtocol",
                "Options",
                "JSON",
                "TextTrimming",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "LinkPeekHTTPTests",
            dependencies: [
                "LinkPeekHTTP",
                "LinkPeek",
            ]
        ),

        // MARK: PureTestSupport
        // For the pure tests (JSON, HTMLHead, Rules), without the server:
        // the seeded generator and the HTML tag builders.
        .target(
            name: "PureTestSupport",
            dependencies: [
                "HTMLHead",
            ],
            path: "Tests/PureTestSupport"
        ),

        // MARK: LinkPeekTestSupport
        // For the Swift tests only (no product depends on it): the seeded
        // generator every random test uses, loopback listeners and servers,
        // the in-process daemon client (`TestClient`) and `FakeService`.
        .target(
            name: "LinkPeekTestSupport",
            dependencies: [
                "HTMLHead",
                "JSONRPC",
                "LinkPeek",
                "LinkPeekServer",
                "Options",
                "PureTestSupport",
                "Threading",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/LinkPeekTestSupport"
        ),

        // MARK: crash-guard-probe
        // Test support: installs the daemon's crash guard on its stdout, then
        // faults as its argument says (Tests/integration/test_crash_guard.py).
        .executableTarget(
            name: "crash-guard-probe",
            dependencies: [
                "JSONRPC",
            ],
            path: "Tests/crash-guard-probe"
        ),

        // MARK: cache-time
        // Benchmark tool (Benchmarks/bench_cache.py): times in-process cache
        // lookups; not in the release binary (`swift build --product cache-time`).
        .executableTarget(
            name: "cache-time",
            dependencies: [
                "LinkPeek",
            ],
            path: "Benchmarks/cache-time"
        ),

        // MARK: linkpeek
        .executableTarget(
            name: "linkpeek",
            dependencies: [
                "CBuildInfo",
                "Curl",
                "JSON",
                "LinkPeek",
                "LinkPeekProtocol",
                "LinkPeekHTTP",
                "LinkPeekServer",
                "Options",
                "Redis",
                "TextTrimming",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // What the loader reads at every start, resident for the whole
            // run. `--static-swift-stdlib` exports every Swift symbol of
            // the binary (`-export-dynamic`: 28,000 entries, 2.5 MB of
            // symbol and hash tables) though nothing looks them up: no
            // plugin, and the backtracer reads the file. Packed relative
            // relocations (DT_RELR, glibc 2.36) replace 2.7 MB of RELA
            // entries, all read at start, with a few KB of bitmaps; the
            // same pointers are relocated. gold cannot pack them: LLVM's
            // lld (shipped with Swift) links. PIE, RELRO and the
            // non-executable stack stay as they were.
            linkerSettings: [
                .unsafeFlags(
                    [
                        "-use-ld=lld",
                        "-Xlinker", "--no-export-dynamic",
                        "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                    ],
                    .when(platforms: [.linux])),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
