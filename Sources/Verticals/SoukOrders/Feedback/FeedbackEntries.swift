import Foundation
import SoukAccess
import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukNotifications
import SoukStore

/// Feedback of every vertical, kept in the kit's `FeedbackTable`: a customer rates a completed
/// order (water services: the courier who delivered and, through the order, the service; food:
/// the restaurant and the driver, one entry each); a lessee reviews a stay (the booking's
/// domain checks it and keeps the lessor's and the listing's averages, `RatedSubjects`);
/// laundry jobs are rated with `Laundry.RateJob`, which writes to the same table. Admins answer;
/// everyone lists.
struct FeedbackEntries {
    let commerce: Commerce
    var store: Store { commerce.store }

    /// What a new entry rates, its id checked.
    private enum Rated {
        case order(RecordID)
        case booking(RecordID)
    }

    /// The author of a new entry owns the order (as its customer) or the booking (as its lessee)
    /// it rates. A request naming no subject, or a malformed one, is left to the field checks.
    static func createOwnership(store: Store, ratables: RatedSubjects) -> Ownership<SoukV1.CreateFeedbackRequest> {
        Ownership { request, call, caller, _ in
            let (marketplaceID, _) = try call.requireMarketplace()
            switch request.subject {
            case .orderID(let text)?:
                guard let id = RecordID(text) else { return true }
                return try store.require(OrderTable.table, id, in: marketplaceID, "order").value.subject.customerAccountID
                    == caller.accountID.description
            case .bookingID(let text)?:
                guard RecordID(text) != nil else { return true }
                return try ratables.subject(.booking).rater(of: text, marketplaceID: marketplaceID, store: store) == caller.accountID
            case nil:
                return true
            }
        }
    }

    /// The author owns an entry.
    static func entryOwnership(store: Store) -> Ownership<SoukV1.GetFeedbackRequest> {
        Ownership { request, call, caller, _ in
            let id = try RequestFields.id(request.feedbackID, field: "feedback_id")
            let (marketplaceID, _) = try call.requireMarketplace()
            return try store.require(FeedbackTable.table, id, in: marketplaceID, "feedback").value.subject.authorAccountID
                == caller.accountID.description
        }
    }

    func create(_ request: SoukV1.CreateFeedbackRequest, _ call: SoukCall) async throws -> SoukV1.FeedbackEntry {
        let caller = try call.requireCaller()
        let (marketplaceID, _) = try call.requireMarketplace()
        var checks = FieldChecks()
        let requestID = try checks.run { try RequestFields.requestID(request.requestID) }
        var rated: Rated?
        switch request.subject {
        case .orderID(let text)?: rated = try checks.run { .order(try RequestFields.id(text, field: "order_id")) }
        case .bookingID(let text)?:
            rated = try checks.run { .booking(try RequestFields.id(text, field: "booking_id")) }
            checks.require(request.target == .unspecified, "target", "applies to food orders only")
        case nil: checks.add("order_id", "is required: name the order_id or the booking_id rated")
        }
        checks.require((1...5).contains(request.stars), "stars", "must be a whole number of stars from 1 to 5")
        checks.require(request.comment.count <= 2000, "comment", "must be at most 2000 characters")
        try checks.finish()
        let subject = rated!
        let actor = AuditActor(call, requestID: requestID!)
        let market = marketplaceID.description
        let ratables = commerce.ratables
        let vertical = commerce.verticals.vertical(call.marketplace?.vertical)
        let result = try await store.write(
            idempotencyKey: IdempotencyKey(marketplace: market, account: caller.accountID.description, key: requestID!),
            fingerprint: RequestFingerprint(request.encoded()), responseCodec: MessageCodec<SoukV1.FeedbackEntry>()
        ) { transaction in
            var entry: SoukStoreV1.FeedbackEntry
            switch subject {
            case .order(let orderID):
                entry = try Self.rateOrder(
                    orderID, request, caller: caller, marketplaceID: marketplaceID, vertical: vertical, transaction: transaction)
            case .booking(let bookingID):
                guard try FeedbackTable.entries(
                    about: bookingID.description, by: caller.accountID.description, marketplaceID: market, transaction: transaction
                ).isEmpty else {
                    throw RPCError.souk(.alreadyExists, .alreadyRated, "booking \(bookingID) is already reviewed: one review per booking")
                }
                // The booking's domain reads (and locks) the booking, checks it and keeps the averages.
                let parties = try ratables.subject(.booking).rate(
                    bookingID.description, stars: request.stars, caller: caller, marketplaceID: marketplaceID, transaction: transaction)
                entry = SoukStoreV1.FeedbackEntry()
                entry.subject = SoukV1.ResourceRef(type: .booking, id: bookingID.description)
                entry.ratedAccountID = parties.accountID
                entry.listingID = parties.listingID
            }
            entry.authorAccountID = caller.accountID.description
            entry.stars = request.stars
            entry.comment = request.comment
            return FeedbackProjection.entry(try FeedbackTable.insert(entry, marketplaceID: market, actor: actor, transaction: transaction))
        }
        return try view(result.value.id, call)
    }

