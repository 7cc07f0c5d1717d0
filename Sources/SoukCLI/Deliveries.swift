import ArgumentParser
import Foundation

// Deliveries (Aqua Hub's couriers, DineSwift's drivers) and payments.

let deliveryColumns = [
    Column("ID", "id"), Column("ORDER", "orderId"), Column("STATUS", "status"), Column("COURIER", "courier"), Column("FEE", "deliveryFee"),
    Column("CREATED", "createTime"),
]
let deliveryFields = [
    Column("id", "id"), Column("order", "orderId"), Column("status", "status"), Column("courier", "courier"), Column("customer", "customer"),
    Column("drop-off", "dropoffAddress.line1"), Column("fee", "deliveryFee"), Column("note", "note"), Column("offer expires", "offerExpireTime"),
    Column("arrival", "estimatedArrivalTime"), Column("dispatched", "dispatchTime"), Column("completed", "completionTime"),
]

struct Deliveries: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Deliveries of orders (souk.v1.Deliveries): the admin assigns or offers them, the courier accepts, starts, delays and completes.",
        discussion: """
              DELIVERY=$(souk deliveries assign ORDER --courier COURIER_ID --json --profile admin | jq -r .id)
              souk deliveries start "$DELIVERY" --profile courier
              souk deliveries complete "$DELIVERY" --profile courier
              souk deliveries track ORDER          # the courier's position as it moves (customer)
            """,
        subcommands: [
            DeliveriesList.self, DeliveriesShow.self, DeliveriesAssign.self, DeliveriesOffer.self, DeliveriesAccept.self, DeliveriesReject.self,
            DeliveriesStart.self, DeliveriesDelay.self, DeliveriesComplete.self, DeliveriesCancel.self, DeliveriesAvailability.self,
            DeliveriesCouriers.self, DeliveriesTrack.self,
        ],
        defaultSubcommand: DeliveriesList.self)
}

struct DeliveriesList: ListCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List deliveries (a courier's own, or the marketplace's for admins): Deliveries.ListDeliveries.")
    static let rpc = "souk.v1.Deliveries/ListDeliveries"
    static let key = "deliveries"
    static var columns: [Column] { deliveryColumns }
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var page: PageOptions
    @Option(name: .long, help: "Only these statuses (repeatable): offered, assigned, in-progress, delayed, completed, cancelled.") var status: [String] = []
    @Option(name: .long, help: "Only this courier's (account id).") var courier: String?
    @Option(name: .long, help: "Only this order's.") var order: String?
    var filters: [String: Any] {
        var request: [String: Any] = [:]
        if !status.isEmpty { request["statuses"] = status.map { enumName($0, prefix: "DELIVERY_STATUS_") } }
        if let courier { request["courierAccountId"] = courier }
        if let order { request["orderId"] = order }
        return request
    }
}

/// One delivery step, answering the delivery.
protocol DeliveryStep: RecordStep {}

extension DeliveryStep {
    static var idField: String { "deliveryId" }
    static var fields: [Column] { deliveryFields }
}

struct DeliveriesShow: DeliveryStep {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one delivery: Deliveries.GetDelivery.")
    static let rpc = "souk.v1.Deliveries/GetDelivery"
    @Argument(help: "The delivery's id.") var id: String
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
}

struct DeliveriesAssign: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assign", abstract: "Give an order's delivery to a courier (admin, shop): Deliveries.AssignDelivery.")
    @Argument(help: "The order's id.") var orderId: String
    @Option(name: .long, help: "The courier's account id.") var courier: String
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    func run() async throws {
        try await withClient(connection, output, profile: true) { client in
            try await client.show(
                "souk.v1.Deliveries/AssignDelivery", ["requestId": newRequestId(), "orderId": orderId, "courierAccountId": courier], output, deliveryFields)
        }
    }
}

struct DeliveriesOffer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "offer", abstract: "Offer an order's delivery to a courier, or to the nearest available one (admin, shop): Deliveries.OfferDelivery.")
    @Argument(help: "The order's id.") var orderId: String
    @Option(name: .long, help: "The courier's account id.") var courier: String?
    @Flag(name: .long, help: "The nearest available courier instead.") var nearest = false
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    func run() async throws {
        guard (courier == nil) == nearest else { throw ValidationError("give exactly one of --courier and --nearest") }
        try await withClient(connection, output, profile: true) { client in
            var request: [String: Any] = ["requestId": newRequestId(), "orderId": orderId]
            if let courier { request["courierAccountId"] = courier } else { request["nearestAvailable"] = true }
            try await client.show("souk.v1.Deliveries/OfferDelivery", request, output, deliveryFields)
        }
    }
}

struct DeliveriesAccept: DeliveryStep {
    static let configuration = CommandConfiguration(commandName: "accept", abstract: "Accept a delivery offered to you (courier): Deliveries.AcceptDelivery.")
    static let rpc = "souk.v1.Deliveries/AcceptDelivery"
    @Argument(help: "The delivery's id.") var id: String
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
}

