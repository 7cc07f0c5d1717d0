import ArgumentParser
import Foundation
import SoukGRPC
import SoukGRPCClient

// Commands for what people do by hand, each one RPC (or a few) of the contract with a readable
// table by default and the server's answer as JSON with --json. Anything else: `souk call`.

/// Runs one command body with a client, its errors turned into messages and exit codes.
func withClient(_ connection: ConnectionOptions, _ output: OutputOptions, profile: Bool = false, stream: Bool = false,
                _ body: (Client) async throws -> Void) async throws {
    try await withClient(connection, jsonErrors: output.json, profile: profile, stream: stream, body)
}

func withClient(_ connection: ConnectionOptions, jsonErrors: Bool, compact: Bool = false, profile: Bool = false, stream: Bool = false,
                _ body: (Client) async throws -> Void) async throws {
    try await running(jsonErrors: jsonErrors, compact: compact) {
        let client = try await Client(connection, requireProfile: profile)
        if stream { client.defaultTimeout = nil }
        do {
            try await body(client)
        } catch {
            await client.close()
            throw error
        }
        await client.close()
    }
}

extension Client {
    /// A unary call; with --json its answer is printed as the server's JSON and nil returned.
    func answer(_ rpc: String, _ request: [String: Any], _ output: OutputOptions) async throws -> [String: Any]? {
        let text = try await unaryJSON(rpc, Array(try JSONSerialization.data(withJSONObject: request)), pretty: true)
        if output.json {
            emit(text)
            return nil
        }
        return try parseObject(text)
    }

    /// A list RPC as a table of `key`'s items (each unwrapped from `unwrap` when the list holds results).
    func list(_ rpc: String, _ request: [String: Any], _ output: OutputOptions, key: String, unwrap: String? = nil, _ columns: [Column]) async throws {
        guard let page = try await answer(rpc, request, output) else { return }
        var items = page[key] as? [[String: Any]] ?? []
        if let unwrap { items = items.map { $0[unwrap] as? [String: Any] ?? $0 } }
        printRows(items, columns)
        if let next = page["nextPageToken"] as? String, !next.isEmpty { emit("more: --page-token \(next)") }
    }

    /// Every item of a list RPC, page after page.
    func all(_ rpc: String, _ request: [String: Any], key: String, authorized: Bool = true) async throws -> [[String: Any]] {
        var request = request
        var items: [[String: Any]] = []
        while true {
            let page = try await object(rpc, request, authorized: authorized)
            items += page[key] as? [[String: Any]] ?? []
            guard let next = page["nextPageToken"] as? String, !next.isEmpty else { return items }
            request["pageToken"] = next
        }
    }

    /// A get RPC as `key: value` lines.
    func show(_ rpc: String, _ request: [String: Any], _ output: OutputOptions, _ fields: [Column]) async throws {
        guard let object = try await answer(rpc, request, output) else { return }
        printRecord(fields.map { ($0.header, $0.cell(object)) })
    }

    /// A Watch stream: each event as a line of the table (--json: one compact JSON document a
    /// line), printed as it arrives; ends when the server ends the stream or after `count` events.
    /// A stream the server ends as resumable (the access token expired: renewed first; a reader
    /// too slow; the connection lost) is opened again after the last event printed, so each event
    /// is printed once however long the watch runs.
    func watch(_ rpc: String, _ request: [String: Any], _ output: OutputOptions, count: Int?, _ columns: [Column]) async throws {
        let method = try method(rpc)
        var request = request
        var seen = 0
        var last: Int?
        var breaks = 0
        if !output.json { emit(columns.map(\.header).joined(separator: "  ")) }
        while true {
            try await refreshIfNeeded()
            if let last { request["resumeAfterSequence"] = last }
            let bytes = try requestBytes(Array(try JSONSerialization.data(withJSONObject: request)), type: method.inputType)
            do {
                try await channel.serverStreaming(method.path, request: bytes, options: try callOptions()) { call in
                    for try await message in call.responses {
                        let text = try responseJSON(message, type: method.outputType, pretty: false)
                        let event = try parseObject(text)
                        let sequence = Int(format(event["sequence"]))
                        if let sequence, let last, sequence <= last { continue }  // a replay of what was printed
                        emit(output.json ? text : columns.map { $0.cell(event) }.joined(separator: "  "))
                        last = sequence ?? last
                        breaks = 0
                        seen += 1
                        if let count, seen >= count { return }
                    }
                }
                return
            } catch let error as RPCError where breaks < 10 && last != nil {
                let reason = error.errorInfo?.reason
                FileHandle.standardError.write(Data("souk: the stream ended (\(reason ?? "\(error.code)")); resuming after sequence \(last!)\n".utf8))
                switch (error.code, reason) {
                case (.unauthenticated, "TOKEN_EXPIRED"): try await refreshIfNeeded(force: true)
                case (.resourceExhausted, "READER_TOO_SLOW"), (.unavailable, _): try await Task.sleep(for: .milliseconds(200 << min(breaks, 5)))
                default: throw error
                }
                breaks += 1
            }
        }
    }
}

