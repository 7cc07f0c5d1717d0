import SoukAccess
import SoukKit
import SoukMessages

/// Who the caller is to the rentals domain.
enum RentalsAccess {
    /// Admins of the marketplace and operators.
    static func isAdmin(_ call: SoukCall) -> Bool {
        guard let caller = call.caller else { return false }
        return caller.isOperator || caller.activeRoles.contains(.admin)
    }

    /// A lessor: an account holding the provider role, active or still pending approval. A
    /// pending lessor prepares drafts; publishing needs the role active.
    static func isLessor(_ caller: Caller) -> Bool {
        caller.activeRoles.contains(.provider) || caller.pendingRoles.contains(.provider)
    }
}

/// Checks of free text fields.
enum RentalsText {
    /// Why `text` is not a valid required text of at most `limit` characters; nil when it is.
    static func problem(_ text: String, limit: Int) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return "is required" }
        if trimmed != text { return "must not start or end with spaces" }
        if text.count > limit { return "must be at most \(limit) characters" }
        return nil
    }
}
