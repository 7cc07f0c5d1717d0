// swift-tools-version:6.2
import PackageDescription

// C libraries come from Debian packages (scripts/install-deps installs them) through pkg-config.
func systemLibrary(_ name: String, _ pkgConfig: String, _ apt: String) -> Target {
    .systemLibrary(name: name, path: "Sources/\(name)", pkgConfig: pkgConfig, providers: [.apt([apt])])
}

let nioCore = Target.Dependency.product(name: "NIOCore", package: "swift-nio")
let nioPosix = Target.Dependency.product(name: "NIOPosix", package: "swift-nio")
let nioSSL = Target.Dependency.product(name: "NIOSSL", package: "swift-nio-ssl")
let logging = Target.Dependency.product(name: "Logging", package: "swift-log")
let metrics = Target.Dependency.product(name: "Metrics", package: "swift-metrics")
let base64 = Target.Dependency.product(name: "ExtrasBase64", package: "swift-extras-base64")
let serviceLifecycle = Target.Dependency.product(name: "ServiceLifecycle", package: "swift-service-lifecycle")

/// Settings of the modules every call passes through (HTTP/2, gRPC, the message wrappers, the
/// interop test service the benchmarks measure, and souk-load's engine that measures them):
/// release builds skip the dynamic exclusivity checks there, a runtime call on every access to a
/// class property on the call path. Domain and storage modules, and debug builds (which run the
/// tests), keep them.
let callPathModules: Set<String> = ["SoukHTTP2", "SoukGRPC", "SoukGRPCClient", "SoukMessages", "SoukStandardServices", "SoukLoadKit"]
let callPathSettings: [SwiftSetting] = [
    .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release)),
]

