import Foundation
import SoukAccess
import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukNotifications
import SoukOrders
import SoukPayments
import SoukStore

/// Water-services orders: placing one for a window, moving it to another, and an admin's
/// approval or rejection.
struct ServiceOrders {
    let commerce: Commerce
    var store: Store { commerce.store }

    func place(_ request: SoukV1.PlaceServiceOrderRequest, _ call: SoukCall) async throws -> SoukV1.Order {
        let caller = try call.requireCaller()
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        var checks = FieldChecks()
        let requestIDField = try checks.run { try RequestFields.requestID(request.requestID) }
        let serviceIDField = try checks.run { try RequestFields.id(request.serviceID, field: "service_id") }
        checks.require(request.quantity > 0 && request.quantity <= 1000, "quantity", "must be 1 to 1000")
        let windowField = try checks.run { try ServiceWindows.resolve(request.scheduledWindow, marketplace, now: commerce.now, field: "scheduled_window") }
        checks.require(request.note.count <= 1000, "note", "must be at most 1000 characters")
        if case .optionCode(let code) = request.option, code.isEmpty { checks.add("option_code", "must not be empty when set") }
        try checks.finish()
        let (requestID, serviceID, window) = (requestIDField!, serviceIDField!, windowField!)
        let actor = AuditActor(call, requestID: requestID)
        let customerID = caller.accountID
        // Taken before the transaction, so placements do not wait for each other on a counter.
        let orderNumber = try await commerce.orderNumbers.next(marketplaceID: marketplaceID, marketplace: marketplace)
        let payment = try commerce.payables.charge(marketplaceID: marketplaceID, accountID: customerID, requestID: requestID)
        let store = store
        let result = try await payment.run { try await store.write(
            idempotencyKey: IdempotencyKey(marketplace: marketplaceID.description, account: customerID.description, key: requestID),
            fingerprint: RequestFingerprint(request.encoded()), responseCodec: MessageCodec<SoukV1.Order>()
        ) { transaction in
            let service = ServiceValidation.withCodes(ServiceProjection.service(try transaction.require(ServiceTable.table, serviceID, in: marketplaceID, "service")))
            guard service.available, !service.archived else {
                throw RPCError.souk(.failedPrecondition, .itemUnavailable, "\(service.name) cannot be ordered now")
            }
            var line = SoukV1.OrderLine()
            line.itemID = service.id
            line.itemType = .service
            line.name = service.name
            var unit = service.basePrice ?? SoukV1.Money(amountMinor: 0, currencyCode: marketplace.currencyCode)
            if let option = try Self.option(of: service, chosen: request.option) {
                guard option.available else { throw RPCError.souk(.failedPrecondition, .itemUnavailable, "\(option.name) cannot be ordered now") }
                line.optionID = option.id
                line.optionName = option.name
                line.optionCode = option.code
                unit = option.price ?? unit
            }
            let currency = marketplace.currencyCode
            let (total, overflow) = unit.amountMinor.multipliedReportingOverflow(by: Int64(request.quantity))
            guard !overflow else { throw RPCError.invalidField("quantity", "is too large") }
            line.listUnitPrice = unit
            line.unitPrice = unit
            line.quantity = request.quantity
            line.lineTotal = SoukV1.Money(amountMinor: total, currencyCode: currency)
            let zero = SoukV1.Money(amountMinor: 0, currencyCode: currency)

            var order = SoukStoreV1.Order()
            order.customerAccountID = customerID.description
            order.status = .pending
            order.lines = [line]
            order.price = SoukV1.PriceBreakdown(subtotal: line.lineTotal, taxRateBps: 0, tax: zero, feesTotal: zero, total: line.lineTotal)
            order.address = try ServiceOrders.address(request.address, customer: customerID, marketplaceID: marketplaceID, transaction: transaction)
            order.scheduledWindow = SoukV1.TimeWindow(startTime: Timestamp(window.start), endTime: Timestamp(window.end))
            order.note = request.note
            try ServiceWindows.book(
                window.start, marketplaceID: marketplaceID.description, capacity: ServiceWindows.capacity(marketplace), transaction: transaction)
            order.orderNumber = orderNumber
            let orderID = RecordID.generate()
            let payment = try PaymentLedger.charge(
                request.payment, field: "payment",
                PaymentLedger.Charge(
                    marketplaceID: marketplaceID, marketplace: marketplace, target: SoukV1.ResourceRef(type: .order, id: orderID.description),
                    payer: customerID, payee: "", amount: line.lineTotal!),
                actor: actor, attempt: payment, transaction: transaction)
            order.paymentID = payment.id.description
            order.paymentMethod = payment.value.subject.method
            order.paymentStatus = payment.value.subject.status
            var record = try OrderLifecycles.waterServices.create(
                OrderRecord(marketplaceID: marketplaceID.description, order), id: orderID, by: actor,
                transaction: transaction)
            if !service.requiresApproval {
                // Deliveries need no admin: the server approves them as they are placed.
                record = try OrderLifecycles.waterServices.fire(
                .approve, on: orderID, marketplaceID: marketplaceID.description,
                    by: .system("ApproveDeliveryOrder"), transaction: transaction
                ) { $0.subject.approveTime = Timestamp(transaction.now) }
            }
            try ScheduledOrders.track(record, transaction: transaction)
            try Notifier.send(
                OrderChanges.notes(
                    record.value.subject, id: orderID,
                    .serviceOrderPlaced(
                        number: order.orderNumber, confirmed: record.value.subject.status == .approved, service: line.name,
                        quantity: Int64(line.quantity), at: ServiceOrders.when(window.start, marketplace))),
                marketplaceID: marketplaceID.description, transaction: transaction)
            // A retry reads the order by this id (below).
            return record.stamped(SoukV1.Order())
        } }
        return try view(result.value.id, call)
    }

