import SoukGRPC
import SoukAccess
import SoukKit
import SoukMessages
import SoukStore

/// What differs between announcements, policies and advertisements: their names in the
/// contract (the time fields are `publish_time`/`expire_time`, `effective_time`/`expire_time`,
/// `start_time`/`end_time`) and their rules. Everything else they share.
struct ContentSpec: Sendable {
    let kind: SoukStoreV1.ContentKind
    /// The resource's name, which is also the request's field holding it ("announcement").
    let noun: String
    let resource: SoukV1.ResourceType
    let publishPath: String
    let expirePath: String
    let bodyLimit: Int
    let bodyRequired: Bool
    /// The update mask paths.
    let maskPaths: Set<String>

    static let announcement = ContentSpec(
        kind: .announcement, noun: "announcement", resource: .announcement, publishPath: "publish_time", expirePath: "expire_time",
        bodyLimit: 10_000, bodyRequired: true, maskPaths: ["title", "body", "audience_roles", "publish_time", "expire_time"])
    static let policy = ContentSpec(
        kind: .policy, noun: "policy", resource: .policy, publishPath: "effective_time", expirePath: "expire_time",
        bodyLimit: 50_000, bodyRequired: true, maskPaths: ["kind", "title", "body", "audience_roles", "effective_time", "expire_time"])
    static let advertisement = ContentSpec(
        kind: .advertisement, noun: "advertisement", resource: .advertisement, publishPath: "start_time", expirePath: "end_time",
        bodyLimit: 2_000, bodyRequired: false,
        maskPaths: ["title", "body", "image_media_id", "target_url", "placement", "audience_roles", "start_time", "end_time"])

    /// The field of the request's message named by `path` ("announcement.title").
    func field(_ path: String) -> String { "\(noun).\(path)" }

    /// Copies the fields `paths` names from `input` (the request's message, as an item) to `item`.
    func apply(_ input: SoukStoreV1.ContentItem, paths: Set<String>, to item: inout SoukStoreV1.ContentItem) {
        for path in paths {
            switch path {
            case "title": item.title = input.title
            case "body": item.body = input.body
            case "audience_roles": item.audienceRoles = ContentTable.audienceKeys(input.audienceRoles).filter { $0 != .unspecified }
            case publishPath: item.publishTime = input.publishTime
            case expirePath: item.expireTime = input.expireTime
            case "kind": item.policyKind = input.policyKind
            case "image_media_id": item.imageMediaID = input.imageMediaID
            case "target_url": item.targetURL = input.targetURL
            case "placement": item.placement = input.placement
            default: break
            }
        }
    }

    /// Records in `checks` what is wrong with the fields `paths` names of `input`.
    func check(_ input: SoukStoreV1.ContentItem, paths: Set<String>, into checks: inout FieldChecks) {
        if paths.contains("title"), let problem = ContentText.problem(input.title, limit: 200, required: true) {
            checks.add(field("title"), problem)
        }
        if paths.contains("body"), let problem = ContentText.problem(input.body, limit: bodyLimit, required: bodyRequired) {
            checks.add(field("body"), problem)
        }
        if paths.contains("audience_roles") {
            var seen = Set<SoukV1.Role>()
            for (index, role) in input.audienceRoles.enumerated() {
                switch role {
                case .customer, .provider, .courier, .admin:
                    if !seen.insert(role).inserted { checks.add(field("audience_roles[\(index)]"), "repeats another role") }
                default:
                    checks.add(field("audience_roles[\(index)]"), "must be ROLE_CUSTOMER, ROLE_PROVIDER, ROLE_COURIER or ROLE_ADMIN (empty list: everyone)")
                }
            }
        }
        if paths.contains("kind") {
            switch input.policyKind {
            case .unspecified, .unrecognized: checks.add(field("kind"), "must be a policy kind")
            default: break
            }
        }
        if paths.contains("image_media_id") {
            if !input.imageMediaID.isEmpty, RecordID(input.imageMediaID) == nil {
                checks.add(field("image_media_id"), "must be a UUID")
            }
        }
        if paths.contains("target_url"), let problem = ContentText.linkProblem(input.targetURL) {
            checks.add(field("target_url"), problem)
        }
        if paths.contains("placement"), let problem = ContentText.placementProblem(input.placement) {
            checks.add(field("placement"), problem)
        }
        if paths.contains(publishPath) || paths.contains(expirePath) {
            for (path, time) in [(publishPath, input.publishTime), (expirePath, input.expireTime)] where paths.contains(path) {
                if let time, time.nanos < 0 || time.nanos >= 1_000_000_000 || time.seconds < 0 || time.seconds > 253_402_300_799 {
                    checks.add(field(path), "must be a time between 1970 and 9999")
                }
            }
        }
    }

