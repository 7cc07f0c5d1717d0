// swift-tools-version:6.1
// The stock mobile stack: Souk's contract (Proto/) compiled with the standard Swift tools
// (protoc-gen-swift and protoc-gen-grpc-swift-2) instead of Souk's own wrappers, and a shop journey
// that talks to a real souk-server through that code only. The generated code is committed
// (scripts/generate --stock-swift writes it); building this package never runs the plugins.
import PackageDescription

let package = Package(
    name: "stock-swift",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "SoukStockAPI", targets: ["SoukStockAPI"]),
        .executable(name: "stock-journey", targets: ["stock-journey"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-protobuf.git", exact: "1.39.0"),
        .package(url: "https://github.com/grpc/grpc-swift-2.git", exact: "2.4.3"),
        .package(url: "https://github.com/grpc/grpc-swift-nio-transport.git", exact: "2.9.2"),
        .package(url: "https://github.com/grpc/grpc-swift-protobuf.git", exact: "2.4.1"),
    ],
    targets: [
        // Generated from Proto/ by scripts/generate --stock-swift: the souk.v1 messages and
        // clients, and the google.rpc messages that error details arrive in.
        .target(
            name: "SoukStockAPI",
            dependencies: [
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf"),
            ],
            exclude: ["GENERATED.stamp"]
        ),
        // One shop journey against a running souk-server, as a mobile app would make it.
        .executableTarget(
            name: "stock-journey",
            dependencies: [
                "SoukStockAPI",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf"),
                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
            ]
        ),
    ]
)