    /// Checks a completed order's rating in `transaction`, adds it to the averages it counts in
    /// (courier, restaurant, service) and returns the entry to store, without author and stars.
    private static func rateOrder(
        _ orderID: RecordID, _ request: SoukV1.CreateFeedbackRequest, caller: Caller, marketplaceID: RecordID, vertical: (any OrderVertical)?,
        transaction: Transaction
    ) throws -> SoukStoreV1.FeedbackEntry {
        // Reading the order locks it: two entries for one order serialize here.
        let order = try transaction.require(OrderTable.table, orderID, in: marketplaceID, "order").value.subject
        guard order.status == .completed else {
            throw RPCError.souk(.failedPrecondition, .notRatable, "order \(orderID) is \(order.status.protoName); only completed orders are rated")
        }
        let target = request.target
        let food = !order.restaurantID.isEmpty
        guard !food || target != .unspecified else {
            throw RPCError.invalidField("target", "is required for a food order: COURIER or RESTAURANT")
        }
        guard food || target != .restaurant else { throw RPCError.invalidField("target", "RESTAURANT applies to food orders only") }
        let rated = food && target == .restaurant ? (account: "", restaurant: order.restaurantID) : (account: order.courierAccountID, restaurant: "")
        let earlier = try FeedbackTable.entries(
            about: orderID.description, by: caller.accountID.description, marketplaceID: marketplaceID.description, transaction: transaction)
        guard !earlier.contains(where: { $0.restaurantID == rated.restaurant }) else {
            let whom = food ? (target == .restaurant ? "'s restaurant" : "'s driver") : ""
            throw RPCError.souk(.alreadyExists, .alreadyRated, "order \(order.orderNumber)\(whom) is already rated")
        }
        var entry = SoukStoreV1.FeedbackEntry()
        entry.subject = SoukV1.ResourceRef(type: .order, id: orderID.description)
        entry.ratedAccountID = rated.account
        entry.restaurantID = rated.restaurant
        // Averages are server-maintained: they never change the versions clients edit with. The
        // vertical's records (the restaurant, the service) keep theirs through its hooks.
        for subject in try vertical?.ratedSubjects(of: order, restaurantID: rated.restaurant, transaction: transaction) ?? [] {
            let summary = try RatingTotalTable.add(request.stars, to: subject, transaction: transaction)
            try vertical?.rated(subject, summary, transaction: transaction)
        }
        // The courier's average is commerce's record (`CommerceAccountPart` shows it on the account).
        if let courier = RecordID(rated.account), try IdentityRecords.account(courier, transaction) != nil {
            _ = try RatingTotalTable.add(request.stars, to: courier, transaction: transaction)
        }
        return entry
    }

    func get(_ request: SoukV1.GetFeedbackRequest, _ call: SoukCall) async throws -> SoukV1.FeedbackEntry {
        try view(request.feedbackID, call)
    }

    func answer(_ request: SoukV1.AnswerFeedbackRequest, _ call: SoukCall) async throws -> SoukV1.FeedbackEntry {
        let (marketplaceID, _) = try call.requireMarketplace()
        let text = request.text.trimmingCharacters(in: .whitespacesAndNewlines)
        var checks = FieldChecks()
        let feedbackID = try checks.run { try RequestFields.id(request.feedbackID, field: "feedback_id") }
        checks.require(!text.isEmpty, "text", "is required")
        checks.require(text.count <= 2000, "text", "must be at most 2000 characters")
        let expected = try checks.run { try RequestFields.expectedVersion(request.expectedVersion) }
        try checks.finish()
        let id = feedbackID!
        let actor = AuditActor(call)
        let market = marketplaceID.description
        try await store.write { transaction in
            let current = try transaction.require(FeedbackTable.table, id, in: marketplaceID, "feedback")
            if let expected = expected ?? nil, expected != current.version {
                throw RPCError.staleVersion("feedback", id.description, expected: expected, actual: current.version)
            }
            let updated = try transaction.update(FeedbackTable.table, id) {
                $0.subject.answer = SoukV1.FeedbackAnswer(text: text, answeredByAccountID: actor.accountID, answerTime: Timestamp(transaction.now))
            }
            try AuditLog.record(
                in: transaction, marketplaceID: market, resource: SoukV1.ResourceRef(type: .feedback, id: id.description), actor: actor,
                from: current.value.subject.answer == nil ? "UNANSWERED" : "ANSWERED", to: "ANSWERED", resourceVersion: updated.version)
            try Notifier.send(
                [Notifier.Note(to: updated.value.subject.authorAccountID, kind: .feedback, .feedbackAnswered(answer: text),
                               subject: SoukV1.ResourceRef(type: .feedback, id: id.description))],
                marketplaceID: market, transaction: transaction)
        }
        return try view(id.description, call)
    }

