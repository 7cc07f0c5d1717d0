import SoukCommerceTesting
import SoukFood
import SoukOrders
import SoukShops
import SoukGRPC
import SoukIdentity
import SoukKit
import SoukLaundry
import SoukMessages
import SoukNotifications
import SoukPayments
import SoukStore
import SoukTesting
import Testing

@testable import SoukLaundry

/// A Drip 'n Dash marketplace over a fresh store, with students of named dorms.
struct LaundryFixture {
    let harness: DomainHarness
    let marketplace: SoukV1.Marketplace
    let laundry: Laundry

    /// A signed-in student: account id and token.
    struct Student {
        let id: String
        let token: String
    }

    /// Dorm ids by name (stored by `make` on the Busch campus).
    static let dorms = ["mattia": "0190a0b0-0000-7000-8000-000000000001", "hardenbergh": "0190a0b0-0000-7000-8000-000000000002"]

    /// With `payments`, the payments platform (and commerce, which serves the feedback) is mounted too.
    static func make(payments: Bool = false) async throws -> LaundryFixture {
        nonisolated(unsafe) var made: Laundry?
        let harness = try DomainHarness(domainTypes: payments ? [Laundry.self, Notifications.self, Payments.self, Commerce.self, Shops.self, Food.self] : [Laundry.self, Notifications.self], makeDomains: { identity in
            let payables = PayableTargets()
            let laundry = Laundry(store: identity.store, identity: identity, payables: payables)
            made = laundry
            let notifications = Notifications(store: identity.store)
            return payments
                ? [laundry, notifications, Payments(store: identity.store, payables: payables)] + CommerceDomains.mounting(Commerce(store: identity.store, identity: identity, payables: payables), identity: identity)
                : [laundry, notifications]
        })
        let settings = SoukV1.MarketplaceSettings(
            laundry: SoukV1.LaundrySettings(
                machineCostPerLoad: .init(amountMinor: 300, currencyCode: "USD"), serviceFee: .init(amountMinor: 500, currencyCode: "USD"),
                foldingPrice: .init(amountMinor: 250, currencyCode: "USD"), ironingPrice: .init(amountMinor: 500, currencyCode: "USD"),
                lastCancellableStage: 2, jobOfferTimeout: .seconds(120)))
        let marketplace = try await harness.marketplace(settings: settings)
        // The dorms a laundry profile names must exist (`Dorms.check`).
        try await harness.store.write { transaction in
            for (name, id) in Self.dorms {
                try transaction.insert(
                    DormTable.table, DormRecord(marketplaceID: marketplace.id, SoukStoreV1.Dorm(campus: "Busch", name: name.capitalized)), id: RecordID(id)!)
            }
        }
        return LaundryFixture(harness: harness, marketplace: marketplace, laundry: made!)
    }

    /// A student of `dorm`, a Dasher when `dasher`, with `gender` shared or not.
    func student(_ name: String, dorm: String = "mattia", dasher: Bool = false, gender: SoukV1.Gender = .unspecified) async throws -> Student {
        let email = "\(name)@rutgers.edu"
        let account: SoukV1.Account = try await harness.accounts("CreateAccount", SoukV1.CreateAccountRequest(
            marketplaceID: marketplace.id, requestID: "account-\(email)", email: email, initialPassword: "Role-pass-1",
            givenName: name.capitalized, familyName: "Secret", roles: dasher ? [.courier] : [],
            laundryProfile: .init(campus: "Busch", dormID: Self.dorms[dorm]!, room: "101", gender: gender)),
            token: try await harness.operatorToken())
        let session: SoukV1.Session = try await harness.accounts(
            "Login", SoukV1.LoginRequest(marketplaceID: marketplace.id, email: email, password: "Role-pass-1"))
        return Student(id: account.id, token: session.accessToken)
    }

    func call<Response: ProtoMessage>(_ method: String, _ request: some ProtoMessage, _ who: Student, as: Response.Type = Response.self) async throws -> Response {
        try await harness.call("souk.v1.Laundry", method, request, token: who.token)
    }

    func error(_ method: String, _ request: some ProtoMessage, _ who: Student) async -> RPCError? {
        await harness.error("souk.v1.Laundry", method, request, token: who.token, as: SoukV1.Job.self)
    }

    func submit(_ customer: Student, loads: Int32 = 2, preferred: String = "", sameGender: Bool = false, addOns: [SoukV1.LaundryAddOn] = []) async throws -> SoukV1.Job {
        try await call("SubmitJob", SoukV1.SubmitJobRequest(
            marketplaceID: marketplace.id, requestID: "submit-\(UInt64.random(in: 0...UInt64.max))", loadsEstimate: loads,
            instructions: "own detergent", addOns: addOns, preferredDasherAccountID: preferred, sameGenderOnly: sameGender), customer)
    }

    /// The job offered to `dasher`; nil when the queue has nothing for them.
    func requestWork(_ dasher: Student) async throws -> SoukV1.Job? {
        let response: SoukV1.RequestWorkResponse = try await call("RequestWork", SoukV1.RequestWorkRequest(marketplaceID: marketplace.id), dasher)
        return response.job
    }

    func accept(_ job: SoukV1.Job, _ dasher: Student) async throws -> SoukV1.Job {
        try await call("AcceptJob", SoukV1.AcceptJobRequest(marketplaceID: marketplace.id, jobID: job.id), dasher)
    }

    func deny(_ job: SoukV1.Job, _ dasher: Student) async throws -> SoukV1.Job {
        try await call("DenyJob", SoukV1.DenyJobRequest(marketplaceID: marketplace.id, jobID: job.id), dasher)
    }

    func advance(_ job: SoukV1.Job, to stage: SoukV1.JobStage, _ dasher: Student, loads: Int32? = nil, cost: Int64? = nil) async throws -> SoukV1.Job {
        try await call("AdvanceJobStage", SoukV1.AdvanceJobStageRequest(
            marketplaceID: marketplace.id, jobID: job.id, targetStage: stage, optionalActualLoads: loads.map { .actualLoads($0) },
            machineCostTotal: cost.map { SoukV1.Money(amountMinor: $0, currencyCode: "USD") }), dasher)
    }

    func cancel(_ job: SoukV1.Job, _ customer: Student) async throws -> SoukV1.Job {
        try await call("CancelJob", SoukV1.CancelJobRequest(marketplaceID: marketplace.id, jobID: job.id, reason: "changed my mind"), customer)
    }
}

extension LaundryFixture {
    /// Turns on `dasher`'s accepting-requests switch. Laundry.SetAcceptingRequests is served
    /// with the Dasher profile; until then the switch is set in the store as that RPC would.
    func setAccepting(_ dasher: Student) async throws {
        let id = try #require(RecordID(dasher.id))
        _ = try await harness.store.write { transaction in
            try transaction.updateMaintainedFields(LaundryPersonTable.table, id) { record in
                var profile = record.dasher ?? SoukV1.DasherProfile()
                profile.acceptingRequests = true
                record.dasher = profile
            }
        }
    }
}