/// A command that lists one RPC's items as a table (--json: the server's page as it is).
protocol ListCommand: AsyncParsableCommand {
    static var rpc: String { get }
    /// The JSON name of the page's list.
    static var key: String { get }
    static var columns: [Column] { get }
    /// Whether the RPC takes `order_by`.
    static var sortable: Bool { get }
    /// Whether it needs a signed-in profile.
    static var signedIn: Bool { get }
    var connection: ConnectionOptions { get }
    var output: OutputOptions { get }
    var page: PageOptions { get }
    /// The request's filters.
    var filters: [String: Any] { get }
}

extension ListCommand {
    static var sortable: Bool { false }
    static var signedIn: Bool { true }
    func run() async throws {
        try await withClient(connection, output, profile: Self.signedIn) { client in
            var request = filters
            page.apply(&request, sortable: Self.sortable)
            try await client.list(Self.rpc, request, output, key: Self.key, Self.columns)
        }
    }
}

/// Options shared by list commands.
struct PageOptions: ParsableArguments {
    @Option(name: .long, help: "How many to list (the server's page size).")
    var limit: Int?
    @Option(name: .long, help: "Continue after a previous page (the token it printed).")
    var pageToken: String?
    @Option(name: .long, help: "Sort: comma-separated fields, each optionally followed by ` desc` (e.g. \"price desc\").")
    var orderBy: String?

    func apply(_ request: inout [String: Any], sortable: Bool = true) {
        if let limit { request["pageSize"] = limit }
        if let pageToken { request["pageToken"] = pageToken }
        if sortable, let orderBy { request["orderBy"] = orderBy }
    }
}

func newRequestId() -> String { UUID().uuidString.lowercased() }

// MARK: Browse

struct Products: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Browse a shop's products (Chateau Du Nox's wines): Catalog.ListProducts, or SearchProducts with --search.",
        discussion: "  souk products --marketplace \"Chateau Du Nox\" --order-by price --limit 5\n  souk products --search chateau")
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var page: PageOptions
    @Option(name: .long, help: "Full-text search instead of listing.") var search: String?

    func run() async throws {
        try await withClient(connection, output) { client in
            var request: [String: Any] = [:]
            page.apply(&request, sortable: search == nil)
            let rpc = search == nil ? "souk.v1.Catalog/ListProducts" : "souk.v1.Catalog/SearchProducts"
            if let search { request["query"] = search }
            try await client.list(rpc, request, output, key: "products", [
                Column("ID", "id"), Column("NAME", "name"), Column("CATEGORY", "category"), Column("PRICE", "price"), Column("AVAILABLE", "available"),
            ])
        }
    }
}

struct Services: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Browse a shop's services (Aqua Hub's water deliveries): Catalog.ListServices.",
        discussion: "  souk services --marketplace \"Aqua Hub\" --search gallon")
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var page: PageOptions
    @Option(name: .long, help: "Only services whose name or description matches.") var search: String?

    func run() async throws {
        try await withClient(connection, output) { client in
            var request: [String: Any] = [:]
            page.apply(&request)
            if let search { request["query"] = search }
            try await client.list("souk.v1.Catalog/ListServices", request, output, key: "services", [
                Column("ID", "id"), Column("NAME", "name"), Column("TYPE", "type"), Column("PRICE", "basePrice"), Column("AVAILABLE", "available"),
            ])
        }
    }
}

struct Restaurants: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Browse DineSwift's restaurants: Catalog.ListRestaurants.",
        discussion: "  souk restaurants --marketplace DineSwift --open-only")
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var page: PageOptions
    @Flag(name: .long, help: "Only restaurants open now.") var openOnly = false
    @Option(name: .long, help: "Only restaurants in these approval states (pending, approved, rejected; admins).") var approval: [String] = []

    func run() async throws {
        try await withClient(connection, output) { client in
            var request: [String: Any] = ["openOnly": openOnly]
            page.apply(&request)
            if !approval.isEmpty { request["approvalStates"] = approval.map { enumName($0, prefix: "RESTAURANT_APPROVAL_STATE_") } }
            try await client.list("souk.v1.Catalog/ListRestaurants", request, output, key: "restaurants", unwrap: "restaurant", [
                Column("ID", "id"), Column("NAME", "name"), Column("OPEN", "open"), Column("APPROVAL", "approvalState"), Column("CATEGORIES", "categories"),
            ])
        }
    }
}

struct Menu: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "A restaurant's menu: Catalog.ListMenuItems.",
        discussion: "  souk menu RESTAURANT_ID")
    @Argument(help: "The restaurant's id.") var restaurantId: String
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var page: PageOptions

    func run() async throws {
        try await withClient(connection, output) { client in
            var request: [String: Any] = ["restaurantId": restaurantId]
            page.apply(&request, sortable: false)
            try await client.list("souk.v1.Catalog/ListMenuItems", request, output, key: "menuItems", [
                Column("ID", "id"), Column("SECTION", "section"), Column("NAME", "name"), Column("PRICE", "effectivePrice"), Column("AVAILABLE", "available"),
            ])
        }
    }
}