    /// The option the request names, by id or by code; nil for a service without options.
    static func option(of service: SoukV1.Service, chosen: SoukV1.PlaceServiceOrderRequest.Option?) throws -> SoukV1.ServiceOption? {
        let choices = service.options.map { "\($0.code) (\($0.name))" }.joined(separator: ", ")
        switch chosen {
        case .optionID(let id) where !id.isEmpty:
            guard !service.options.isEmpty else { throw RPCError.invalidField("option_id", "must be empty: the service has no options") }
            guard let option = service.options.first(where: { $0.id == id }) else {
                throw RPCError.invalidField("option_id", "must be the id of one of the service's options: " + choices)
            }
            return option
        case .optionCode(let code):
            guard !service.options.isEmpty else { throw RPCError.invalidField("option_code", "must be empty: the service has no options") }
            guard let option = service.options.first(where: { $0.code == code }) else {
                throw RPCError.invalidField("option_code", "must be the code of one of the service's options: " + choices)
            }
            return option
        default:
            guard service.options.isEmpty else { throw RPCError.invalidField("option_id", "choose one of the service's options (option_id or option_code): " + choices) }
            return nil
        }
    }

    func reschedule(_ request: SoukV1.RescheduleOrderRequest, _ call: SoukCall) async throws -> SoukV1.Order {
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        var checks = FieldChecks()
        let idField = try checks.run { try RequestFields.id(request.orderID, field: "order_id") }
        let expectedField = try checks.run { try RequestFields.expectedVersion(request.expectedVersion) }
        let windowField = try checks.run { try ServiceWindows.resolve(request.scheduledWindow, marketplace, now: commerce.now, field: "scheduled_window") }
        checks.require(request.reason.count <= 1000, "reason", "must be at most 1000 characters")
        try checks.finish()
        let (id, expected, window) = (idField!, expectedField!, windowField!)
        let actor = AuditActor(call)
        try await store.write { transaction in
            let current = try Orders.require(id, in: marketplaceID, transaction)
            if let expected, expected != current.version {
                throw RPCError.staleVersion("order", id.description, expected: expected, actual: current.version)
            }
            guard [.pending, .approved].contains(current.value.subject.status) else {
                throw RPCError.souk(
                    .failedPrecondition, .invalidTransition,
                    "cannot reschedule order \(id): it is \(current.value.subject.status.protoName); only PENDING or APPROVED orders move")
            }
            let oldStart = current.value.subject.scheduledWindow?.startTime.map(StoreTime.init)
            if oldStart != window.start {
                try ServiceWindows.book(
                    window.start, marketplaceID: marketplaceID.description, capacity: ServiceWindows.capacity(marketplace), transaction: transaction)
                if let oldStart { try ServiceWindows.release(oldStart, marketplaceID: marketplaceID.description, transaction: transaction) }
            }
            let updated = try Orders.update(id, transaction) {
                $0.subject.scheduledWindow = SoukV1.TimeWindow(startTime: Timestamp(window.start), endTime: Timestamp(window.end))
            }
            try OrderLifecycles.waterServices.recordChange(updated, by: actor, reason: request.reason, transaction: transaction)
            try ScheduledOrders.track(updated, transaction: transaction)
            let order = updated.value.subject
            try Notifier.send(
                OrderChanges.notes(
                    order, id: id,
                    .orderRescheduled(number: order.orderNumber, at: ServiceOrders.when(window.start, marketplace), reason: request.reason)),
                marketplaceID: marketplaceID.description, transaction: transaction)
        }
        return try view(id.description, call)
    }

