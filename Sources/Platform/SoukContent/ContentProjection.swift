import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// What callers see of a stored item: the contract's message of its kind, built field by field
/// (an allow-list: the server-maintained fields of the record reach no caller), with its state
/// at `now`. Everyone sees the same fields; who sees which item is decided before.
enum ContentProjection {
    static func announcement(_ record: StoredRecord<ContentRecord>, at now: StoreTime) -> SoukV1.Announcement {
        let item = record.value.subject
        var shown = record.stamped(SoukV1.Announcement())
        shown.title = item.title
        shown.body = item.body
        shown.audienceRoles = item.audienceRoles
        shown.publishTime = item.publishTime
        shown.expireTime = item.expireTime
        shown.authorAccountID = item.authorAccountID
        shown.archived = item.archived
        shown.archiveTime = item.archiveTime
        shown.state = ContentStates.state(item, at: now)
        return shown
    }

    static func policy(_ record: StoredRecord<ContentRecord>, at now: StoreTime) -> SoukV1.Policy {
        let item = record.value.subject
        var shown = record.stamped(SoukV1.Policy())
        shown.kind = item.policyKind
        shown.title = item.title
        shown.body = item.body
        shown.audienceRoles = item.audienceRoles
        shown.effectiveTime = item.publishTime
        shown.expireTime = item.expireTime
        shown.authorAccountID = item.authorAccountID
        shown.archived = item.archived
        shown.archiveTime = item.archiveTime
        shown.state = ContentStates.state(item, at: now)
        return shown
    }

    static func advertisement(_ record: StoredRecord<ContentRecord>, at now: StoreTime) -> SoukV1.Advertisement {
        let item = record.value.subject
        var shown = record.stamped(SoukV1.Advertisement())
        shown.title = item.title
        shown.body = item.body
        shown.imageMediaID = item.imageMediaID
        shown.targetURL = item.targetURL
        shown.placement = item.placement
        shown.audienceRoles = item.audienceRoles
        shown.startTime = item.publishTime
        shown.endTime = item.expireTime
        shown.authorAccountID = item.authorAccountID
        shown.archived = item.archived
        shown.archiveTime = item.archiveTime
        shown.state = ContentStates.state(item, at: now)
        return shown
    }
}

/// The request's message of each kind as an item (its editable fields), and back.
enum ContentInput {
    static func item(_ message: SoukV1.Announcement) -> SoukStoreV1.ContentItem {
        SoukStoreV1.ContentItem(
            kind: .announcement, title: message.title, body: message.body, audienceRoles: message.audienceRoles,
            publishTime: message.publishTime, expireTime: message.expireTime)
    }

    static func item(_ message: SoukV1.Policy) -> SoukStoreV1.ContentItem {
        SoukStoreV1.ContentItem(
            kind: .policy, title: message.title, body: message.body, audienceRoles: message.audienceRoles,
            publishTime: message.effectiveTime, expireTime: message.expireTime, policyKind: message.kind)
    }

    static func item(_ message: SoukV1.Advertisement) -> SoukStoreV1.ContentItem {
        SoukStoreV1.ContentItem(
            kind: .advertisement, title: message.title, body: message.body, audienceRoles: message.audienceRoles,
            publishTime: message.startTime, expireTime: message.endTime, imageMediaID: message.imageMediaID,
            targetURL: message.targetURL, placement: message.placement)
    }
}

extension SoukV1.Announcement: StampedMessage {}
extension SoukV1.Policy: StampedMessage {}
extension SoukV1.Advertisement: StampedMessage {}
