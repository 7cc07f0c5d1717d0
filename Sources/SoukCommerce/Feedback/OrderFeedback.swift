import Foundation
import SoukAccess
import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukStore

/// Feedback on completed orders: in water services the customer rates the courier who
/// delivered (and, through the order, the service); in food delivery the restaurant and the
/// driver, one entry each. Admins answer.
struct OrderFeedback {
    let commerce: Commerce
    var store: Store { commerce.store }

    /// The author of a new entry owns the order it rates.
    static func createOwnership(store: Store) -> Ownership<SoukV1.CreateFeedbackRequest> {
        Ownership { request, call, caller, _ in
            guard case .orderID(let text)? = request.subject else {
                throw RPCError.invalidField("order_id", "is required: rental bookings are rated by the rentals service")
            }
            let id = try RequestFields.id(text, field: "order_id")
            let (marketplaceID, _) = try call.requireMarketplace()
            return try store.require(OrderTable.table, id, in: marketplaceID, "order").value.subject.customerAccountID == caller.accountID.description
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
        let requestID = try RequestFields.requestID(request.requestID)
        guard case .orderID(let text)? = request.subject else { throw RPCError.invalidField("order_id", "is required") }
        let orderID = try RequestFields.id(text, field: "order_id")
        guard (1...5).contains(request.stars) else { throw RPCError.invalidField("stars", "must be a whole number of stars from 1 to 5") }
        guard request.comment.count <= 2000 else { throw RPCError.invalidField("comment", "must be at most 2000 characters") }
        let target = request.target
        let actor = AuditActor(call, requestID: requestID)
        let market = marketplaceID.description
        let result = try await store.write(
            idempotencyKey: IdempotencyKey(marketplace: market, account: caller.accountID.description, key: requestID),
            fingerprint: RequestFingerprint(request.encoded()), responseCodec: MessageCodec<SoukV1.FeedbackEntry>()
        ) { transaction in
            // Reading the order locks it: two entries for one order serialize here.
            let order = try transaction.require(OrderTable.table, orderID, in: marketplaceID, "order").value.subject
            guard order.status == .completed else {
                throw RPCError.souk(.failedPrecondition, .notRatable, "order \(orderID) is \(order.status.protoName); only completed orders are rated")
            }
            let food = !order.restaurantID.isEmpty
            guard !food || target != .unspecified else {
                throw RPCError.invalidField("target", "is required for a food order: COURIER or RESTAURANT")
            }
            guard food || target != .restaurant else { throw RPCError.invalidField("target", "RESTAURANT applies to food orders only") }
            let rated = food && target == .restaurant ? (account: "", restaurant: order.restaurantID) : (account: order.courierAccountID, restaurant: "")
            let existing = try transaction.list(
                FeedbackTable.table, FeedbackTable.bySubject, .starting(with: [.string(market), .string(orderID.description)]), limit: 100)
            guard !existing.contains(where: {
                $0.value.subject.authorAccountID == caller.accountID.description && $0.value.subject.restaurantID == rated.restaurant
            }) else {
                let whom = food ? (target == .restaurant ? "'s restaurant" : "'s driver") : ""
                throw RPCError.souk(.alreadyExists, .alreadyRated, "order \(order.orderNumber)\(whom) is already rated")
            }
            var entry = SoukV1.FeedbackEntry()
            entry.subject = SoukV1.ResourceRef(type: .order, id: orderID.description)
            entry.authorAccountID = caller.accountID.description
            entry.ratedAccountID = rated.account
            entry.restaurantID = rated.restaurant
            entry.stars = request.stars
            entry.comment = request.comment
            let record = try transaction.insert(FeedbackTable.table, FeedbackRecord(marketplaceID: market, entry))
            try AuditLog.record(
                in: transaction, marketplaceID: market, resource: SoukV1.ResourceRef(type: .feedback, id: record.id.description),
                actor: actor, to: "CREATED", resourceVersion: record.version)
            // Averages are server-maintained: they never change the versions clients edit with.
            if let restaurant = RecordID(rated.restaurant) {
                let summary = try RatingTotalTable.add(request.stars, to: restaurant, transaction: transaction)
                try FoodRestaurants.rated(restaurant, summary, transaction: transaction)
            }
            if let courier = RecordID(rated.account), try transaction.get(AccountTable.table, courier) != nil {
                let summary = try RatingTotalTable.add(request.stars, to: courier, transaction: transaction)
                try transaction.updateMaintainedFields(AccountTable.table, courier) { $0.account.rating = summary }
            }
            if !food, let line = order.lines.first, line.itemType == .service, let service = RecordID(line.itemID),
               try transaction.get(ServiceTable.table, service) != nil
            {
                let summary = try RatingTotalTable.add(request.stars, to: service, transaction: transaction)
                try transaction.updateMaintainedFields(ServiceTable.table, service) { $0.subject.rating = summary }
            }
            return record.api() as SoukV1.FeedbackEntry
        }
        return try view(result.value.id, call)
    }

    func get(_ request: SoukV1.GetFeedbackRequest, _ call: SoukCall) async throws -> SoukV1.FeedbackEntry {
        try view(request.feedbackID, call)
    }

    func answer(_ request: SoukV1.AnswerFeedbackRequest, _ call: SoukCall) async throws -> SoukV1.FeedbackEntry {
        let (marketplaceID, _) = try call.requireMarketplace()
        let id = try RequestFields.id(request.feedbackID, field: "feedback_id")
        let text = request.text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw RPCError.invalidField("text", "is required") }
        guard text.count <= 2000 else { throw RPCError.invalidField("text", "must be at most 2000 characters") }
        let expected = try RequestFields.expectedVersion(request.expectedVersion)
        let actor = AuditActor(call)
        let market = marketplaceID.description
        try await store.write { transaction in
            let current = try transaction.require(FeedbackTable.table, id, in: marketplaceID, "feedback")
            if let expected, expected != current.version {
                throw RPCError.staleVersion("feedback", id.description, expected: expected, actual: current.version)
            }
            let updated = try transaction.update(FeedbackTable.table, id) {
                $0.subject.answer = SoukV1.FeedbackAnswer(text: text, answeredByAccountID: actor.accountID, answerTime: Timestamp(transaction.now))
            }
            try AuditLog.record(
                in: transaction, marketplaceID: market, resource: SoukV1.ResourceRef(type: .feedback, id: id.description), actor: actor,
                from: current.value.subject.answer == nil ? "UNANSWERED" : "ANSWERED", to: "ANSWERED", resourceVersion: updated.version)
            try Notifier.send(
                [Notifier.Note(to: updated.value.subject.authorAccountID, kind: .order, title: "We answered your feedback", body: text,
                               subject: SoukV1.ResourceRef(type: .feedback, id: id.description))],
                marketplaceID: market, transaction: transaction)
        }
        return try view(id.description, call)
    }