    func approve(_ request: SoukV1.ApproveOrderRequest, _ call: SoukCall) async throws -> SoukV1.Order {
        let (marketplaceID, _) = try call.requireMarketplace()
        let id = try RequestFields.id(request.orderID, field: "order_id")
        let expected = try RequestFields.expectedVersion(request.expectedVersion)
        let actor = AuditActor(call)
        try await store.write { transaction in
            let record = try OrderLifecycles.waterServices.fire(
                .approve, on: id, marketplaceID: marketplaceID.description, by: actor, expectedVersion: expected,
                transaction: transaction
            ) { $0.subject.approveTime = Timestamp(transaction.now) }
            let order = record.value.subject
            try Notifier.send(
                OrderChanges.notes(order, id: id, .orderApproved(number: order.orderNumber)),
                marketplaceID: marketplaceID.description, transaction: transaction)
        }
        return try view(id.description, call)
    }

    /// The order as the caller sees it, read after the change committed.
    private func view(_ orderID: String, _ call: SoukCall) throws -> SoukV1.Order {
        let (marketplaceID, _) = try call.requireMarketplace()
        let id = try RequestFields.id(orderID, field: "order_id")
        return try OrderParties.view(try Orders.require(id, in: marketplaceID, store), call, lifecycle: OrderLifecycles.waterServices, store: store)
    }

    /// The address snapshot: a saved address of the customer, a typed one, or else the
    /// customer's default saved address.
    static func address(_ choice: SoukV1.AddressChoice?, customer: RecordID, marketplaceID: RecordID, transaction: Transaction) throws
        -> SoukV1.Address
    {
        switch choice?.choice {
        case .savedAddressID(let text)?:
            let id = try RequestFields.id(text, field: "address.saved_address_id")
            guard let saved = try IdentityRecords.address(id, transaction), saved.value.marketplaceID == marketplaceID.description,
                  saved.value.subject.accountID == customer.description, !saved.value.subject.archived, let address = saved.value.subject.address
            else { throw RPCError.notFound("address", text) }
            return address
        case .address(let address)?:
            guard !address.line1.trimmingCharacters(in: .whitespaces).isEmpty, address.line1.count <= 200 else {
                throw RPCError.invalidField("address.address.line1", "is required (at most 200 characters)")
            }
            guard !address.city.trimmingCharacters(in: .whitespaces).isEmpty, address.city.count <= 100 else {
                throw RPCError.invalidField("address.address.city", "is required (at most 100 characters)")
            }
            return address
        case nil:
            guard let saved = try IdentityRecords.defaultAddress(of: customer, marketplaceID: marketplaceID, transaction),
                let address = saved.value.subject.address
            else { throw RPCError.invalidField("address", "is required: a saved address or one typed for this order") }
            return address
        }
    }

    /// "on 2026-11-25 at 08:00" in the marketplace's time zone.
    static func when(_ start: StoreTime, _ marketplace: SoukV1.Marketplace) -> NotificationText.When {
        let clock = MarketplaceClock(timeZone: marketplace.timeZone)
        let date = clock.date(of: start)
        let midnight = clock.instant(date, minute: 0)
        let minutes = Int((start.microsecondsSinceEpoch - midnight.microsecondsSinceEpoch) / 60_000_000)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return NotificationText.When(date: "\(date.year)-\(two(date.month))-\(two(date.day))", time: "\(two(minutes / 60)):\(two(minutes % 60))")
    }
}
