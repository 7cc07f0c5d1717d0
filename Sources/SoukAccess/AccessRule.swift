import SoukGRPC
import SoukMessages

/// Who may call one RPC, parsed from the contract's `// Access: ...` line.
///
/// Grammar (see the ACCESS LINE section of `souk/v1/common.proto`):
/// `Access: <caller>[, <caller>]... .` with callers `guest`, `customer`, `provider`, `courier`,
/// `admin`, `operator`, `push_adapter`, each role optionally followed by ` (owner)`.
public struct AccessRule: Sendable, Equatable, CustomStringConvertible {
    /// `guest`: anyone, signed in or not.
    public var allowsGuests: Bool
    /// Roles allowed on any resource of their marketplace.
    public var roles: Set<SoukV1.Role>
    /// Roles allowed only as the owning party of the resource the request names.
    public var ownerRoles: Set<SoukV1.Role>

    public init(allowsGuests: Bool = false, roles: Set<SoukV1.Role> = [], ownerRoles: Set<SoukV1.Role> = []) {
        self.allowsGuests = allowsGuests
        self.roles = roles
        self.ownerRoles = ownerRoles
    }

    private static let words: [String: SoukV1.Role] = [
        "customer": .customer, "provider": .provider, "courier": .courier, "admin": .admin, "operator": .operator,
        "push_adapter": .pushAdapter,
    ]

    /// Parses one Access line, for example `Access: customer (owner), admin, operator.`.
    public init(parsing line: Substring) throws(AccessLineError) {
        let text = line.trimmingWhitespace()
        guard text.hasPrefix("Access: "), text.hasSuffix(".") else {
            throw AccessLineError("the first comment line must read \"Access: <caller>[, <caller>]... .\", found \"\(text)\"")
        }
        let list = text.dropFirst("Access: ".count).dropLast()
        self.init()
        var seen = Set<String>()
        for item in list.split(separator: ",", omittingEmptySubsequences: false) {
            var word = item.trimmingWhitespace()
            let owner = word.hasSuffix(" (owner)")
            if owner { word = word.dropLast(" (owner)".count) }
            guard seen.insert(String(word)).inserted else { throw AccessLineError("\"\(word)\" is listed twice in \"\(text)\"") }
            if word == "guest" {
                guard !owner else { throw AccessLineError("guest cannot be qualified with (owner) in \"\(text)\"") }
                allowsGuests = true
            } else if let role = Self.words[String(word)] {
                if owner { ownerRoles.insert(role) } else { roles.insert(role) }
            } else {
                throw AccessLineError("unknown caller \"\(word)\" in \"\(text)\"")
            }
        }
    }

    /// Whether some caller passes only on their own resources (the RPC then needs an owner check).
    public var hasOwnerQualifiedRoles: Bool { !ownerRoles.isEmpty }

    /// The decision for a caller (nil: no valid token).
    public func decide(for caller: Caller?) -> AccessDecision {
        if allowsGuests { return .allowed }
        guard let caller else { return .unauthenticated }
        if !caller.activeRoles.isDisjoint(with: roles) { return .allowed }
        let ownerPass = caller.activeRoles.intersection(ownerRoles)
        if !ownerPass.isEmpty { return .allowedAsOwner(ownerPass) }
        if !caller.pendingRoles.isDisjoint(with: roles.union(ownerRoles)) { return .denied(.rolePending) }
        return .denied(.notAllowed)
    }

    public var description: String {
        var words: [String] = allowsGuests ? ["guest"] : []
        for role in SoukV1.Role.allCases {
            let name = Self.words.first { $0.value == role }?.key ?? "\(role)"
            if roles.contains(role) { words.append(name) }
            if ownerRoles.contains(role) { words.append("\(name) (owner)") }
        }
        return "Access: \(words.joined(separator: ", "))."
    }
}

/// The outcome of checking a caller against an `AccessRule`.
public enum AccessDecision: Sendable, Equatable {
    case allowed
    /// Allowed only if the caller owns the resource, acting in one of these roles.
    case allowedAsOwner(Set<SoukV1.Role>)
    /// No valid token and guests are not allowed.
    case unauthenticated
    /// Signed in without an allowed active role.
    case denied(SoukV1.ErrorReason)
}

/// A missing or malformed Access line.
public struct AccessLineError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

extension Substring {
    func trimmingWhitespace() -> Substring {
        var text = self
        while let first = text.first, first.isWhitespace { text = text.dropFirst() }
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        return text
    }
}
