// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "linkpeek",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "linkpeek", targets: ["linkpeek"]),
        .library(name: "LinkPeek", targets: ["LinkPeek"]),
        // Loaded with dlopen on first use of the cache (CacheLibrary.swift says why);
        // it must sit beside the executable (swift build puts it there).
        .library(name: "LinkPeekCacheStore", type: .dynamic, targets: ["LinkPeekCacheStore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
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
            ]
        ),
        .testTarget(
            name: "RedisTests",
            dependencies: [
                "Redis",
            ]
        ),

        // MARK: SeededRandom
        // Test support: the seeded generator every random Swift test uses.
        .target(
            name: "SeededRandom",
            path: "Tests/SeededRandom"
        ),

        // MARK: TextTrimming
        // The one place `String`s are trimmed (and protocol text searched on its bytes), for every target (no dependencies).
        .target(
            name: "TextTrimming"
        ),
        // The one JSON string escaper, for the daemon's messages and the CLI's lines (no dependencies).
        .target(
            name: "JSONText"
        ),

        // MARK: Threading
        // Named detached pthreads, so that no target needs full Foundation for `Thread`.
        .target(
            name: "Threading"
        ),

        // MARK: Curl
        .target(
            name: "Curl",
            dependencies: [
                "CCurl",
                "TextTrimming",
                "Threading",
            ]
        ),
        .testTarget(
            name: "CurlTests",
            dependencies: [
                "Curl",
            ]
        ),

        // MARK: HTMLHead
        .target(
            name: "HTMLHead",
            dependencies: [
                "CLibXML2",
                "TextTrimming",
            ]
        ),
        .testTarget(
            name: "HTMLHeadTests",
            dependencies: [
                "HTMLHead",
                "SeededRandom",
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

        // MARK: LinkPeek
        .target(
            name: "LinkPeek",
            dependencies: [
                "Curl",
                "JSONText",
                "HTMLHead",
                "CacheABI",
                "Images",
                "Redis",
                "SeededRandom",
                "TextTrimming",
                "Threading",
            ]
        ),
        .testTarget(
            name: "LinkPeekTests",
            dependencies: [
                "LinkPeek",
                "HTMLHead",
                "Images",
                "Redis",
                "TextTrimming",
            ]
        ),

        // MARK: CacheABI
        // The bytes that cross between LinkPeek and the cache library: no
        // dependencies, statically in both.
        .target(
            name: "CacheABI"
        ),

        // MARK: LinkPeekCacheStore
        // The SQLite cache (GRDB), built as a dynamic library that LinkPeek opens on first use.
        .target(
            name: "LinkPeekCacheStore",
            dependencies: [
                "CacheABI",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),

        // MARK: LinkPeekProtocol
        .target(
            name: "LinkPeekProtocol"
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
                "JSONText",
                "Threading",
            ]
        ),
        .testTarget(
            name: "JSONRPCTests",
            dependencies: [
                "JSONRPC",
            ]
        ),

        // MARK: LinkPeekServer
        .target(
            name: "LinkPeekServer",
            dependencies: [
                "LinkPeek",
                "LinkPeekProtocol",
                "JSONRPC",
                "Threading",
            ]
        ),
        .testTarget(
            name: "LinkPeekServerTests",
            dependencies: [
                "LinkPeekServer",
                "JSONRPC",
                "SeededRandom",
            ]
        ),

        // MARK: linkpeek
        .executableTarget(
            name: "linkpeek",
            dependencies: [
                "Curl",
                "LinkPeek",
                "LinkPeekProtocol",
                "LinkPeekServer",
                "Redis",
                "TextTrimming",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