struct Listings: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Search MARA's rental listings: Rentals.SearchListings.",
        discussion: "  souk listings --marketplace MARA --order-by monthly_rent --limit 5 -H 'accept-language: vi'")
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var page: PageOptions
    @Option(name: .long, help: "Words to search for.") var search: String?

    func run() async throws {
        try await withClient(connection, output) { client in
            var request: [String: Any] = [:]
            page.apply(&request)
            if let search { request["query"] = search }
            try await client.list("souk.v1.Rentals/SearchListings", request, output, key: "listings", unwrap: "listing", [
                Column("ID", "id"), Column("TITLE", "title"), Column("DISTRICT", "district"), Column("RENT", "monthlyRent"), Column("STATUS", "status"),
            ])
        }
    }
}

struct Marketplaces: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The marketplaces (the apps' shops): list them, create, archive or restore one (operator).",
        subcommands: [MarketplacesList.self, MarketplacesCreate.self, MarketplacesArchive.self, MarketplacesRestore.self], defaultSubcommand: MarketplacesList.self, aliases: ["shops"])
}

struct MarketplacesList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the marketplaces: Marketplaces.ListMarketplaces (anyone).")
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    @Flag(name: .long, help: "Archived ones too (operator).") var archived = false

    func run() async throws {
        try await withClient(connection, output) { client in
            client.marketplaceId = ""
            try await client.list("souk.v1.Marketplaces/ListMarketplaces", ["pageSize": 100, "showArchived": archived], output, key: "marketplaces", [
                Column("ID", "id"), Column("SLUG", "slug"), Column("NAME", "displayName"), Column("VERTICAL", "vertical"), Column("CURRENCY", "currencyCode"),
                Column("TIME ZONE", "timeZone"),
            ])
        }
    }
}

struct MarketplacesCreate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create", abstract: "Create a marketplace (operator): Marketplaces.CreateMarketplace.",
        discussion: "  souk marketplaces create --slug corner-shop --name 'Corner Shop' --vertical retail --currency USD --time-zone America/New_York")
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    @Option(name: .long, help: "Its slug (lower-case, dashes).") var slug: String
    @Option(name: .long, help: "Its display name.") var name: String
    @Option(name: .long, help: "Its vertical: water_services, retail, laundry, rentals, food_delivery (see `souk describe souk.v1.Vertical`).") var vertical: String
    @Option(name: .long, help: "ISO 4217 currency code.") var currency: String
    @Option(name: .long, help: "IANA time zone.") var timeZone: String
    @Option(name: .long, help: "Default locale.") var locale: String = "en"

    func run() async throws {
        try await withClient(connection, output, profile: true) { client in
            let marketplace: [String: Any] = [
                "slug": slug, "displayName": name, "vertical": enumName(vertical, prefix: "VERTICAL_"), "currencyCode": currency,
                "timeZone": timeZone, "defaultLocale": locale,
            ]
            try await client.show("souk.v1.Marketplaces/CreateMarketplace", ["requestId": newRequestId(), "marketplace": marketplace], output, marketplaceFields)
        }
    }
}

let marketplaceFields = [
    Column("id", "id"), Column("slug", "slug"), Column("name", "displayName"), Column("vertical", "vertical"), Column("currency", "currencyCode"),
    Column("archived", "archived", missing: "no"),
]

/// One operator step on a marketplace named by its id.
protocol MarketplaceStep: RecordStep {}

extension MarketplaceStep {
    static var idField: String { "marketplaceId" }
    static var fields: [Column] { marketplaceFields }
}

struct MarketplacesArchive: MarketplaceStep {
    static let configuration = CommandConfiguration(
        commandName: "archive", abstract: "Archive a marketplace: it stops serving its apps, its data kept (operator): Marketplaces.ArchiveMarketplace.")
    static let rpc = "souk.v1.Marketplaces/ArchiveMarketplace"
    @Argument(help: "The marketplace's id.") var id: String
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
}

struct MarketplacesRestore: MarketplaceStep {
    static let configuration = CommandConfiguration(commandName: "restore", abstract: "Restore an archived marketplace (operator): Marketplaces.RestoreMarketplace.")
    static let rpc = "souk.v1.Marketplaces/RestoreMarketplace"
    @Argument(help: "The marketplace's id.") var id: String
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
}

// MARK: Cart and orders

struct CartCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cart", abstract: "The signed-in customer's cart: show, add, remove, clear (souk.v1.Carts).",
        subcommands: [CartShow.self, CartAdd.self, CartClear.self], defaultSubcommand: CartShow.self)
}

let cartColumns = [Column("LINE", "lineId"), Column("ITEM", "itemId"), Column("NAME", "name"), Column("QTY", "quantity"), Column("TOTAL", "lineTotal")]

func printCart(_ cart: [String: Any]) {
    printRows(cart["lines"] as? [[String: Any]] ?? [], cartColumns)
    emit("subtotal \(format(value(cart, "price.subtotal")))  total \(format(value(cart, "price.total")))")
}

