import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// An announcement, policy or advertisement as stored: its own record
/// (`souk.store.v1.ContentItem`, without the id, version and times, which the envelope holds)
/// and its marketplace. RPCs answer with `ContentProjection`.
typealias ContentRecord = MarketRecord<SoukStoreV1.ContentItem>

/// The marketplaces' content, one table for the three kinds.
///
/// What a user sees is a range read of `live`: the items neither archived nor swept as
/// expired, one entry per audience role (ROLE_UNSPECIFIED: everyone) and per narrowing (""
/// for any, the policy kind or the placement), by publish time. Publish times up to now are
/// the published items (a scheduled item enters that range at its publish time without a
/// write); an item whose expire time passed is skipped by the read until the expiry sweep
/// takes it out of the index, so the index only holds what is live or was, moments ago.
enum ContentTable {
    static let live = Index<ContentRecord>.nonUnique("content.live", keys: { (record: ContentRecord) -> [[KeyPart]] in
        let item = record.subject
        guard !item.archived, !item.expirySwept, let publish = item.publishTime else { return [] }
        let time = StoreTime(publish)
        return narrowings(item).flatMap { narrowing in
            audienceKeys(item.audienceRoles).map { role in
                [.string(record.marketplaceID), .enumCase(item.kind), .string(narrowing), .enumCase(role), .time(time)]
            }
        }
    })

    /// What admins list by state: drafts by creation (the id), dated items by publish time,
    /// archived ones by archive time.
    static let byLane = Index<ContentRecord>.nonUnique("content.lane", key: { (record: ContentRecord) -> [KeyPart]? in
        let item = record.subject
        let prefix: [KeyPart] = [.string(record.marketplaceID), .enumCase(item.kind)]
        if item.archived { return prefix + [.int(Lane.archived.rawValue), .time(item.archiveTime.map(StoreTime.init) ?? StoreTime(microsecondsSinceEpoch: 0))] }
        guard let publish = item.publishTime else { return prefix + [.int(Lane.draft.rawValue)] }
        return prefix + [.int(Lane.dated.rawValue), .time(StoreTime(publish))]
    })

    /// Every item of a kind, by creation (the id).
    static let byKind = Index<ContentRecord>.nonUnique("content.kind") { [.string($0.marketplaceID), .enumCase($0.subject.kind)] }

    /// Live items with an expire time, by that time, in every marketplace: what the expiry sweep reads.
    static let toSweep = Index<ContentRecord>.nonUnique("content.to_sweep", key: { (record: ContentRecord) -> [KeyPart]? in
        let item = record.subject
        guard !item.archived, !item.expirySwept, item.publishTime != nil, let expire = item.expireTime else { return nil }
        return [.time(StoreTime(expire))]
    })

    /// Announcements and policies whose audience is still to be told, by publish time, in every
    /// marketplace: what the notification fan-out reads.
    static let toNotify = Index<ContentRecord>.nonUnique("content.to_notify", key: { (record: ContentRecord) -> [KeyPart]? in
        let item = record.subject
        guard item.kind == .announcement || item.kind == .policy, !item.archived, !item.audienceNotified, !item.expirySwept,
              let publish = item.publishTime
        else { return nil }
        return [.time(StoreTime(publish))]
    })

    static let table = marketTable("content_items", SoukStoreV1.ContentItem.self, indexes: [live, byLane, byKind, toSweep, toNotify])

    enum Lane: Int64 {
        case draft = 0
        case dated = 1
        case archived = 2
    }

    /// The roles an item's entries are filed under: ROLE_UNSPECIFIED for everyone.
    static func audienceKeys(_ roles: [SoukV1.Role]) -> [SoukV1.Role] {
        roles.isEmpty ? [.unspecified] : Array(Set(roles)).sorted { $0.rawValue < $1.rawValue }
    }

    /// "" (any) and the narrowing a list may ask for: the policy kind, the placement.
    static func narrowings(_ item: SoukStoreV1.ContentItem) -> [String] {
        let own = narrowing(item)
        return own.isEmpty ? [""] : ["", own]
    }

    static func narrowing(_ item: SoukStoreV1.ContentItem) -> String {
        switch item.kind {
        case .policy: policyNarrowing(item.policyKind)
        case .advertisement: item.placement
        default: ""
        }
    }

    static func policyNarrowing(_ kind: SoukV1.PolicyKind) -> String {
        kind == .unspecified ? "" : "kind:\(kind.rawValue)"
    }
}