    func list(_ request: SoukV1.ListFeedbackRequest, _ call: SoukCall) async throws -> SoukV1.ListFeedbackResponse {
        let (marketplaceID, _) = try call.requireMarketplace()
        let market = KeyPart.string(marketplaceID.description)
        var checks = FieldChecks()
        let direction = try checks.run { try CreateTimeOrder.direction(request.orderBy) }
        if case .unansweredOnly(false)? = request.filter { checks.add("unanswered_only", "must be true when set") }
        let stamp = "\(String(describing: request.filter));\(direction == .ascending ? "asc" : "desc")"
        let page = try checks.run { try RequestFields.page(size: request.pageSize, token: request.pageToken, filters: stamp) }
        try checks.finish()
        let isAdmin = call.caller.map { $0.isOperator || $0.activeRoles.contains(.admin) } ?? false
        let (index, prefix): (Index<FeedbackRecord>, [KeyPart])
        switch request.filter {
        case .ratedAccountID(let id)?: (index, prefix) = (FeedbackTable.byRated, [market, .string(id)])
        case .listingID(let id)?: (index, prefix) = (FeedbackTable.byListing, [market, .string(id)])
        case .restaurantID(let id)?: (index, prefix) = (FeedbackTable.byRestaurant, [market, .string(id)])
        case .subjectID(let id)?: (index, prefix) = (FeedbackTable.bySubject, [market, .string(id)])
        case .authorAccountID(let id)?:
            guard isAdmin || id == call.caller?.accountID.description else {
                throw RPCError.souk(.permissionDenied, .notAllowed, "only admins list another author's feedback")
            }
            (index, prefix) = (FeedbackTable.byAuthor, [market, .string(id)])
        case .unansweredOnly?:
            guard isAdmin else { throw RPCError.souk(.permissionDenied, .notAllowed, "only admins list unanswered feedback") }
            (index, prefix) = (FeedbackTable.unanswered, [market])
        case nil: (index, prefix) = (FeedbackTable.byMarketplace, [market])
        }
        let result = try store.list(FeedbackTable.table, index, .starting(with: prefix), direction: direction!, page: page!)
        var response = SoukV1.ListFeedbackResponse()
        response.feedback = try result.items.map { try decorate(FeedbackProjection.entry($0), call) }
        response.nextPageToken = RequestFields.nextPageToken(result.nextPageToken, filters: stamp)
        return response
    }

    func ratingSummary(_ request: SoukV1.GetRatingSummaryRequest, _ call: SoukCall) async throws -> SoukV1.RatingSummary {
        let (marketplaceID, _) = try call.requireMarketplace()
        switch request.subject {
        case .listingID(let text)?:
            _ = try RequestFields.id(text, field: "listing_id")
            return try commerce.ratables.subject(.booking).listingRating(text, marketplaceID: marketplaceID, store: store)
        case .accountID(let text)?:
            let id = try RequestFields.id(text, field: "account_id")
            guard var account = try IdentityRecords.account(id, marketplaceID: marketplaceID.description, store) else {
                throw RPCError.notFound("account", id.description)
            }
            // The account's vertical keeps its rating (Dashers in laundry, lessors in rentals):
            // identity's full view of the account carries it.
            if let identity = commerce.identity {
                account = try identity.account(id, store) ?? account
            } else {
                try CommerceAccountPart.project(&account, store)
            }
            return account.rating ?? SoukV1.RatingSummary()
        case nil:
            throw RPCError.invalidField("account_id", "is required: name the account_id or the listing_id")
        }
    }

    private func view(_ feedbackID: String, _ call: SoukCall) throws -> SoukV1.FeedbackEntry {
        let (marketplaceID, _) = try call.requireMarketplace()
        let id = try RequestFields.id(feedbackID, field: "feedback_id")
        return try decorate(FeedbackProjection.entry(try store.require(FeedbackTable.table, id, in: marketplaceID, "feedback")), call)
    }

    private func decorate(_ entry: SoukV1.FeedbackEntry, _ call: SoukCall) throws -> SoukV1.FeedbackEntry {
        var entry = entry
        let vertical = call.marketplace?.vertical ?? .unspecified
        entry.author = try party(entry.authorAccountID, vertical: vertical)
        entry.rated = try party(entry.ratedAccountID, vertical: vertical)
        return entry
    }

    /// What others see of an account the feedback of any vertical names: with identity mounted,
    /// its rating as the account's own vertical keeps it (a Dasher's, a lessor's).
    private func party(_ accountID: String, vertical: SoukV1.Vertical) throws -> SoukV1.PersonSummary? {
        guard let identity = commerce.identity, let id = RecordID(accountID) else {
            return try OrderParties.summary(accountID, vertical: vertical, store: store)
        }
        return try identity.account(id, store).map { Parties.summary(of: $0, vertical: vertical) }
    }
}