struct CartShow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show the cart: Carts.GetCart.")
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    func run() async throws {
        try await withClient(connection, output, profile: true) { client in
            if let cart = try await client.answer("souk.v1.Carts/GetCart", [:], output) { printCart(cart) }
        }
    }
}

struct CartAdd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a product, service or menu item to the cart: Carts.AddCartLine.")
    @Argument(help: "The item's id (product, service or menu item).") var itemId: String
    @Option(name: .long, help: "How many.") var quantity = 1
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    func run() async throws {
        try await withClient(connection, output, profile: true) { client in
            if let cart = try await client.answer(
                "souk.v1.Carts/AddCartLine", ["requestId": newRequestId(), "itemId": itemId, "quantity": quantity], output)
            {
                printCart(cart)
            }
        }
    }
}

struct CartClear: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "clear", abstract: "Empty the cart: Carts.ClearCart.")
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    func run() async throws {
        try await withClient(connection, output, profile: true) { client in
            if let cart = try await client.answer("souk.v1.Carts/ClearCart", [:], output) { printCart(cart) }
        }
    }
}

let orderColumns = [
    Column("ID", "id"), Column("NUMBER", "orderNumber"), Column("STATUS", "status"), Column("TOTAL", "price.total"), Column("PAYMENT", "paymentStatus"),
    Column("CREATED", "createTime"),
]

let orderFields = [
    Column("id", "id"), Column("number", "orderNumber"), Column("status", "status"), Column("restaurant", "restaurantName"),
    Column("subtotal", "price.subtotal"), Column("total", "price.total"), Column("payment", "paymentStatus"), Column("customer", "customer"),
    Column("courier", "courier"), Column("carrier", "shippingCarrier"), Column("tracking", "trackingNumber"), Column("created", "createTime"),
]

struct Checkout: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Place an order from the cart: Orders.Checkout (a new request id each run).",
        discussion: """
              souk checkout --card tok_visa --recipient Aisyah --line1 '12 Jalan Ampang' --city 'Kuala Lumpur' --country MY
              souk checkout --saved-address ADDRESS_ID --cash
            """)
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    @Option(name: .long, help: "Pay with this card token (test cards: tok_visa, tok_mastercard, tok_chargeDeclined).") var card: String?
    @Flag(name: .long, help: "Pay cash on delivery.") var cash = false
    @Option(name: .long, help: "Deliver to this saved address.") var savedAddress: String?
    @Option(name: .long, help: "Recipient's name.") var recipient: String?
    @Option(name: .long, help: "Street line.") var line1: String?
    @Option(name: .long, help: "City.") var city: String?
    @Option(name: .long, help: "ISO country code.") var country: String?
    @Option(name: .long, help: "A note for the shop.") var note: String?

    func run() async throws {
        try await withClient(connection, output, profile: true) { client in
            var request: [String: Any] = ["requestId": newRequestId(), "addressConfirmed": true]
            if let savedAddress {
                request["address"] = ["savedAddressId": savedAddress]
            } else {
                var address: [String: Any] = [:]
                if let recipient { address["recipientName"] = recipient }
                if let line1 { address["line1"] = line1 }
                if let city { address["city"] = city }
                if let country { address["countryCode"] = country }
                if !address.isEmpty { request["address"] = ["address": address] }
            }
            if cash { request["payment"] = ["cash": [String: Any]()] } else if let card { request["payment"] = ["cardToken": card] }
            if let note { request["note"] = note }
            try await client.show("souk.v1.Orders/Checkout", request, output, orderFields)
        }
    }
}

struct Orders: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Orders: list, show, watch as they change, and the steps of the shop or admin (approve, reject, accept, ship, deliver, complete) and the customer's (confirm, cancel).",
        subcommands: [
            OrdersList.self, OrdersShow.self, OrdersWatch.self, OrdersApprove.self, OrdersReject.self, OrdersAccept.self, OrdersShip.self,
            OrdersDeliver.self, OrdersComplete.self, OrdersConfirm.self, OrdersCancel.self,
        ],
        defaultSubcommand: OrdersList.self)
}

struct OrdersList: ListCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List orders the caller may see (own, the shop's, or all for admins): Orders.ListOrders.",
        discussion: "  souk orders list --status placed --status accepted")
    static let rpc = "souk.v1.Orders/ListOrders"
    static let key = "orders"
    static var columns: [Column] { orderColumns }
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var page: PageOptions
    @Option(name: .long, help: "Only these statuses (repeatable), e.g. placed, delivered.") var status: [String] = []
    @Flag(name: .long, help: "The orders sold by the signed-in seller.") var asSeller = false

    var filters: [String: Any] {
        var request: [String: Any] = ["asSeller": asSeller]
        if !status.isEmpty { request["statuses"] = status.map { enumName($0, prefix: "ORDER_STATUS_") } }
        return request
    }
}

struct OrdersShow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one order: Orders.GetOrder.")
    @Argument(help: "The order's id.") var orderId: String
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    func run() async throws {
        try await withClient(connection, output, profile: true) { client in
            try await client.show("souk.v1.Orders/GetOrder", ["orderId": orderId], output, orderFields)
        }
    }
}

