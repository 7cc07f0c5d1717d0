// One Chateau Du Nox shop journey against a running souk-server, made the way an iOS app built
// with the stock tools makes it: only the code protoc-gen-swift and protoc-gen-grpc-swift-2
// generated from Proto/ (module SoukStockAPI) and the grpc-swift 2 runtime. Nothing of Souk's own
// Swift sources is linked.
//
//   stock-journey --target 127.0.0.1:50051 [--customer EMAIL PASSWORD] [--staff EMAIL PASSWORD]
//
// The defaults are the demo accounts of `souk-server --demo`. Every step checks the typed answer;
// the first failed check ends the run with exit status 1 and says what it expected.
import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import GRPCProtobuf
import SoukStockAPI
import SwiftProtobuf

/// The journey's entry point: parses the arguments, runs the journey, reports.
@main
struct StockJourney {
    static func main() async {
        do {
            let options = try Options(CommandLine.arguments.dropFirst())
            try await run(options)
            print("stock-journey: OK")
        } catch {
            FileHandle.standardError.write(Data("stock-journey: FAILED: \(error)\n".utf8))
            exit(1)
        }
    }

    static func run(_ options: Options) async throws {
        let transport = try HTTP2ClientTransport.Posix(
            target: .ipv4(address: options.host, port: options.port), transportSecurity: .plaintext)
        try await withGRPCClient(transport: transport) { client in
            try await Journey(client: client, options: options).run()
        }
    }
}

/// The command line: the server's address and the two parties' credentials.
struct Options {
    var host = "127.0.0.1"
    var port = 50051
    var customer = (email: "customer@chateaudunox.example", password: "Chateau-customer-2026")
    var staff = (email: "sommelier@chateaudunox.example", password: "Chateau-provider-2026")

    init<S: Sequence>(_ arguments: S) throws where S.Element == String {
        var rest = Array(arguments)[...]
        func next(_ flag: String) throws -> String {
            guard let value = rest.popFirst() else { throw Failure("\(flag) needs a value") }
            return value
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "--target":
                let target = try next(flag)
                guard let colon = target.lastIndex(of: ":"), let port = Int(target[target.index(after: colon)...])
                else { throw Failure("--target is HOST:PORT, got \(target)") }
                host = String(target[..<colon])
                self.port = port
            case "--customer": customer = (try next(flag), try next(flag))
            case "--staff": staff = (try next(flag), try next(flag))
            default: throw Failure("unknown argument \(flag); usage: stock-journey --target HOST:PORT [--customer EMAIL PASSWORD] [--staff EMAIL PASSWORD]")
            }
        }
    }
}

/// A failed check or a usage error, with what was expected.
struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Fails the journey with `message` unless `condition` holds.
func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    if !condition { throw Failure(message()) }
}

/// The steps, each on the generated clients of one connection.
struct Journey<Transport: ClientTransport> {
    let marketplaces: Souk_V1_Marketplaces.Client<Transport>
    let accounts: Souk_V1_Accounts.Client<Transport>
    let catalog: Souk_V1_Catalog.Client<Transport>
    let carts: Souk_V1_Carts.Client<Transport>
    let orders: Souk_V1_Orders.Client<Transport>
    let options: Options

    init(client: GRPCClient<Transport>, options: Options) {
        marketplaces = Souk_V1_Marketplaces.Client(wrapping: client)
        accounts = Souk_V1_Accounts.Client(wrapping: client)
        catalog = Souk_V1_Catalog.Client(wrapping: client)
        carts = Souk_V1_Carts.Client(wrapping: client)
        orders = Souk_V1_Orders.Client(wrapping: client)
        self.options = options
    }

    /// A unary call's deadline: generous on a loaded machine; no step waits on it.
    static var callOptions: CallOptions {
        var options = CallOptions.defaults
        options.timeout = .seconds(20)
        return options
    }

    func step(_ text: String) { print("stock-journey: \(text)") }

