// grpc-swift-peer --port P
//
// Serves grpc.testing.TestService on 127.0.0.1 with grpc-swift 2 over its NIO HTTP/2 transport,
// with the library's default configuration (event loops: one per CPU the process may run on).
import GRPCCore
import GRPCNIOTransportHTTP2Posix

var port = 50051
var arguments = CommandLine.arguments.dropFirst()
while let option = arguments.popFirst() {
    guard option == "--port", let value = arguments.popFirst().flatMap({ Int($0) }) else {
        fatalError("usage: grpc-swift-peer --port P")
    }
    port = value
}

let server = GRPCServer(
    transport: .http2NIOPosix(address: .ipv4(host: "127.0.0.1", port: port), transportSecurity: .plaintext),
    services: [TestService()]
)
try await server.serve()