let package = Package(
    name: "Souk",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "souk-server", targets: ["SoukServer"]),
        .library(name: "SoukGRPCClient", targets: ["SoukGRPCClient"]),
        .library(name: "SoukClient", targets: ["SoukClient"]),
        .executable(name: "souk", targets: ["SoukCLI"]),
        .executable(name: "souk-load", targets: ["SoukLoad"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        .package(url: "https://github.com/swift-extras/swift-extras-base64.git", from: "1.2.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift.git", from: "0.2.0"),
    ],
    targets: [
        systemLibrary("CProtobufC", "libprotobuf-c", "libprotobuf-c-dev"),
        systemLibrary("CNGHTTP2", "libnghttp2", "libnghttp2-dev"),
        systemLibrary("CRocksDB", "rocksdb", "librocksdb-dev"),
        systemLibrary("CSodium", "libsodium", "libsodium-dev"),
        systemLibrary("CZlib", "zlib", "zlib1g-dev"),
        // Image sizes of uploaded pictures (SoukMedia).
        systemLibrary("CVips", "vips", "libvips-dev"),

        // protoc-c output for every .proto in Proto/, plus the embedded descriptor set.
        .target(
            name: "SoukProtoC",
            dependencies: ["CProtobufC"],
            path: "Generated",
            exclude: ["souk.desc", "etcd.desc"],
            publicHeadersPath: ".",
            cSettings: [.headerSearchPath(".")]
        ),
        // Swift value types over the protobuf-c structs; no C type leaves this module.
        .target(name: "SoukMessages", dependencies: ["SoukProtoC", "CProtobufC"]),
        // The proto3 JSON mapping for any message of a descriptor set (the `souk` CLI, JSON calls).
        .target(name: "SoukJSON", dependencies: ["SoukProtoC"]),
        // HTTP/2 server and client: nghttp2 sessions driven by SwiftNIO channels.
        .target(
            name: "SoukHTTP2",
            dependencies: [
                "CNGHTTP2", nioCore, nioPosix, nioSSL, .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"), logging, metrics,
            ]),
        // gRPC over SoukHTTP2: framing, status, metadata, deadlines, compression, dispatch, interceptors.
        .target(name: "SoukGRPC", dependencies: ["SoukHTTP2", "SoukMessages", "SoukTracing", "CZlib", nioCore, nioPosix, logging, metrics, base64]),
        // W3C trace context, spans and their export to an OpenTelemetry collector (OTLP/HTTP JSON).
        .target(name: "SoukTracing", dependencies: ["SoukJSON"]),
        // gRPC-Web (binary and base64 text), Connect unary JSON calls and CORS in front of the gRPC router, on the same port.
        .target(name: "SoukWeb", dependencies: ["SoukGRPC", "SoukHTTP2", "SoukJSON", "SoukMessages", nioCore, base64]),
        // gRPC client over SoukHTTP2's client connections: channels, calls of every shape, deadlines, reconnection.
        .target(name: "SoukGRPCClient", dependencies: ["SoukGRPC", "SoukHTTP2", "SoukMessages", "SoukTracing", nioCore, nioPosix]),
        // grpc.health.v1, grpc.reflection, grpc.testing interop services.
        .target(name: "SoukStandardServices", dependencies: ["SoukGRPC", "SoukMessages", logging]),
        // RocksDB records, secondary indexes, transactions, idempotency, event logs, backups.
        // RocksDB's batched MultiGet and CompactRange, which its C API does not offer for a TransactionDB;
        // backup verification with checksums, the database directory's lock, an atomic directory swap.
        .target(name: "CRocksDBBatch", dependencies: ["CRocksDB"]),
        // jemalloc's start-up options for souk-server.
        .target(name: "CAllocatorOptions"),
        .target(name: "SoukStore", dependencies: ["CRocksDB", "CRocksDBBatch", "CSodium", "SoukTracing", logging, nioCore, nioPosix, base64], exclude: ["README.md"]),
        // Store maintenance commands (backup, restore, verify, build-index, compact), mounted by an executable with its schema.
        .target(name: "SoukStoreTools", dependencies: ["SoukStore", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // A small sample schema (jobs, accounts) shared by the store tests, the crash-test child and the benchmark.
        .target(name: "SoukStoreFixtures", dependencies: ["SoukStore"], path: "Tests/SoukStoreFixtures"),
        // The etcd store engine: etcd's v3 API over SoukGRPCClient, and KeyValueEngine over it.
        .target(name: "SoukEtcd", dependencies: ["SoukStore", "SoukGRPCClient", "SoukGRPC", "SoukMessages", .product(name: "Logging", package: "swift-log")], exclude: ["README.md"]),
        // souk-store-harness: the crash-test child, the store benchmark and the store commands over the sample schema.
        .executableTarget(
            name: "SoukStoreHarness",
            dependencies: [
                "SoukStore", "SoukStoreTools", "SoukStoreFixtures", "CAllocatorOptions", nioCore, nioPosix,
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "bench/store/Harness",
            // The store's memory is measured with the allocator souk-server runs with.
            linkerSettings: [.linkedLibrary("jemalloc", .when(platforms: [.linux]))]
        ),
        // souk-commerce-bench: checkouts with durable writes beside durable creates, and catalog pages.
        .executableTarget(
            name: "SoukCommerceBench",
            dependencies: [
                "SoukOrders", "SoukShops", "SoukFood", "SoukCommerceTesting", "SoukPayments", "SoukNotifications", "SoukKit", "SoukMessages", "SoukStore", "SoukStoreFixtures", "SoukTesting",
                "CAllocatorOptions",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "bench/commerce/Harness",
            linkerSettings: [.linkedLibrary("jemalloc", .when(platforms: [.linux]))]
        ),
        // Dispatch benchmark: ranked nearby-driver queries at 1,000 and 100,000 online drivers (bench/dispatch/run).
        .executableTarget(
            name: "SoukDispatchBench",
            dependencies: [
                "SoukOrders", "SoukShops", "SoukFood", "SoukCommerceTesting", "SoukPayments", "SoukNotifications", "SoukKit", "SoukMessages", "SoukStore", "SoukTesting", "CAllocatorOptions",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "bench/dispatch/Harness",
            linkerSettings: [.linkedLibrary("jemalloc", .when(platforms: [.linux]))]
        ),
        // Rentals search benchmark: nearby and text queries at 10,000 and 1,000,000 listings (bench/rentals/run).
        .executableTarget(
            name: "SoukRentalsBench",
            dependencies: [
                "SoukRentals", "SoukPayments", "SoukNotifications", "SoukKit", "SoukMessages", "SoukStore", "SoukTesting", "CAllocatorOptions",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "bench/rentals/Harness",
            linkerSettings: [.linkedLibrary("jemalloc", .when(platforms: [.linux]))]
        ),
        // Who may call what: callers from bearer tokens and the access rules read from the contract's Access lines.
        .target(name: "SoukAccess", dependencies: ["SoukGRPC", "SoukMessages", "SoukStore", logging, nioCore]),
        // What every domain module is built on: the souk.v1 method builder and interceptors, errors,
        // request-field checks, record codecs, the audit log, the outbox, the UNIMPLEMENTED fallback,
        // the state machines every lifecycle is declared with, and the scheduler of their timers.
        .target(
            name: "SoukKit", dependencies: ["SoukAccess", "SoukGRPC", "SoukMessages", "SoukStore", logging, nioCore, serviceLifecycle],
            exclude: ["ADDING-A-SERVICE.md", "StateMachine/MACHINES.md"]),
        // Platform modules (Sources/Platform), what every vertical builds on.
        // The dashboards' totals per marketplace and day, kept by the owners of what they count, and the dashboards.
        .target(name: "SoukReports", dependencies: ["SoukKit", "SoukAccess", "SoukGRPC", "SoukMessages", "SoukStore", logging], path: "Sources/Platform/SoukReports"),
        // Marketplaces, accounts, sessions and tokens, passwords (Argon2id).
        .target(
            name: "SoukIdentity", dependencies: ["SoukReports", "SoukKit", "SoukAccess", "SoukGRPC", "SoukMessages", "SoukStore", "CSodium", logging, nioCore, nioPosix],
            path: "Sources/Platform/SoukIdentity"),
        // Uploaded files and images: media records, content-addressed files beside the store, the Media service, the purge.
        .target(
            name: "SoukMedia", dependencies: ["SoukKit", "SoukAccess", "SoukGRPC", "SoukMessages", "SoukStore", "SoukWeb", "SoukHTTP2", "CSodium", "CVips", logging, nioCore],
            path: "Sources/Platform/SoukMedia"),
        // The payments ledger, the simulated gateway and its card tokens, and the kinds of record the verticals make payable.
        .target(
            name: "SoukPayments", dependencies: ["SoukReports", "SoukKit", "SoukAccess", "SoukIdentity", "SoukGRPC", "SoukMessages", "SoukStore", logging, nioPosix],
            path: "Sources/Platform/SoukPayments"),
        // Notifications: the stored notifications and unread counts every vertical writes, and the Notifications service.
        .target(
            name: "SoukNotifications", dependencies: ["SoukKit", "SoukAccess", "SoukIdentity", "SoukGRPC", "SoukJSON", "SoukMessages", "SoukStore"],
            path: "Sources/Platform/SoukNotifications"),
        // Support tickets from every role and from guests, answered by admins, with the marketplace's response target.
        .target(
            name: "SoukSupport", dependencies: ["SoukKit", "SoukAccess", "SoukIdentity", "SoukNotifications", "SoukGRPC", "SoukMessages", "SoukStore"],
            path: "Sources/Platform/SoukSupport"),
        // Conversations between the parties of an order, a job, a lease or a listing, and with support: the Messaging service.
        .target(
            name: "SoukMessaging", dependencies: ["SoukKit", "SoukAccess", "SoukIdentity", "SoukNotifications", "SoukGRPC", "SoukMessages", "SoukStore"],
            path: "Sources/Platform/SoukMessaging"),
        // Announcements, policies and advertisements each marketplace publishes to its roles (its part of souk.v1.Admin).
        .target(
            name: "SoukContent", dependencies: ["SoukKit", "SoukAccess", "SoukIdentity", "SoukNotifications", "SoukGRPC", "SoukMessages", "SoukStore"],
            path: "Sources/Platform/SoukContent"),

        // Verticals (Sources/Verticals), one module per owner.
        // What the shops and food delivery share: orders, carts, deliveries, couriers, cash on delivery, feedback, and
        // the hooks (`OrderVertical`) through which each vertical adds its part to them.
        .target(
            name: "SoukOrders",
            dependencies: ["SoukReports", "SoukKit", "SoukAccess", "SoukIdentity", "SoukPayments", "SoukNotifications", "SoukGRPC", "SoukMessages", "SoukStore", logging],
            path: "Sources/Verticals/SoukOrders"),
        // The shops: Aqua Hub's water services and staff deliveries, Chateau Du Nox's products and retail checkout.
        .target(
            name: "SoukShops",
            dependencies: ["SoukOrders", "SoukKit", "SoukAccess", "SoukIdentity", "SoukPayments", "SoukNotifications", "SoukGRPC", "SoukMessages", "SoukStore", logging],
            path: "Sources/Verticals/SoukShops"),
        // DineSwift: restaurants, menus, food carts and checkout, dispatch of drivers, reports.
        .target(
            name: "SoukFood",
            dependencies: ["SoukOrders", "SoukKit", "SoukAccess", "SoukIdentity", "SoukPayments", "SoukNotifications", "SoukGRPC", "SoukMessages", "SoukStore", logging],
            path: "Sources/Verticals/SoukFood"),
        // Drip 'n Dash: dorms, Dashers, laundry jobs, their payments, ratings and disputes.
        .target(
            name: "SoukLaundry",
            dependencies: ["SoukReports", "SoukKit", "SoukAccess", "SoukIdentity", "SoukPayments", "SoukNotifications", "SoukGRPC", "SoukMessages", "SoukStore", logging],
            path: "Sources/Verticals/SoukLaundry"),
        // Listings, regions, search, nearby places and favorites of MARA; bookings and bills.
        .target(
            name: "SoukRentals",
            dependencies: ["SoukReports", "SoukKit", "SoukAccess", "SoukIdentity", "SoukPayments", "SoukNotifications", "SoukGRPC", "SoukMessages", "SoukStore", logging],
            path: "Sources/Verticals/SoukRentals"),
        // The typed souk.v1 client (its Contract/ generated by scripts/generate): sessions, retries, resumed Watch streams.
        .target(name: "SoukClient", dependencies: ["SoukGRPCClient", "SoukGRPC", "SoukMessages"]),
        // The demo marketplaces and accounts `souk-server --demo` loads.
        .target(name: "SoukDemo", dependencies: ["SoukIdentity", "SoukKit", "SoukAccess", "SoukMessages", "SoukStore", logging]),
        .executableTarget(
            name: "SoukServer",
            dependencies: [
                "SoukGRPC", "SoukHTTP2", "SoukStandardServices", "SoukStore", "SoukStoreTools", "SoukMessages", logging, metrics,
                "SoukAccess", "SoukKit", "SoukReports", "SoukIdentity", "SoukMedia", "SoukPayments", "SoukNotifications", "SoukOrders", "SoukShops", "SoukFood", "SoukLaundry", "SoukRentals",
                "SoukSupport", "SoukMessaging", "SoukContent", "SoukDemo", "SoukWeb", "SoukJSON", "SoukTracing", "SoukEtcd", "CAllocatorOptions",
                nioCore, nioPosix, serviceLifecycle, .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            // The admin console's static pages, served under /console/ (ConsoleRoute.swift).
            resources: [.copy("Console")],
            // jemalloc replaces glibc's malloc for the whole process (Swift runtime, nghttp2, protobuf-c,
            // RocksDB): a call's short-lived buffers are allocated and freed in bursts that overflow
            // glibc's per-thread cache, and jemalloc also keeps idle connections smaller.
            linkerSettings: [.linkedLibrary("jemalloc", .when(platforms: [.linux]))]
        ),

        // souk: the command-line client (sign-in, any RPC as JSON, tables of the everyday tasks).
        .executableTarget(
            name: "SoukCLI",
            dependencies: [
                "SoukGRPCClient", "SoukJSON", "SoukGRPC", "SoukHTTP2", "SoukProtoC", nioCore,
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // souk-load's engine: open and closed models, scenarios, HDR statistics (a library so its tests reach it).
        .target(
            name: "SoukLoadKit",
            dependencies: [
                "SoukGRPCClient", "SoukGRPC", "SoukHTTP2", "SoukJSON", "SoukMessages", "SoukProtoC", nioCore, nioPosix,
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ],
            path: "Sources/SoukLoad/Engine"),
        // souk-load: the load generator (its command line over SoukLoadKit).
        .executableTarget(
            name: "SoukLoad",
            dependencies: ["SoukLoadKit", "SoukGRPCClient", "SoukJSON", "SoukEtcd", "SoukMessages", nioCore, nioPosix, .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Sources/SoukLoad/Command"),

        // What every test target shares: stores in temporary directories, a hand-moved clock, the
        // domains mounted over a store with callers of every role, and a server on a free port.
        .target(
            name: "SoukTesting",
            dependencies: ["SoukStore", "SoukKit", "SoukAccess", "SoukIdentity", "SoukGRPC", "SoukHTTP2", "SoukMessages", logging, nioCore, nioPosix],
            path: "Tests/SoukTesting"
        ),
        // The commerce domains (orders, shops, food) mounted together over a `DomainHarness`.
        .target(
            name: "SoukCommerceTesting", dependencies: ["SoukOrders", "SoukShops", "SoukFood", "SoukIdentity", "SoukKit"],
            path: "Tests/SoukCommerceTesting"),
        .testTarget(name: "SoukServerTests", dependencies: ["SoukServer", "SoukContent", "SoukDemo", "SoukReports", "SoukIdentity", "SoukMedia", "SoukPayments", "SoukNotifications", "SoukOrders", "SoukShops", "SoukFood", "SoukCommerceTesting", "SoukLaundry", "SoukRentals", "SoukKit", "SoukStore", "SoukTesting"]),
        .testTarget(name: "SoukMessagesTests", dependencies: ["SoukMessages", "SoukProtoC"], exclude: ["Vectors"]),
        .testTarget(
            name: "SoukHTTP2Tests",
            dependencies: [
                "SoukHTTP2", "CNGHTTP2", "SoukTesting", nioCore, nioPosix, nioSSL, logging,
                .product(name: "NIOTLS", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "SoukGRPCTests",
            dependencies: [
                "SoukGRPC", "SoukMessages", "SoukTracing", nioCore, logging,
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ]
        ),
        .testTarget(name: "SoukLoadTests", dependencies: ["SoukLoadKit", "SoukJSON"]),
        .testTarget(name: "SoukJSONTests", dependencies: ["SoukJSON"], exclude: ["Fixtures"]),
        .testTarget(
            name: "SoukGRPCClientTests",
            dependencies: ["SoukGRPCClient", "SoukGRPC", "SoukHTTP2", "SoukStandardServices", "SoukMessages", nioCore, nioPosix, nioSSL, logging]),
        // Runs the typed client against a souk-server process (the binary beside the test bundle).
        .testTarget(name: "SoukClientTests", dependencies: ["SoukClient", "SoukGRPCClient", "SoukGRPC", "SoukMessages", nioCore, nioPosix]),
        .testTarget(name: "SoukStandardServicesTests", dependencies: ["SoukStandardServices", "SoukGRPC", "SoukMessages", nioCore]),
        .testTarget(name: "SoukAccessTests", dependencies: ["SoukAccess", "SoukKit", "SoukGRPC", "SoukMessages", "SoukStore", nioCore]),
        .testTarget(
            name: "SoukIdentityTests",
            dependencies: ["SoukIdentity", "SoukKit", "SoukAccess", "SoukGRPC", "SoukMessages", "SoukStore", "SoukDemo", "SoukTesting", logging, nioCore]),
        .testTarget(
            name: "SoukLifecycleTests",
            dependencies: [
                "SoukKit", "SoukIdentity", "SoukPayments", "SoukNotifications", "SoukReports", "SoukOrders", "SoukShops", "SoukFood", "SoukLaundry", "SoukRentals", "SoukSupport", "SoukGRPC",
                "SoukMessages", "SoukStore", "SoukTesting", .product(name: "PropertyBased", package: "swift-property-based"),
            ]),
        .testTarget(
            name: "SoukLaundryTests",
            dependencies: ["SoukLaundry", "SoukOrders", "SoukShops", "SoukFood", "SoukCommerceTesting", "SoukPayments", "SoukNotifications", "SoukIdentity", "SoukKit", "SoukAccess", "SoukGRPC", "SoukMessages", "SoukStore", "SoukTesting"]),
        .testTarget(
            name: "SoukRentalsTests",
            dependencies: ["SoukRentals", "SoukOrders", "SoukShops", "SoukFood", "SoukCommerceTesting", "SoukPayments", "SoukNotifications", "SoukIdentity", "SoukKit", "SoukAccess", "SoukGRPC", "SoukMessages", "SoukStore", "SoukTesting", nioCore]),
        .testTarget(
            name: "SoukCommerceTests",
            dependencies: ["SoukOrders", "SoukShops", "SoukFood", "SoukCommerceTesting", "SoukPayments", "SoukNotifications", "SoukIdentity", "SoukKit", "SoukAccess", "SoukGRPC", "SoukMessages", "SoukStore", "SoukTesting", logging]),
        .testTarget(
            name: "SoukPaymentsTests",
            dependencies: ["SoukPayments", "SoukNotifications", "SoukIdentity", "SoukKit", "SoukAccess", "SoukGRPC", "SoukMessages", "SoukStore", "SoukTesting"]),
        .testTarget(
            name: "SoukMessagingTests",
            dependencies: ["SoukMessaging", "SoukNotifications", "SoukIdentity", "SoukKit", "SoukAccess", "SoukGRPC", "SoukMessages", "SoukStore", "SoukTesting"]),
        .testTarget(
            name: "SoukContentTests",
            dependencies: ["SoukContent", "SoukNotifications", "SoukIdentity", "SoukKit", "SoukAccess", "SoukGRPC", "SoukMessages", "SoukStore", "SoukTesting"]),
        .testTarget(
            name: "SoukMediaTests",
            dependencies: ["SoukMedia", "SoukWeb", "SoukHTTP2", "SoukIdentity", "SoukKit", "SoukAccess", "SoukGRPC", "SoukMessages", "SoukStore", "SoukTesting", logging, nioCore, nioPosix]),
        .testTarget(
            name: "SoukStoreTests",
            dependencies: ["SoukStore", "SoukStoreTools", "SoukStoreFixtures", "SoukTesting", nioCore, nioPosix, .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(name: "SoukEtcdTests", dependencies: ["SoukEtcd", "SoukStore", "SoukGRPCClient", "SoukMessages", "SoukTesting"]),
    ]
)

for target in package.targets where callPathModules.contains(target.name) {
    target.swiftSettings = (target.swiftSettings ?? []) + callPathSettings
}