    func run() async throws {
        // A guest finds the shop by its slug, as the app does on its first start.
        let found = try await marketplaces.listMarketplaces(
            .with { $0.slug = "chateau-du-nox" }, options: Self.callOptions)
        try expect(found.marketplaces.count == 1, "one marketplace with slug chateau-du-nox, got \(found.marketplaces.count)")
        let shop = found.marketplaces[0]
        try expect(shop.vertical == .retail && shop.currencyCode == "MYR", "Chateau Du Nox is a retail shop in MYR: \(shop)")
        let mp = shop.id
        step("marketplace \(shop.displayName) \(mp)")

        // Both parties sign in.
        let customer = try await signIn(mp, options.customer)
        let staff = try await signIn(mp, options.staff)
        try expect(customer.account.id != staff.account.id, "two different accounts")
        step("signed in as \(customer.account.email) and \(staff.account.email)")

        // The guest catalog: by name, in stock, and a word search.
        let wines = try await catalog.listProducts(
            .with { $0.marketplaceID = mp; $0.pageSize = 100 }, options: Self.callOptions).products
        let names = wines.map(\.name)
        try expect(names.contains("Barbera d'Alba"), "the demo cellar lists Barbera d'Alba: \(names)")
        try expect(wines.allSatisfy { $0.available && $0.stock > 0 && !$0.archived }, "a guest sees only wines to buy")
        let byPrice = try await catalog.listProducts(
            .with { $0.marketplaceID = mp; $0.pageSize = 100; $0.orderBy = "price desc" }, options: Self.callOptions).products
        let prices = byPrice.map(\.price.amountMinor)
        try expect(!prices.isEmpty && prices == prices.sorted(by: >), "order_by \"price desc\" sorts by price: \(prices)")
        let searched = try await catalog.searchProducts(
            .with { $0.marketplaceID = mp; $0.query = "chateau" }, options: Self.callOptions).products
        try expect(searched.map(\.name) == ["Château Margaux Pavillon Rouge"], "search chateau: \(searched.map(\.name))")
        guard let wine = wines.first(where: { $0.name == "Barbera d'Alba" }) else { throw Failure("no Barbera d'Alba") }
        try expect(wine.price.currencyCode == "MYR" && wine.stock >= 2, "Barbera d'Alba in MYR with 2 in stock: \(wine)")
        step("browsed \(wines.count) wines; buying \(wine.name) at \(wine.price.amountMinor) \(wine.price.currencyCode)")

        // The cart: starts empty, refuses more than the line cap (the error case), takes two.
        let empty = try await carts.clearCart(.with { $0.marketplaceID = mp }, metadata: customer.metadata, options: Self.callOptions)
        try expect(empty.lines.isEmpty, "a cleared cart has no lines")
        try await expectQuantityLimit(mp, customer, wine)
        let cart = try await carts.addCartLine(.with {
            $0.marketplaceID = mp; $0.requestID = Self.requestID(); $0.itemID = wine.id; $0.quantity = 2
        }, metadata: customer.metadata, options: Self.callOptions)
        try expect(cart.lines.count == 1 && cart.lines[0].itemID == wine.id && cart.lines[0].quantity == 2,
                   "one line of two \(wine.name): \(cart.lines)")
        let price = cart.price
        try expect(price.subtotal.amountMinor == 2 * wine.price.amountMinor, "subtotal is two bottles: \(price)")
        try expect(price.taxRateBps == 2600 && price.tax.amountMinor == (price.subtotal.amountMinor * 26 + 50) / 100,
                   "26 % tax on the subtotal: \(price)")
        try expect(price.fees.map(\.kind) == [.shipping] && price.fees[0].amount.amountMinor == 5990,
                   "one shipping fee of RM 59.90: \(price.fees)")
        try expect(price.total.amountMinor == price.subtotal.amountMinor + price.tax.amountMinor + 5990, "total adds up: \(price)")
        step("cart total \(price.total.amountMinor) \(price.total.currencyCode)")

        // Checkout with a test card to a typed, confirmed address.
        let order = try await orders.checkout(.with {
            $0.marketplaceID = mp
            $0.requestID = Self.requestID()
            $0.expectedCartVersion = cart.version
            $0.address = .with {
                $0.address = .with {
                    $0.recipientName = "Aisyah"; $0.line1 = "12 Jalan Ampang"; $0.city = "Kuala Lumpur"; $0.countryCode = "MY"
                }
            }
            $0.addressConfirmed = true
            $0.payment = .with { $0.cardToken = "tok_visa" }
        }, metadata: customer.metadata, options: Self.callOptions)
        try expect(order.status == .pending && order.paymentStatus == .successful, "a paid order waiting to ship: \(order.status) \(order.paymentStatus)")
        try expect(order.orderNumber.hasPrefix("CDN-") && order.price.total == price.total && order.address.line1 == "12 Jalan Ampang",
                   "the order keeps the cart's total and the address: \(order.orderNumber) \(order.price.total)")
        let after = try await carts.getCart(.with { $0.marketplaceID = mp }, metadata: customer.metadata, options: Self.callOptions)
        try expect(after.lines.isEmpty, "checkout empties the cart")
        step("order \(order.orderNumber) placed")

        try await follow(order, mp: mp, customer: customer, staff: staff)
    }