struct OrdersWatch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch", abstract: "Follow an order as it changes: Orders.WatchOrder (ends after a final status).",
        discussion: "Each change is printed as it arrives (--json: one JSON document a line). No deadline unless --deadline.")
    @Argument(help: "The order's id.") var orderId: String
    @Option(name: .long, help: "Stop after this many events.") var count: Int?
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    func run() async throws {
        try await withClient(connection, output, profile: true, stream: true) { client in
            try await client.watch("souk.v1.Orders/WatchOrder", ["orderId": orderId], output, count: count, [
                Column("SEQ", "sequence"), Column("TIME", "eventTime"), Column("STATUS", "order.status"), Column("PAYMENT", "order.paymentStatus"),
            ])
        }
    }
}

/// A command that applies one RPC to one record named by its id (plus a few fields of its own)
/// and prints the record the RPC answers.
protocol RecordStep: AsyncParsableCommand {
    static var rpc: String { get }
    /// The JSON name of the request's id field (`orderId`).
    static var idField: String { get }
    static var fields: [Column] { get }
    var id: String { get }
    var connection: ConnectionOptions { get }
    var output: OutputOptions { get }
    /// The request's other fields.
    var extra: [String: Any] { get throws }
}

extension RecordStep {
    var extra: [String: Any] { [:] }
    func run() async throws {
        try await withClient(connection, output, profile: true) { client in
            var request = try extra
            request[Self.idField] = id
            try await client.show(Self.rpc, request, output, Self.fields)
        }
    }
}

/// A step whose only field besides the id is `--reason`.
protocol ReasonStep: RecordStep {
    var reason: String { get }
}

extension ReasonStep {
    var extra: [String: Any] { ["reason": reason] }
}

/// One order step, answering the order.
protocol OrderStep: RecordStep {}

extension OrderStep {
    static var idField: String { "orderId" }
    static var fields: [Column] { orderFields }
}

struct OrdersApprove: OrderStep {
    static let configuration = CommandConfiguration(commandName: "approve", abstract: "Approve a pending water service order (admin): Orders.ApproveOrder.")
    static let rpc = "souk.v1.Orders/ApproveOrder"
    @Argument(help: "The order's id.") var id: String
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
}

struct OrdersReject: OrderStep, ReasonStep {
    static let configuration = CommandConfiguration(commandName: "reject", abstract: "Reject a pending order (admin, restaurant): Orders.RejectOrder.")
    static let rpc = "souk.v1.Orders/RejectOrder"
    @Argument(help: "The order's id.") var id: String
    @Option(name: .long, help: "Why (the customer is told).") var reason: String
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
}

struct OrdersAccept: OrderStep {
    static let configuration = CommandConfiguration(
        commandName: "accept", abstract: "The restaurant accepts a placed order and starts preparing it: Orders.AcceptOrder.")
    static let rpc = "souk.v1.Orders/AcceptOrder"
    @Argument(help: "The order's id.") var id: String
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
}

struct OrdersComplete: OrderStep {
    static let configuration = CommandConfiguration(commandName: "complete", abstract: "The restaurant confirms a delivered order complete and its cash received: Orders.CompleteOrder.")
    static let rpc = "souk.v1.Orders/CompleteOrder"
    @Argument(help: "The order's id.") var id: String
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
}

struct OrdersShip: OrderStep {
    static let configuration = CommandConfiguration(commandName: "ship", abstract: "The shop hands the order to a carrier: Orders.ShipOrder.")
    static let rpc = "souk.v1.Orders/ShipOrder"
    @Argument(help: "The order's id.") var id: String
    @Option(name: .long, help: "The carrier.") var carrier: String
    @Option(name: .long, help: "The carrier's tracking number.") var tracking: String
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    var extra: [String: Any] { ["shippingCarrier": carrier, "trackingNumber": tracking] }
}

struct OrdersDeliver: OrderStep {
    static let configuration = CommandConfiguration(commandName: "deliver", abstract: "The shop marks the order delivered: Orders.DeliverOrder.")
    static let rpc = "souk.v1.Orders/DeliverOrder"
    @Argument(help: "The order's id.") var id: String
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
}

struct OrdersConfirm: OrderStep {
    static let configuration = CommandConfiguration(commandName: "confirm", abstract: "The customer confirms receipt: Orders.ConfirmOrderReceived.")
    static let rpc = "souk.v1.Orders/ConfirmOrderReceived"
    @Argument(help: "The order's id.") var id: String
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
}

struct OrdersCancel: OrderStep, ReasonStep {
    static let configuration = CommandConfiguration(commandName: "cancel", abstract: "Cancel an order (customer, shop or admin): Orders.CancelOrder.")
    static let rpc = "souk.v1.Orders/CancelOrder"
    @Argument(help: "The order's id.") var id: String
    @Option(name: .long, help: "Why.") var reason: String = ""
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
}

// MARK: Leases