    func list(_ request: SoukV1.ListFeedbackRequest, _ call: SoukCall) async throws -> SoukV1.ListFeedbackResponse {
        let (marketplaceID, _) = try call.requireMarketplace()
        let market = KeyPart.string(marketplaceID.description)
        let filters = [request.ratedAccountID, request.listingID, request.restaurantID, request.authorAccountID, request.subjectID].filter { !$0.isEmpty }
        guard filters.count <= 1, !(request.unansweredOnly && !filters.isEmpty) else {
            throw RPCError.invalidField(
                "rated_account_id", "at most one of rated_account_id, listing_id, restaurant_id, author_account_id, subject_id and unanswered_only")
        }
        let isAdmin = call.caller.map { $0.isOperator || $0.activeRoles.contains(.admin) } ?? false
        if request.unansweredOnly && !isAdmin || !request.authorAccountID.isEmpty && !isAdmin
            && request.authorAccountID != call.caller?.accountID.description
        {
            throw RPCError.souk(.permissionDenied, .notAllowed, "only admins list unanswered feedback or another author's")
        }
        let stamp = "rated=\(request.ratedAccountID);listing=\(request.listingID);restaurant=\(request.restaurantID);author=\(request.authorAccountID);subject=\(request.subjectID);unanswered=\(request.unansweredOnly)"
        let page = try RequestFields.page(size: request.pageSize, token: request.pageToken, filters: stamp)
        let (index, prefix): (Index<FeedbackRecord>, [KeyPart]) =
            if !request.ratedAccountID.isEmpty { (FeedbackTable.byRated, [market, .string(request.ratedAccountID)]) }
            else if !request.listingID.isEmpty { (FeedbackTable.byListing, [market, .string(request.listingID)]) }
            else if !request.restaurantID.isEmpty { (FeedbackTable.byRestaurant, [market, .string(request.restaurantID)]) }
            else if !request.authorAccountID.isEmpty { (FeedbackTable.byAuthor, [market, .string(request.authorAccountID)]) }
            else if !request.subjectID.isEmpty { (FeedbackTable.bySubject, [market, .string(request.subjectID)]) }
            else if request.unansweredOnly { (FeedbackTable.unanswered, [market]) }
            else { (FeedbackTable.byMarketplace, [market]) }
        let result = try store.list(FeedbackTable.table, index, .starting(with: prefix), direction: .descending, page: page)
        var response = SoukV1.ListFeedbackResponse()
        response.feedback = try result.items.map { try decorate($0.api(), call) }
        response.nextPageToken = RequestFields.nextPageToken(result.nextPageToken, filters: stamp)
        return response
    }

    func ratingSummary(_ request: SoukV1.GetRatingSummaryRequest, _ call: SoukCall) async throws -> SoukV1.RatingSummary {
        let (marketplaceID, _) = try call.requireMarketplace()
        guard request.listingID.isEmpty else { throw RPCError.notFound("listing", request.listingID) }
        let id = try RequestFields.id(request.accountID, field: "account_id")
        guard let account = try store.get(AccountTable.table, id), account.value.account.marketplaceID == marketplaceID.description else {
            throw RPCError.notFound("account", id.description)
        }
        return account.value.account.rating ?? SoukV1.RatingSummary()
    }

    private func view(_ feedbackID: String, _ call: SoukCall) throws -> SoukV1.FeedbackEntry {
        let (marketplaceID, _) = try call.requireMarketplace()
        let id = try RequestFields.id(feedbackID, field: "feedback_id")
        return try decorate(try store.require(FeedbackTable.table, id, in: marketplaceID, "feedback").api(), call)
    }

    private func decorate(_ entry: SoukV1.FeedbackEntry, _ call: SoukCall) throws -> SoukV1.FeedbackEntry {
        var entry = entry
        let vertical = call.marketplace?.vertical ?? .unspecified
        entry.author = try OrderParties.summary(entry.authorAccountID, vertical: vertical, store: store)
        entry.rated = try OrderParties.summary(entry.ratedAccountID, vertical: vertical, store: store)
        return entry
    }
}