struct DeliveriesReject: DeliveryStep, ReasonStep {
    static let configuration = CommandConfiguration(commandName: "reject", abstract: "Turn down a delivery offered to you (courier): Deliveries.RejectDelivery.")
    static let rpc = "souk.v1.Deliveries/RejectDelivery"
    @Argument(help: "The delivery's id.") var id: String
    @Option(name: .long, help: "Why.") var reason: String = ""
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
}

struct DeliveriesStart: DeliveryStep {
    static let configuration = CommandConfiguration(commandName: "start", abstract: "Set out with the order (courier): Deliveries.StartDelivery.")
    static let rpc = "souk.v1.Deliveries/StartDelivery"
    @Argument(help: "The delivery's id.") var id: String
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
}

struct DeliveriesDelay: DeliveryStep {
    static let configuration = CommandConfiguration(commandName: "delay", abstract: "Report a delay, with a note for the customer (courier): Deliveries.DelayDelivery.")
    static let rpc = "souk.v1.Deliveries/DelayDelivery"
    @Argument(help: "The delivery's id.") var id: String
    @Option(name: .long, help: "What happened.") var note: String
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    var extra: [String: Any] { ["note": note] }
}

struct DeliveriesComplete: DeliveryStep {
    static let configuration = CommandConfiguration(commandName: "complete", abstract: "Hand the order over (courier): Deliveries.CompleteDelivery.")
    static let rpc = "souk.v1.Deliveries/CompleteDelivery"
    @Argument(help: "The delivery's id.") var id: String
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
}

struct DeliveriesCancel: DeliveryStep, ReasonStep {
    static let configuration = CommandConfiguration(commandName: "cancel", abstract: "Cancel a delivery (admin, shop): Deliveries.CancelDelivery.")
    static let rpc = "souk.v1.Deliveries/CancelDelivery"
    @Argument(help: "The delivery's id.") var id: String
    @Option(name: .long, help: "Why.") var reason: String = ""
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
}

struct DeliveriesAvailability: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "availability", abstract: "Go online or offline for deliveries (courier): Deliveries.SetCourierAvailability.",
        discussion: "  souk deliveries availability on --latitude 30.97 --longitude 41.02\n  souk deliveries availability off")
    @Argument(help: "on or off.") var state: String
    @Option(name: .long, help: "Where you are: latitude.") var latitude: Double?
    @Option(name: .long, help: "Where you are: longitude.") var longitude: Double?
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    func run() async throws {
        guard state == "on" || state == "off" else { throw ValidationError("say on or off") }
        guard (latitude == nil) == (longitude == nil) else { throw ValidationError("give both --latitude and --longitude, or neither") }
        try await withClient(connection, output, profile: true) { client in
            var request: [String: Any] = ["online": state == "on"]
            if let latitude, let longitude { request["location"] = ["latitude": latitude, "longitude": longitude] }
            try await client.show("souk.v1.Deliveries/SetCourierAvailability", request, output, [
                Column("courier", "courierAccountId"), Column("online", "online", missing: "no"), Column("location", "location"),
                Column("delivery", "activeDeliveryId"),
            ])
        }
    }
}

struct DeliveriesCouriers: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "couriers", abstract: "Couriers online and free, nearest first to an order's pickup (admin, shop): Deliveries.ListAvailableCouriers.")
    @Option(name: .long, help: "Measure distances from this order's pickup.") var order: String?
    @Option(name: .long, help: "Only within this many meters.") var radius: Int?
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var page: PageOptions
    func run() async throws {
        try await withClient(connection, output, profile: true) { client in
            var request: [String: Any] = [:]
            page.apply(&request, sortable: false)
            if let order { request["orderId"] = order }
            if let radius { request["radiusMeters"] = radius }
            try await client.list("souk.v1.Deliveries/ListAvailableCouriers", request, output, key: "couriers", [
                Column("COURIER", "courier.accountId"), Column("NAME", "courier"), Column("METERS", "distanceMeters"), Column("SEEN", "locationTime"),
            ])
        }
    }
}

struct DeliveriesTrack: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "track", abstract: "Follow the courier of an order as they move: Deliveries.WatchCourierLocation.",
        discussion: "Each position is printed as it arrives (--json: one JSON document a line). No deadline unless --deadline.")
    @Argument(help: "The order's id.") var orderId: String
    @Option(name: .long, help: "Stop after this many events.") var count: Int?
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    func run() async throws {
        try await withClient(connection, output, profile: true, stream: true) { client in
            try await client.watch("souk.v1.Deliveries/WatchCourierLocation", ["orderId": orderId], output, count: count, [
                Column("SEQ", "sequence"), Column("TIME", "locationTime"), Column("LOCATION", "location"), Column("METERS LEFT", "remainingDistanceMeters"),
                Column("ARRIVAL", "estimatedArrivalTime"),
            ])
        }
    }
}

