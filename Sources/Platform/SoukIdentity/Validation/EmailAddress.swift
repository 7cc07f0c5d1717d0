/// E-mail address rules (platform decision 6): a practical subset of RFC 5321 addresses in
/// ASCII, compared case-insensitively, optionally restricted to a marketplace's domains.
public enum EmailAddress {
    /// What is wrong with an address, or nil when it is acceptable.
    public static func problem(with address: String) -> String? {
        let bytes = Array(address.utf8)
        guard !bytes.isEmpty else { return "is required" }
        guard bytes.count <= 254 else { return "must be at most 254 characters" }
        guard let at = bytes.lastIndex(of: UInt8(ascii: "@")), bytes.firstIndex(of: UInt8(ascii: "@")) == at else {
            return "must contain exactly one @"
        }
        let local = bytes[..<at]
        let domain = bytes[(at + 1)...]
        guard !local.isEmpty, local.count <= 64 else { return "must have 1 to 64 characters before the @" }
        guard local.allSatisfy(isLocalCharacter) else { return "has a character not allowed before the @" }
        guard local.first != UInt8(ascii: "."), local.last != UInt8(ascii: "."), !containsDoubleDot(local) else {
            return "must not start or end with a dot or contain two dots in a row before the @"
        }
        return problem(withDomain: domain)
    }

    /// The form addresses are compared and indexed in: lower-cased.
    public static func key(_ address: String) -> String {
        address.lowercased()
    }

    /// The domain after the @, lower-cased.
    public static func domain(of address: String) -> String {
        guard let at = address.lastIndex(of: "@") else { return "" }
        return address[address.index(after: at)...].lowercased()
    }

    /// Whether the address ends with "@" + one of `domains` (case-insensitive); any address when empty.
    public static func isAllowed(_ address: String, domains: [String]) -> Bool {
        guard !domains.isEmpty else { return true }
        let domain = domain(of: address)
        return domains.contains { $0.lowercased() == domain }
    }

    /// What is wrong with a domain name (for settings), or nil.
    public static func problem(withDomainName name: String) -> String? {
        problem(withDomain: Array(name.utf8)[...])
    }

    private static func problem(withDomain domain: ArraySlice<UInt8>) -> String? {
        guard !domain.isEmpty, domain.count <= 253 else { return "must have a domain of 1 to 253 characters after the @" }
        let labels = domain.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard labels.count >= 2 else { return "must have a domain with a dot, like example.com" }
        for label in labels {
            guard !label.isEmpty, label.count <= 63,
                  label.allSatisfy({ isAlphanumeric($0) || $0 == UInt8(ascii: "-") }),
                  label.first != UInt8(ascii: "-"), label.last != UInt8(ascii: "-")
            else { return "has an invalid domain name" }
        }
        guard let top = labels.last, top.count >= 2, top.allSatisfy(isLetter) else { return "has an invalid top-level domain" }
        return nil
    }

    private static func containsDoubleDot(_ bytes: ArraySlice<UInt8>) -> Bool {
        zip(bytes, bytes.dropFirst()).contains { $0 == UInt8(ascii: ".") && $1 == UInt8(ascii: ".") }
    }

    private static func isLetter(_ c: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(c) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(c)
    }

    private static func isAlphanumeric(_ c: UInt8) -> Bool {
        isLetter(c) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c)
    }

    /// RFC 5322 atext plus the dot.
    private static func isLocalCharacter(_ c: UInt8) -> Bool {
        isAlphanumeric(c) || Array("!#$%&'*+-/=?^_`{|}~.".utf8).contains(c)
    }
}
