/// One etcd member's client address.
public struct EtcdEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// A host name or an IP address (IPv6 without brackets).
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// The endpoints of a store URL: `etcd://host:port,host:port,...` (an IPv6 address in
    /// brackets, `[::1]:2379`), optionally followed by settings (`?max-txn-ops=1024`, see
    /// `EtcdKeyValueEngine.Configuration(storeURL:)`). `souk-server --store etcd://...` names its
    /// cluster this way.
    public static func parse(storeURL: String) throws(EtcdURLError) -> [EtcdEndpoint] {
        let scheme = "etcd://"
        guard storeURL.hasPrefix(scheme) else { throw EtcdURLError("\(storeURL): expected etcd://host:port,host:port,...") }
        let list = storeURL.dropFirst(scheme.count).prefix { $0 != "?" }
        // A trailing slash is tolerated (`etcd://a:1,b:2/`); a path is not meaningful.
        let trimmed = list.hasSuffix("/") ? list.dropLast() : list
        guard !trimmed.isEmpty else { throw EtcdURLError("\(storeURL): no endpoint") }
        var endpoints: [EtcdEndpoint] = []
        for part in trimmed.split(separator: ",", omittingEmptySubsequences: false) {
            let endpoint = try parseEndpoint(part, in: storeURL)
            if !endpoints.contains(endpoint) { endpoints.append(endpoint) }
        }
        return endpoints
    }

    private static func parseEndpoint(_ part: Substring, in url: String) throws(EtcdURLError) -> EtcdEndpoint {
        let host: Substring
        let portText: Substring
        if part.hasPrefix("[") {
            guard let close = part.firstIndex(of: "]"), part[part.index(after: close)...].hasPrefix(":") else {
                throw EtcdURLError("\(url): \(part) is not [address]:port")
            }
            host = part[part.index(after: part.startIndex)..<close]
            portText = part[part.index(close, offsetBy: 2)...]
        } else {
            guard let colon = part.lastIndex(of: ":"), !part[..<colon].contains(":") else {
                throw EtcdURLError("\(url): \(part.isEmpty ? "an empty endpoint" : String(part)) is not host:port")
            }
            host = part[..<colon]
            portText = part[part.index(after: colon)...]
        }
        guard !host.isEmpty, !host.contains("/") else { throw EtcdURLError("\(url): \(part) has no host") }
        guard let port = Int(portText), (1...65535).contains(port) else {
            throw EtcdURLError("\(url): \(part) has no valid port (1-65535)")
        }
        return EtcdEndpoint(host: String(host), port: port)
    }

    /// The settings after `?` in a store URL (`name=value`, joined by `&`), by name.
    public static func settings(storeURL: String) throws(EtcdURLError) -> [String: String] {
        guard let mark = storeURL.firstIndex(of: "?") else { return [:] }
        var settings: [String: String] = [:]
        for pair in storeURL[storeURL.index(after: mark)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, !parts[0].isEmpty else { throw EtcdURLError("\(storeURL): \(pair) is not name=value") }
            settings[String(parts[0])] = String(parts[1])
        }
        return settings
    }
}

/// A store URL that does not name etcd endpoints.
public struct EtcdURLError: Error, Equatable, CustomStringConvertible {
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}
