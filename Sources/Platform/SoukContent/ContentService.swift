import SoukGRPC
import SoukAccess
import SoukKit
import SoukMessages
import SoukStore

/// The part of `souk.v1.Admin` the content module serves: announcements, policies and
/// advertisements. The audit log and the mail outbox are identity's; `ServiceAssembly` builds
/// one Admin service from both declarations.
struct ContentService: Sendable {
    let items: ContentItems

    var declaration: SoukV1Services.Admin {
        SoukV1Services.Admin(
            createAnnouncement: .handler(createAnnouncement),
            getAnnouncement: .handler { request, call in
                try items.get(.announcement, id: request.announcementID, field: "announcement_id", call: call, view: ContentProjection.announcement)
            },
            listAnnouncements: .handler(listAnnouncements),
            updateAnnouncement: .handler { request, call in
                try await items.update(
                    .announcement, id: request.announcement?.id ?? "", request.announcement.map(ContentInput.item), mask: request.updateMask,
                    expectedVersion: request.expectedVersion, call: call, view: ContentProjection.announcement)
            },
            archiveAnnouncement: .handler { request, call in
                try await items.setArchived(
                    true, .announcement, id: request.announcementID, field: "announcement_id", expectedVersion: request.expectedVersion, call: call,
                    view: ContentProjection.announcement)
            },
            restoreAnnouncement: .handler { request, call in
                try await items.setArchived(
                    false, .announcement, id: request.announcementID, field: "announcement_id", expectedVersion: request.expectedVersion, call: call,
                    view: ContentProjection.announcement)
            },
            createPolicy: .handler(createPolicy),
            getPolicy: .handler { request, call in
                try items.get(.policy, id: request.policyID, field: "policy_id", call: call, view: ContentProjection.policy)
            },
            listPolicies: .handler(listPolicies),
            updatePolicy: .handler { request, call in
                try await items.update(
                    .policy, id: request.policy?.id ?? "", request.policy.map(ContentInput.item), mask: request.updateMask,
                    expectedVersion: request.expectedVersion, call: call, view: ContentProjection.policy)
            },
            archivePolicy: .handler { request, call in
                try await items.setArchived(
                    true, .policy, id: request.policyID, field: "policy_id", expectedVersion: request.expectedVersion, call: call,
                    view: ContentProjection.policy)
            },
            restorePolicy: .handler { request, call in
                try await items.setArchived(
                    false, .policy, id: request.policyID, field: "policy_id", expectedVersion: request.expectedVersion, call: call,
                    view: ContentProjection.policy)
            },
            createAdvertisement: .handler(createAdvertisement),
            getAdvertisement: .handler { request, call in
                try items.get(.advertisement, id: request.advertisementID, field: "advertisement_id", call: call, view: ContentProjection.advertisement)
            },
            listAdvertisements: .handler(listAdvertisements),
            updateAdvertisement: .handler { request, call in
                try await items.update(
                    .advertisement, id: request.advertisement?.id ?? "", request.advertisement.map(ContentInput.item), mask: request.updateMask,
                    expectedVersion: request.expectedVersion, call: call, view: ContentProjection.advertisement)
            },
            archiveAdvertisement: .handler { request, call in
                try await items.setArchived(
                    true, .advertisement, id: request.advertisementID, field: "advertisement_id", expectedVersion: request.expectedVersion,
                    call: call, view: ContentProjection.advertisement)
            },
            restoreAdvertisement: .handler { request, call in
                try await items.setArchived(
                    false, .advertisement, id: request.advertisementID, field: "advertisement_id", expectedVersion: request.expectedVersion,
                    call: call, view: ContentProjection.advertisement)
            },
            listAuditEntries: .unimplemented,
            listMailOutbox: .unimplemented,
            completeMail: .unimplemented)
    }

    // MARK: Creates

    func createAnnouncement(_ request: SoukV1.CreateAnnouncementRequest, _ call: SoukCall) async throws -> SoukV1.Announcement {
        try await items.create(
            .announcement, request.announcement.map(ContentInput.item), requestID: request.requestID, request: request, call: call,
            view: ContentProjection.announcement)
    }

    func createPolicy(_ request: SoukV1.CreatePolicyRequest, _ call: SoukCall) async throws -> SoukV1.Policy {
        try await items.create(
            .policy, request.policy.map(ContentInput.item), requestID: request.requestID, request: request, call: call, view: ContentProjection.policy)
    }

    func createAdvertisement(_ request: SoukV1.CreateAdvertisementRequest, _ call: SoukCall) async throws -> SoukV1.Advertisement {
        try await items.create(
            .advertisement, request.advertisement.map(ContentInput.item), requestID: request.requestID, request: request, call: call,
            view: ContentProjection.advertisement)
    }

    // MARK: Lists

    func listAnnouncements(_ request: SoukV1.ListAnnouncementsRequest, _ call: SoukCall) async throws -> SoukV1.ListAnnouncementsResponse {
        let query = ContentItems.ListQuery(
            pageSize: request.pageSize, pageToken: request.pageToken, states: request.states, role: request.role, narrowing: "",
            narrowingFilter: "")
        let (shown, next) = try items.list(.announcement, query, call: call, checks: FieldChecks(), view: ContentProjection.announcement)
        return SoukV1.ListAnnouncementsResponse(announcements: shown, nextPageToken: next)
    }

    func listPolicies(_ request: SoukV1.ListPoliciesRequest, _ call: SoukCall) async throws -> SoukV1.ListPoliciesResponse {
        var checks = FieldChecks()
        if case .unrecognized = request.kind { checks.add("kind", "must be a policy kind (POLICY_KIND_UNSPECIFIED: any)") }
        let query = ContentItems.ListQuery(
            pageSize: request.pageSize, pageToken: request.pageToken, states: request.states, role: request.role,
            narrowing: ContentTable.policyNarrowing(request.kind), narrowingFilter: "policy_kind=\(request.kind.rawValue)")
        let (shown, next) = try items.list(.policy, query, call: call, checks: checks, view: ContentProjection.policy)
        return SoukV1.ListPoliciesResponse(policies: shown, nextPageToken: next)
    }

    func listAdvertisements(_ request: SoukV1.ListAdvertisementsRequest, _ call: SoukCall) async throws -> SoukV1.ListAdvertisementsResponse {
        var checks = FieldChecks()
        if !request.placement.isEmpty, let problem = ContentText.placementProblem(request.placement) { checks.add("placement", problem) }
        let query = ContentItems.ListQuery(
            pageSize: request.pageSize, pageToken: request.pageToken, states: request.states, role: request.role,
            narrowing: request.placement, narrowingFilter: "placement=\(request.placement)")
        let (shown, next) = try items.list(.advertisement, query, call: call, checks: checks, view: ContentProjection.advertisement)
        return SoukV1.ListAdvertisementsResponse(advertisements: shown, nextPageToken: next)
    }
}
