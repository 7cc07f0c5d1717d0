import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import SoukHTTP2
import Testing

@Suite("HTTP/2 server: TLS")
struct HTTP2TLSTests {
    /// A self-signed P-256 certificate for localhost / 127.0.0.1 (valid until 2126), for tests only.
    static let certificatePEM = """
        -----BEGIN CERTIFICATE-----
        MIIBmjCCAUGgAwIBAgIUA5vXlIS/Vt8fQaumpFSJMtpbmV4wCgYIKoZIzj0EAwIw
        FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTEyMTIxNTQyM1oYDzIxMjYxMDI4
        MjE1NDIzWjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO
        PQMBBwNCAAQdh2+pWuh0r8ezoLBKEhm2LivOAjXLPBoDF67E+RaGtG7AiCi+bcSs
        vO9Lkhed92BmLEHdMa9n09UFkwGLKTino28wbTAdBgNVHQ4EFgQU0DZsfyzE/9mK
        GnZedk9tIzMiMBQwHwYDVR0jBBgwFoAU0DZsfyzE/9mKGnZedk9tIzMiMBQwDwYD
        VR0TAQH/BAUwAwEB/zAaBgNVHREEEzARgglsb2NhbGhvc3SHBH8AAAEwCgYIKoZI
        zj0EAwIDRwAwRAIgZfSys5HE/UPkXjhINAt2Yn7oxZH9erd8Qj/0gV8PoO4CICRw
        V69xtEJfUvThCBa2+0GPgEMPVOhGmyG9qglp9tqu
        -----END CERTIFICATE-----

        """
    static let privateKeyPEM = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgiGgv75RG3y0ROzb+
        B4lxZwqp/ujM8izEPIfbOp53vgahRANCAAQdh2+pWuh0r8ezoLBKEhm2LivOAjXL
        PBoDF67E+RaGtG7AiCi+bcSsvO9Lkhed92BmLEHdMa9n09UFkwGLKTin
        -----END PRIVATE KEY-----

        """

    @Test func servesHTTP2OverTLSWithALPN() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("souk-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let certificatePath = directory.appendingPathComponent("cert.pem").path
        let keyPath = directory.appendingPathComponent("key.pem").path
        try Self.certificatePEM.write(toFile: certificatePath, atomically: true, encoding: .utf8)
        try Self.privateKeyPEM.write(toFile: keyPath, atomically: true, encoding: .utf8)

        try await withServer({
            $0.tls = HTTP2ServerConfiguration.TLS(certificateChainPath: certificatePath, privateKeyPath: keyPath)
        }) { _, address, _ in
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(Self.certificatePEM.utf8)))
            tls.certificateVerification = .noHostnameVerification
            tls.applicationProtocols = ["h2"]
            let client = try await TestHTTP2Client.connect(to: address, tls: try NIOSSLContext(configuration: tls))
            defer { Task { await client.close() } }
            let body = testBytes(count: 300_000, seed: 77)
            let response = try await client.send(TestRequest(path: "/echo", body: body, trailers: [HTTP2Header("x-t", "1")]))
            #expect(response.status == "200")
            #expect(response.body == body)
            #expect(response.trailer("x-t") == "1")
            #expect(try await client.negotiatedProtocol() == "h2")
        }
    }

    @Test func missingCertificateFailsStart() async throws {
        var configuration = HTTP2ServerConfiguration(host: "127.0.0.1", port: 0)
        configuration.tls = HTTP2ServerConfiguration.TLS(certificateChainPath: "/nonexistent/cert.pem", privateKeyPath: "/nonexistent/key.pem")
        let server = HTTP2Server(
            configuration: configuration,
            router: TestRouter(),
            logger: Logger(label: "souk.http2.test", factory: { _ in SwiftLogNoOpLogHandler() }),
            group: MultiThreadedEventLoopGroup.singleton
        )
        await #expect(throws: (any Error).self) { _ = try await server.start() }
        await server.shutdown(gracePeriod: .zero)
    }
}