let leaseColumns = [
    Column("ID", "id"), Column("LISTING", "listingTitle"), Column("STATUS", "status"), Column("START", "startDate"), Column("END", "endDate"),
    Column("RENT", "monthlyRent"),
]
let leaseFields = [
    Column("id", "id"), Column("listing", "listingTitle"), Column("status", "status"), Column("lessee", "lessee"), Column("lessor", "lessor"),
    Column("start", "startDate"), Column("end", "endDate"), Column("rent", "monthlyRent"), Column("deposit", "deposit"), Column("deposit bill", "depositBillId"),
]

struct Leases: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "MARA leases (bookings, souk.v1.Rentals): the lessee requests one, the lessor confirms or declines it; list, show, watch, cancel, end.",
        discussion: """
              BOOKING=$(souk leases request LISTING_ID --months 12 --start 2027-01-01 --json | jq -r .id)
              souk leases confirm "$BOOKING" --profile lessor
              souk leases watch "$BOOKING"
            """,
        subcommands: [
            LeasesList.self, LeasesShow.self, LeasesWatch.self, LeasesRequest.self, LeasesConfirm.self, LeasesDecline.self, LeasesCancel.self,
            LeasesEnd.self,
        ],
        defaultSubcommand: LeasesList.self, aliases: ["bookings"])
}

struct LeasesList: ListCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List leases (as lessee or lessor, or all for admins): Rentals.ListBookings.")
    static let rpc = "souk.v1.Rentals/ListBookings"
    static let key = "bookings"
    static var columns: [Column] { leaseColumns }
    static let sortable = true
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var page: PageOptions
    @Option(name: .long, help: "Only these statuses (repeatable), e.g. requested, active.") var status: [String] = []
    var filters: [String: Any] {
        status.isEmpty ? [:] : ["statuses": status.map { enumName($0, prefix: "BOOKING_STATUS_") }]
    }
}

struct LeasesShow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one lease: Rentals.GetBooking.")
    @Argument(help: "The booking's id.") var bookingId: String
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    func run() async throws {
        try await withClient(connection, output, profile: true) { client in
            try await client.show("souk.v1.Rentals/GetBooking", ["bookingId": bookingId], output, leaseFields)
        }
    }
}

struct LeasesWatch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "watch", abstract: "Follow a lease and its bills: Rentals.WatchBooking.")
    @Argument(help: "The booking's id.") var bookingId: String
    @Option(name: .long, help: "Stop after this many events.") var count: Int?
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    func run() async throws {
        try await withClient(connection, output, profile: true, stream: true) { client in
            try await client.watch("souk.v1.Rentals/WatchBooking", ["bookingId": bookingId], output, count: count, [
                Column("SEQ", "sequence"), Column("TIME", "eventTime"), Column("STATUS", "booking.status"), Column("BILL", "bill.id"),
            ])
        }
    }
}

struct LeasesRequest: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "request", abstract: "Ask the lessor for a lease of a listing (lessee): Rentals.RequestBooking.")
    @Argument(help: "The listing's id.") var listingId: String
    @Option(name: .long, help: "How many months.") var months: Int
    @Option(name: .long, help: "The first day (YYYY-MM-DD).") var start: String
    @Option(name: .long, help: "A message to the lessor.") var message: String = ""
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    func run() async throws {
        try await withClient(connection, output, profile: true) { client in
            try await client.show("souk.v1.Rentals/RequestBooking", [
                "requestId": newRequestId(), "listingId": listingId, "months": months, "startDate": try calendarDate(start), "message": message,
            ], output, leaseFields)
        }
    }
}

/// One lease step, answering the booking.
protocol LeaseStep: RecordStep {}

extension LeaseStep {
    static var idField: String { "bookingId" }
    static var fields: [Column] { leaseFields }
}

struct LeasesConfirm: LeaseStep {
    static let configuration = CommandConfiguration(
        commandName: "confirm", abstract: "Confirm a requested lease; its deposit is billed (lessor): Rentals.ConfirmBooking.")
    static let rpc = "souk.v1.Rentals/ConfirmBooking"
    @Argument(help: "The booking's id.") var id: String
    @Option(name: .long, help: "When the deposit is due (YYYY-MM-DD; default the marketplace's).") var depositDue: String?
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    var extra: [String: Any] { get throws { try depositDue.map { ["depositDueDate": try calendarDate($0)] } ?? [:] } }
}

struct LeasesDecline: LeaseStep, ReasonStep {
    static let configuration = CommandConfiguration(commandName: "decline", abstract: "Decline a requested lease (lessor): Rentals.DeclineBooking.")
    static let rpc = "souk.v1.Rentals/DeclineBooking"
    @Argument(help: "The booking's id.") var id: String
    @Option(name: .long, help: "Why (the lessee is told).") var reason: String = ""
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
}

struct LeasesCancel: LeaseStep, ReasonStep {
    static let configuration = CommandConfiguration(commandName: "cancel", abstract: "Cancel a lease before it starts (lessee, lessor, admin): Rentals.CancelBooking.")
    static let rpc = "souk.v1.Rentals/CancelBooking"
    @Argument(help: "The booking's id.") var id: String
    @Option(name: .long, help: "Why.") var reason: String = ""
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
}