// MARK: Payments

let paymentColumns = [
    Column("ID", "id"), Column("FOR", "target"), Column("METHOD", "method"), Column("STATUS", "status"), Column("AMOUNT", "amount"),
    Column("REFUNDED", "refundedAmount"), Column("CREATED", "createTime"),
]
let paymentFields = [
    Column("id", "id"), Column("for", "target"), Column("method", "method"), Column("status", "status"), Column("amount", "amount"),
    Column("refunded", "refundedAmount"), Column("refunds", "refunds"), Column("card", "cardLast4"), Column("payer", "payerAccountId"),
    Column("payee", "payeeAccountId"), Column("payout", "payoutReason"), Column("failure", "failureReason"), Column("created", "createTime"),
]

struct Payments: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Payments (souk.v1.Payments): list, show, refund (admin), cash collected (courier) and confirmed (admin, shop).",
        discussion: """
              souk payments list --status succeeded
              souk payments refund PAYMENT --amount 5.00 --reason 'Damaged bottle' --profile admin
            """,
        subcommands: [PaymentsList.self, PaymentsShow.self, PaymentsRefund.self, PaymentsCashCollected.self, PaymentsConfirmCash.self],
        defaultSubcommand: PaymentsList.self)
}

struct PaymentsList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List payments: yours, the seller's with --as-seller, another payer's or all with --payer and --all (admins): Payments.ListPayments.")
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var page: PageOptions
    @Option(name: .long, help: "Only these statuses (repeatable), e.g. succeeded, refunded.") var status: [String] = []
    @Option(name: .long, help: "Only this payer's (account id).") var payer: String?
    @Option(name: .customLong("for"), help: "Only the payments of this order, job or bill (its id; admins).") var target: String?
    @Flag(name: .long, help: "The payments to the signed-in seller.") var asSeller = false
    @Flag(name: .long, help: "Everyone's (admins).") var all = false
    func run() async throws {
        guard [payer != nil, target != nil, asSeller, all].filter({ $0 }).count <= 1 else {
            throw ValidationError("give at most one of --payer, --for, --as-seller and --all")
        }
        try await withClient(connection, output, profile: true) { client in
            var request: [String: Any] = ["asSeller": asSeller]
            page.apply(&request, sortable: false)
            if !status.isEmpty { request["statuses"] = status.map { enumName($0, prefix: "PAYMENT_STATUS_") } }
            // Your own when no filter is given: the server asks everyone but admins to filter on themselves.
            if let payer = payer ?? (target != nil || asSeller || all ? nil : client.profile?.accountId) { request["payerAccountId"] = payer }
            if let target { request["targetId"] = target }
            try await client.list("souk.v1.Payments/ListPayments", request, output, key: "payments", paymentColumns)
        }
    }
}

/// One payment step, answering the payment.
protocol PaymentStep: RecordStep {}

extension PaymentStep {
    static var idField: String { "paymentId" }
    static var fields: [Column] { paymentFields }
}

struct PaymentsShow: PaymentStep {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one payment and its refunds: Payments.GetPayment.")
    static let rpc = "souk.v1.Payments/GetPayment"
    @Argument(help: "The payment's id.") var id: String
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
}

struct PaymentsRefund: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refund", abstract: "Refund a payment, in full or in part (admin): Payments.RefundPayment.")
    @Argument(help: "The payment's id.") var paymentId: String
    @Option(name: .long, help: "How much, e.g. 5.00 (the rest of the payment when left out).") var amount: String?
    @Option(name: .long, help: "Why.") var reason: String
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    func run() async throws {
        try await withClient(connection, output, profile: true) { client in
            var request: [String: Any] = ["requestId": newRequestId(), "paymentId": paymentId, "reason": reason]
            if let amount {
                let payment = try await client.object("souk.v1.Payments/GetPayment", ["paymentId": paymentId])
                request["amount"] = try money(amount, currency: value(payment, "amount.currencyCode") as? String ?? "")
            }
            try await client.show("souk.v1.Payments/RefundPayment", request, output, paymentFields)
        }
    }
}

struct PaymentsCashCollected: PaymentStep {
    static let configuration = CommandConfiguration(
        commandName: "cash-collected", abstract: "Record the cash taken from the customer (courier): Payments.MarkCashCollected.")
    static let rpc = "souk.v1.Payments/MarkCashCollected"
    @Argument(help: "The payment's id.") var id: String
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
}

struct PaymentsConfirmCash: PaymentStep {
    static let configuration = CommandConfiguration(
        commandName: "confirm-cash", abstract: "Confirm the courier handed the cash in (admin, shop): Payments.ConfirmCashPayment.")
    static let rpc = "souk.v1.Payments/ConfirmCashPayment"
    @Argument(help: "The payment's id.") var id: String
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
}