    /// The customer follows the order with WatchOrder while the shop ships and delivers it; the
    /// customer confirms receipt and the stream ends after that final status.
    func follow(_ order: Souk_V1_Order, mp: String, customer: SignedIn, staff: SignedIn) async throws {
        let (events, sink) = AsyncThrowingStream.makeStream(of: Souk_V1_OrderEvent.self)
        var watchOptions = CallOptions.defaults
        watchOptions.timeout = .seconds(120)
        let watch = Task { [orders] in
            do {
                try await orders.watchOrder(
                    .with { $0.marketplaceID = mp; $0.orderID = order.id }, metadata: customer.metadata, options: watchOptions
                ) { response in
                    for try await event in response.messages { sink.yield(event) }
                }
                sink.finish()
            } catch {
                sink.finish(throwing: error)
            }
        }
        defer { watch.cancel() }
        var incoming = events.makeAsyncIterator()
        func next(_ what: String) async throws -> Souk_V1_OrderEvent {
            guard let event = try await incoming.next() else { throw Failure("the watch ended before \(what)") }
            return event
        }

        let first = try await next("the current order")
        try expect(first.order.id == order.id && first.order.status == .pending && first.sequence >= 1,
                   "the watch starts with the pending order: \(first.order.status) #\(first.sequence)")

        // The other party acts; each change reaches the customer's stream as it commits.
        let shipped = try await orders.shipOrder(.with {
            $0.marketplaceID = mp; $0.orderID = order.id; $0.shippingCarrier = "Pos Laju"
            $0.trackingNumber = "EP123456789MY"; $0.expectedVersion = order.version
        }, metadata: staff.metadata, options: Self.callOptions)
        let shipEvent = try await next("shipping")
        try expect(shipEvent.sequence == first.sequence + 1 && shipEvent.previousStatus == .pending
                   && shipEvent.order.status == .shipped && shipEvent.order.trackingNumber == "EP123456789MY"
                   && shipEvent.actorAccountID == staff.account.id,
                   "the shop's shipping arrives on the stream: \(shipEvent.previousStatus) → \(shipEvent.order.status) by \(shipEvent.actorAccountID)")
        step("watch: \(shipEvent.previousStatus) → \(shipEvent.order.status) (#\(shipEvent.sequence), by the shop)")

        let delivered = try await orders.deliverOrder(.with {
            $0.marketplaceID = mp; $0.orderID = order.id; $0.expectedVersion = shipped.version
        }, metadata: staff.metadata, options: Self.callOptions)
        let deliverEvent = try await next("delivery")
        try expect(deliverEvent.previousStatus == .shipped && deliverEvent.order.status == .delivered,
                   "delivery arrives on the stream: \(deliverEvent.order.status)")
        step("watch: \(deliverEvent.previousStatus) → \(deliverEvent.order.status) (#\(deliverEvent.sequence))")

        let received = try await orders.confirmOrderReceived(.with {
            $0.marketplaceID = mp; $0.orderID = order.id; $0.expectedVersion = delivered.version
        }, metadata: customer.metadata, options: Self.callOptions)
        try expect(received.status == .received && received.receiveTime.seconds >= delivered.deliverTime.seconds,
                   "the customer confirms receipt: \(received.status)")
        let last = try await next("receipt")
        try expect(last.previousStatus == .delivered && last.order.status == .received, "receipt arrives on the stream: \(last.order.status)")
        step("watch: \(last.previousStatus) → \(last.order.status) (#\(last.sequence))")
        let end = try await incoming.next()
        try expect(end == nil, "the watch ends after the final status, got \(String(describing: end))")
        _ = await watch.value
    }