struct LeasesEnd: LeaseStep, ReasonStep {
    static let configuration = CommandConfiguration(commandName: "end", abstract: "End an active lease (lessor, admin): Rentals.EndLease.")
    static let rpc = "souk.v1.Rentals/EndLease"
    @Argument(help: "The booking's id.") var id: String
    @Option(name: .long, help: "Why.") var reason: String = ""
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
}

// MARK: Administration

struct Approvals: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Admin approvals: pending roles (providers, couriers, Dashers, admins) and restaurants; approve or reject them.",
        discussion: """
              souk approvals roles
              souk approvals approve-role ACCOUNT_ID courier
              souk approvals reject-role ACCOUNT_ID provider --reason 'No licence'
              souk approvals restaurants
              souk approvals approve-restaurant RESTAURANT_ID
            """,
        subcommands: [PendingRoles.self, ApproveRole.self, RejectRole.self, PendingRestaurants.self, ApproveRestaurant.self, RejectRestaurant.self],
        defaultSubcommand: PendingRoles.self)
}

struct PendingRoles: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "roles", abstract: "Accounts with a pending role (provider, courier, admin): Accounts.ListAccounts.")
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var page: PageOptions
    @Option(name: .long, help: "Only this role (provider, courier, admin).") var role: String?
    func run() async throws {
        try await withClient(connection, output, profile: true) { client in
            // The server lists pending grants one role at a time.
            let roles = role.map { [enumName($0, prefix: "ROLE_")] } ?? ["ROLE_PROVIDER", "ROLE_COURIER", "ROLE_ADMIN"]
            var accounts: [[String: Any]] = []
            var seen = Set<String>()
            for role in roles {
                var request: [String: Any] = ["roleStatus": "ROLE_STATUS_PENDING", "role": role]
                page.apply(&request, sortable: false)
                for account in try await client.object("souk.v1.Accounts/ListAccounts", request)["accounts"] as? [[String: Any]] ?? [] {
                    if seen.insert(account["id"] as? String ?? "").inserted { accounts.append(account) }
                }
            }
            if output.json {
                try printJSONObject(["accounts": accounts])
                return
            }
            var rows: [[String]] = []
            for account in accounts {
                for grant in account["roles"] as? [[String: Any]] ?? [] where grant["status"] as? String == "ROLE_STATUS_PENDING" {
                    rows.append([format(account["id"]), format(account["email"]), format(account["givenName"]), shortEnum(grant["role"]), format(grant["requestTime"])])
                }
            }
            printTable(["ACCOUNT", "EMAIL", "NAME", "ROLE", "REQUESTED"], rows)
        }
    }
}

struct ApproveRole: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "approve-role", abstract: "Approve an account's pending role: Accounts.ApproveRole.")
    @Argument(help: "The account's id.") var accountId: String
    @Argument(help: "The role: provider, courier or admin.") var role: String
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    func run() async throws {
        try await withClient(connection, output, profile: true) { client in
            try await client.show("souk.v1.Accounts/ApproveRole", ["accountId": accountId, "role": enumName(role, prefix: "ROLE_")], output, accountFields)
        }
    }
}

struct RejectRole: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "reject-role", abstract: "Reject an account's pending role: Accounts.RejectRole.")
    @Argument(help: "The account's id.") var accountId: String
    @Argument(help: "The role: provider, courier or admin.") var role: String
    @Option(name: .long, help: "Why (shown to the account).") var reason: String = ""
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    func run() async throws {
        try await withClient(connection, output, profile: true) { client in
            try await client.show(
                "souk.v1.Accounts/RejectRole", ["accountId": accountId, "role": enumName(role, prefix: "ROLE_"), "reason": reason], output, accountFields)
        }
    }
}

let accountFields = [
    Column("id", "id"), Column("email", "email"), Column("given name", "givenName"), Column("family name", "familyName"), Column("state", "state"),
    Column("roles", "roles"), Column("block reason", "blockReason"),
]

let restaurantFields = [
    Column("id", "id"), Column("name", "name"), Column("approval", "approvalState"), Column("reason", "rejectionReason"), Column("open", "open"),
]

struct PendingRestaurants: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "restaurants", abstract: "Restaurants awaiting approval: Catalog.ListRestaurants.")
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    func run() async throws {
        try await withClient(connection, output, profile: true) { client in
            try await client.list(
                "souk.v1.Catalog/ListRestaurants", ["approvalStates": ["RESTAURANT_APPROVAL_STATE_PENDING"]], output, key: "restaurants", unwrap: "restaurant",
                [Column("ID", "id"), Column("NAME", "name"), Column("OWNER", "ownerAccountId"), Column("CREATED", "createTime")])
        }
    }
}

struct ApproveRestaurant: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "approve-restaurant", abstract: "Approve a restaurant: Catalog.ApproveRestaurant.")
    @Argument(help: "The restaurant's id.") var restaurantId: String
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    func run() async throws {
        try await withClient(connection, output, profile: true) { client in
            try await client.show("souk.v1.Catalog/ApproveRestaurant", ["restaurantId": restaurantId], output, restaurantFields)
        }
    }
}