    /// INVALID_ARGUMENT naming the expire field when the item would end before it starts.
    func checkWindow(_ item: SoukStoreV1.ContentItem) throws {
        if let publish = item.publishTime, let expire = item.expireTime, StoreTime(expire) <= StoreTime(publish) {
            throw RPCError.invalidField(field(expirePath), "must be after \(publishPath)")
        }
        if item.expireTime != nil, item.publishTime == nil {
            throw RPCError.invalidField(field(expirePath), "needs \(publishPath): a draft has no end")
        }
    }
}

/// Where an item stands at `now`, from its times (ContentState).
enum ContentStates {
    static func state(_ item: SoukStoreV1.ContentItem, at now: StoreTime) -> SoukV1.ContentState {
        if item.archived { return .archived }
        guard let publish = item.publishTime else { return .draft }
        if StoreTime(publish) > now { return .scheduled }
        if let expire = item.expireTime, StoreTime(expire) <= now { return .expired }
        return .published
    }

    /// Whether a caller with `audience` (ROLE_UNSPECIFIED for everyone, then its active roles)
    /// sees the item at `now`.
    static func isVisible(_ item: SoukStoreV1.ContentItem, to audience: Set<SoukV1.Role>, at now: StoreTime) -> Bool {
        guard state(item, at: now) == .published else { return false }
        return item.audienceRoles.isEmpty || item.audienceRoles.contains(where: audience.contains)
    }
}

/// Who the caller is to the content.
enum ContentAccess {
    /// Admins of the marketplace and operators: they see and write everything.
    static func isAdmin(_ call: SoukCall) -> Bool {
        guard let caller = call.caller else { return false }
        return caller.isOperator || caller.activeRoles.contains(.admin)
    }

    /// The audience keys a caller reads: everyone, and its active roles (or only `role`).
    static func audience(_ call: SoukCall) -> Set<SoukV1.Role> {
        var keys: Set<SoukV1.Role> = [.unspecified]
        for role in call.caller?.activeRoles ?? [] where role != .operator { keys.insert(role) }
        return keys
    }
}

/// Checks of the texts of content.
enum ContentText {
    /// Why `text` is not a valid text of at most `limit` characters; nil when it is.
    static func problem(_ text: String, limit: Int, required: Bool) -> String? {
        if text.isEmpty { return required ? "is required" : nil }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return "must not be blank" }
        if trimmed != text { return "must not start or end with spaces" }
        if text.count > limit { return "must be at most \(limit) characters" }
        return nil
    }

    /// An optional link: an https URL or an in-app link (`scheme:path`), no spaces, at most 2,048.
    static func linkProblem(_ text: String) -> String? {
        if text.isEmpty { return nil }
        if text.utf8.count > 2_048 { return "must be at most 2048 bytes" }
        if text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 }) { return "must not contain spaces" }
        guard let colon = text.firstIndex(of: ":") else { return "must be an https URL or an in-app link (scheme:path)" }
        let scheme = text[..<colon].lowercased()
        guard let first = scheme.unicodeScalars.first, ("a"..."z").contains(first),
              scheme.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0) }),
              text.index(after: colon) < text.endIndex
        else { return "must be an https URL or an in-app link (scheme:path)" }
        if ["http", "javascript", "data", "file", "vbscript"].contains(scheme) { return "must be an https URL or an in-app link, not \(scheme):" }
        if scheme == "https", !text.lowercased().hasPrefix("https://") || text.count <= "https://".count { return "must be an https URL with a host" }
        return nil
    }

    /// A placement: lower-case letters, digits and underscores, 1 to 64.
    static func placementProblem(_ text: String) -> String? {
        if text.isEmpty { return "is required (a slot such as home_banner)" }
        if text.utf8.count > 64 { return "must be at most 64 characters" }
        if !text.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }) {
            return "must be lower-case letters, digits and underscores"
        }
        return nil
    }
}