    /// Thirteen bottles are over the line cap of twelve: INVALID_ARGUMENT, with the rich status
    /// (google.rpc.Status in grpc-status-details-bin) naming reason QUANTITY_LIMIT and the field.
    /// The status is read twice: with the google.rpc messages generated from Proto/google/rpc, as
    /// any stock client reads it, and with grpc-swift-protobuf's own unpacking; both must agree.
    func expectQuantityLimit(_ mp: String, _ customer: SignedIn, _ wine: Souk_V1_Product) async throws {
        let error: RPCError
        do {
            _ = try await carts.addCartLine(.with {
                $0.marketplaceID = mp; $0.requestID = Self.requestID(); $0.itemID = wine.id; $0.quantity = 13
            }, metadata: customer.metadata, options: Self.callOptions)
            throw Failure("13 bottles of one wine were accepted")
        } catch let refused as RPCError {
            error = refused
        }
        try expect(error.code == .invalidArgument && error.message.hasPrefix("quantity:"),
                   "INVALID_ARGUMENT naming quantity, got \(error.code): \(error.message)")

        // By hand, with the generated google.rpc messages.
        guard let bytes = error.metadata[binaryValues: "grpc-status-details-bin"].first(where: { _ in true }) else {
            throw Failure("no grpc-status-details-bin in the trailers: \(error.metadata)")
        }
        let status = try Google_Rpc_Status(serializedBytes: bytes)
        try expect(status.code == Int32(RPCError.Code.invalidArgument.rawValue) && status.message == error.message,
                   "the rich status repeats the call's status: \(status.code) \(status.message)")
        var info: Google_Rpc_ErrorInfo?
        var violations: [Google_Rpc_BadRequest.FieldViolation] = []
        var localized: Google_Rpc_LocalizedMessage?
        for detail in status.details {
            if detail.isA(Google_Rpc_ErrorInfo.self) { info = try Google_Rpc_ErrorInfo(unpackingAny: detail) }
            if detail.isA(Google_Rpc_BadRequest.self) { violations += try Google_Rpc_BadRequest(unpackingAny: detail).fieldViolations }
            if detail.isA(Google_Rpc_LocalizedMessage.self) { localized = try Google_Rpc_LocalizedMessage(unpackingAny: detail) }
        }
        guard let info else { throw Failure("no google.rpc.ErrorInfo in \(status.details.map(\.typeURL))") }
        try expect(info.domain == "souk.v1" && info.reason == "QUANTITY_LIMIT" && info.metadata["field"] == "quantity",
                   "ErrorInfo souk.v1 QUANTITY_LIMIT on quantity, got \(info)")
        // The reason names a value of the contract's ErrorReason enum.
        let reason = try Souk_V1_ErrorReason(errorInfoReason: info.reason)
        try expect(reason == .quantityLimit, "\(info.reason) is ErrorReason.quantityLimit, got \(reason)")
        try expect(violations.map(\.field) == ["quantity"], "BadRequest names quantity: \(violations)")
        try expect(!(localized?.message.isEmpty ?? true), "a LocalizedMessage for the user: \(String(describing: localized))")

        // The same through grpc-swift-protobuf's ErrorDetails.
        guard let unpacked = try error.unpackGoogleRPCStatus() else { throw Failure("GRPCProtobuf found no rich status") }
        let reasons = unpacked.details.compactMap { $0.errorInfo?.reason }
        try expect(reasons == [info.reason], "GRPCProtobuf reads the same reason: \(reasons)")
        step("refused 13 bottles: \(error.code), ErrorInfo \(info.domain) \(info.reason), \(localized?.locale ?? "") \"\(localized?.message ?? "")\"")
    }

    /// A signed-in party: its account and the metadata that carries its access token.
    struct SignedIn {
        var account: Souk_V1_Account
        var metadata: Metadata
    }

    func signIn(_ mp: String, _ credentials: (email: String, password: String)) async throws -> SignedIn {
        let session = try await accounts.login(.with {
            $0.marketplaceID = mp; $0.email = credentials.email; $0.password = credentials.password; $0.deviceName = "stock-journey"
        }, options: Self.callOptions)
        try expect(!session.accessToken.isEmpty && session.account.email == credentials.email,
                   "Login gives a token pair for \(credentials.email)")
        return SignedIn(account: session.account, metadata: ["authorization": "Bearer \(session.accessToken)"])
    }

    /// A new idempotency key for a create.
    static func requestID() -> String { UUID().uuidString.lowercased() }
}

extension Souk_V1_ErrorReason {
    /// The value an ErrorInfo reason names (QUANTITY_LIMIT for ERROR_REASON_QUANTITY_LIMIT), by
    /// protoc-gen-swift's naming rule: the enum's prefix dropped, the rest in lower camel case.
    init(errorInfoReason reason: String) throws {
        let words = reason.lowercased().split(separator: "_")
        let swiftName = (words.first.map(String.init) ?? "") + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        guard let value = Self.allCases.first(where: { String(describing: $0) == swiftName }) else {
            throw Failure("ErrorInfo reason \(reason) names no souk.v1.ErrorReason")
        }
        self = value
    }
}