struct RejectRestaurant: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "reject-restaurant", abstract: "Reject a restaurant: Catalog.RejectRestaurant.")
    @Argument(help: "The restaurant's id.") var restaurantId: String
    @Option(name: .long, help: "Why (shown to the owner).") var reason: String
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    func run() async throws {
        try await withClient(connection, output, profile: true) { client in
            try await client.show("souk.v1.Catalog/RejectRestaurant", ["restaurantId": restaurantId, "reason": reason], output, restaurantFields)
        }
    }
}

struct Block: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Block an account (admin): Accounts.BlockAccount; its sessions end and it cannot sign in.",
        discussion: "Undo with `souk unblock ACCOUNT_ID`.")
    @Argument(help: "The account's id.") var accountId: String
    @Option(name: .long, help: "Why (kept on the account).") var reason: String
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    func run() async throws {
        try await withClient(connection, output, profile: true) { client in
            try await client.show("souk.v1.Accounts/BlockAccount", ["accountId": accountId, "reason": reason], output, accountFields)
        }
    }
}

struct Unblock: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Unblock an account (admin): Accounts.UnblockAccount.")
    @Argument(help: "The account's id.") var accountId: String
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    func run() async throws {
        try await withClient(connection, output, profile: true) { client in
            try await client.show("souk.v1.Accounts/UnblockAccount", ["accountId": accountId], output, accountFields)
        }
    }
}

struct Settings: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "A marketplace's settings: get them, or set some fields (admin, operator).",
        subcommands: [SettingsGet.self, SettingsSet.self], defaultSubcommand: SettingsGet.self)
}

struct SettingsGet: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get", abstract: "Print the marketplace's settings as JSON (Marketplaces.GetMarketplace), or one of them by path.",
        discussion: "  souk settings get\n  souk settings get accounts.lockout_attempts")
    @Argument(help: "A dotted path in proto or JSON names (all settings when left out).") var path: String?
    @OptionGroup var connection: ConnectionOptions
    func run() async throws {
        try await withClient(connection, jsonErrors: false) { client in
            guard !client.marketplaceId.isEmpty else { throw CLIError("no marketplace: sign in to one or give --marketplace") }
            let marketplace = try parseObject(try await client.unaryJSON("souk.v1.Marketplaces/GetMarketplace", Array("{}".utf8)))
            var settings: Any? = marketplace["settings"] ?? [String: Any]()
            if let path {
                for key in path.split(separator: ".") { settings = (settings as? [String: Any])?[lowerCamel(String(key))] }
            }
            guard let settings else { throw CLIError("no setting \(path ?? "") (unset settings are at their defaults; see `souk describe souk.v1.MarketplaceSettings`)") }
            if settings is [String: Any] || settings is [Any] {
                try printJSONObject(settings)
            } else {
                let data = try JSONSerialization.data(withJSONObject: [settings])
                emit(String(String(decoding: data, as: UTF8.self).dropFirst().dropLast()))
            }
        }
    }
}

struct SettingsSet: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set", abstract: "Set settings by path (Marketplaces.UpdateMarketplaceSettings with a field mask of exactly those paths).",
        discussion: """
            Each PATH=VALUE names one setting by its dotted path; VALUE is JSON (a number, true, "text", \
            an object), or plain text. Only the given paths change.

              souk settings set accounts.lockout_attempts=7 commerce.tax_rate_basis_points=600
            """)
    @Argument(help: "PATH=VALUE pairs.") var assignments: [String]
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    func run() async throws {
        try await withClient(connection, output, profile: true) { client in
            var settings: [String: Any] = [:]
            var mask: [String] = []
            for assignment in assignments {
                guard let equals = assignment.firstIndex(of: "=") else { throw CLIError("expected PATH=VALUE, got \"\(assignment)\"") }
                let path = assignment[..<equals].split(separator: ".").map { String($0) }
                let text = String(assignment[assignment.index(after: equals)...])
                let parsed = (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])) ?? text
                settings = setting(settings, path[...], parsed)
                mask.append(path.map(lowerCamel).joined(separator: "."))
            }
            try await client.show(
                "souk.v1.Marketplaces/UpdateMarketplaceSettings", ["settings": settings, "updateMask": mask.joined(separator: ",")], output,
                [Column("id", "id"), Column("name", "displayName"), Column("updated", "updateTime")])
        }
    }

    private func setting(_ object: [String: Any], _ path: ArraySlice<String>, _ value: Any) -> [String: Any] {
        var object = object
        guard let first = path.first else { return object }
        if path.count == 1 {
            object[first] = value
        } else {
            object[first] = setting(object[first] as? [String: Any] ?? [:], path.dropFirst(), value)
        }
        return object
    }
}

/// proto name to JSON name (`lockout_attempts` to `lockoutAttempts`); JSON names stay as they are.
func lowerCamel(_ name: String) -> String {
    var result = ""
    var upper = false
    for character in name {
        if character == "_" { upper = true; continue }
        result += upper ? character.uppercased() : String(character)
        upper = false
    }
    return result
}
