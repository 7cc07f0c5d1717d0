// swift-tools-version:6.2
import PackageDescription

// grpc.testing.TestService on grpc-swift 2 with its NIO HTTP/2 transport, for bench/compare.
// Versions are pinned exactly so the comparison always measures the same code.
let package = Package(
    name: "GRPCSwiftPeer",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "grpc-swift-peer", targets: ["GRPCSwiftPeer"]),
    ],
    dependencies: [
        .package(url: "https://github.com/grpc/grpc-swift-2.git", exact: "2.4.3"),
        .package(url: "https://github.com/grpc/grpc-swift-nio-transport.git", exact: "2.9.2"),
        .package(url: "https://github.com/grpc/grpc-swift-protobuf.git", exact: "2.4.1"),
        .package(url: "https://github.com/apple/swift-protobuf.git", exact: "1.39.0"),
    ],
    targets: [
        .executableTarget(
            name: "GRPCSwiftPeer",
            dependencies: [
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2Posix", package: "grpc-swift-nio-transport"),
                .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]
        ),
    ]
)
