import Foundation

/// A signed-in session kept between runs: where the server is, the marketplace and the token pair.
///
/// Stored as JSON in a file only its owner can read or write (0600), because the refresh token
/// signs in as the account until it expires.
struct Profile: Codable {
    var target: String
    var tls: Bool = false
    var caFile: String?
    /// Empty for the platform operator.
    var marketplaceId: String = ""
    var marketplaceName: String = ""
    var email: String = ""
    var accountId: String = ""
    var sessionId: String = ""
    var accessToken: String = ""
    var accessTokenExpireTime: Double = 0
    var refreshToken: String = ""
    var refreshTokenExpireTime: Double = 0

    /// The file of a profile: `--profile` or `SOUK_PROFILE`, a path when it contains a slash, else
    /// a name under `$XDG_CONFIG_HOME/souk` (`~/.config/souk`), `default` when neither is given.
    static func path(_ option: String?) -> String {
        let name = option ?? ProcessInfo.processInfo.environment["SOUK_PROFILE"] ?? "default"
        if name.contains("/") { return name }
        let environment = ProcessInfo.processInfo.environment
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        return "\(config)/souk/\(name).json"
    }

    static func load(_ path: String) -> Profile? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? JSONDecoder().decode(Profile.self, from: data)
    }

    /// Writes the profile through a new 0600 file renamed over the old one, so a crash never
    /// leaves half a file and the tokens are never readable by others, not even for a moment.
    func save(_ path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(self)
        let temporary = path + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { throw CLIError("cannot write \(temporary): \(String(cString: strerror(errno)))") }
        fchmod(fd, 0o600)
        let written = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard written == data.count, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw CLIError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }

    static func remove(_ path: String) {
        unlink(path)
    }
}

/// A failure on this side of the wire (bad input, a missing profile): exit code 1 with its message.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
