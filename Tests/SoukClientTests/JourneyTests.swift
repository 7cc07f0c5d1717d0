import Foundation
import SoukClient
import SoukGRPC
import SoukGRPCClient
import SoukMessages
import Testing

/// The day `days` ahead in Aqua Hub's time zone (Asia/Riyadh, UTC+3).
func riyadhDay(_ days: Int) -> SoukV1.Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(secondsFromGMT: 3 * 3600)!
    let day = calendar.date(byAdding: .day, value: days, to: Date())!
    let parts = calendar.dateComponents([.year, .month, .day], from: day)
    return SoukV1.Date(year: Int32(parts.year!), month: Int32(parts.month!), day: Int32(parts.day!))
}

func serviceOrder(_ service: SoukV1.Service, _ window: SoukV1.TimeWindow?, option: SoukV1.ServiceOption? = nil, quantity: Int32 = 1,
                  payment: SoukV1.PaymentMethodInput.Method = .cash(SoukV1.CashOnDelivery())) -> SoukV1.PlaceServiceOrderRequest {
    SoukV1.PlaceServiceOrderRequest(
        serviceID: service.id, option: option.map { .optionID($0.id) }, quantity: quantity, scheduledWindow: window,
        address: SoukV1.AddressChoice(choice: .address(SoukV1.Address(phone: "+966512345699", line1: "King Abdulaziz Road 7", city: "Arar", countryCode: "SA"))),
        payment: SoukV1.PaymentMethodInput(method: payment))
}

func myr(_ minor: Int64) -> SoukV1.Money { SoukV1.Money(amountMinor: minor, currencyCode: "MYR") }

func wineAddress(_ line1: String = "12 Jalan Ampang") -> SoukV1.AddressChoice {
    SoukV1.AddressChoice(choice: .address(SoukV1.Address(recipientName: "Aisyah", line1: line1, city: "Kuala Lumpur", countryCode: "MY")))
}

/// Runs `call`, which must fail with a `SoukError`, and returns it.
func refusal<T>(_ call: () async throws -> T) async -> SoukError? {
    do {
        _ = try await call()
        Issue.record("the call succeeded")
        return nil
    } catch let error as SoukError {
        return error
    } catch {
        Issue.record("not a SoukError: \(error)")
        return nil
    }
}

@Suite("The Swift client against souk-server --demo", .serialized, .timeLimit(.minutes(2)), .enabled(if: soukServerBinary != nil, "souk-server is not built"))
struct JourneyTests {
    @Test("Aqua Hub: services in Arabic and English, orders, approval, rescheduling, a staff delivery, cash, feedback")
    func aquaHubJourney() async throws {
        try await withServer { server in
            let channel = server.channel()
            defer { Task { await channel.close() } }
            let marketplaceID = try server.login("Aqua Hub", "customer").marketplaceID
            let customer = try await server.session("Aqua Hub", "customer", over: channel).client
            let admin = try await server.session("Aqua Hub", "admin", over: channel).client
            let courierSession = try await server.session("Aqua Hub", "courier", over: channel)
            let courier = courierSession.client
            let courierID = try #require(await courierSession.account).id
            let guest = SoukClient(channel: channel, marketplaceID: marketplaceID)

            var arabicOptions = CallOptions()
            arabicOptions.metadata.add("accept-language", "ar")
            let arabic = try await guest.catalog.listServices(options: arabicOptions).services
            let english = try await guest.catalog.listServices().services
            #expect(Set(english.map(\.name)).isSuperset(of: ["Safi Water", "Tank Cleaning", "HydroFix"]))
            let arabicNames = Set(arabic.compactMap { $0.localized?.name })
            #expect(arabicNames.isSuperset(of: ["مياه صافي", "تنظيف الخزانات", "خدمات السباكة"]))
            let water = try #require(english.first { $0.name == "Safi Water" })
            #expect(water.options.map { $0.price?.amountMinor } == [300, 1500, 2500])
            let cleaning = try #require(english.first { $0.name == "Tank Cleaning" })
            #expect(cleaning.requiresApproval && cleaning.basePrice?.amountMinor == 5000)

            let windows = try await customer.orders.listServiceWindows(SoukV1.ListServiceWindowsRequest(date: riyadhDay(1))).windows
            #expect(windows.count == 5 && windows.allSatisfy { $0.available && $0.capacity == 3 })

            // A 12-pack, cash on delivery: approved at once (request_id filled by the client).
            let bottles = try await customer.orders.placeServiceOrder(serviceOrder(water, windows[0].window, option: water.options[2], quantity: 2))
            #expect(bottles.status == .approved && bottles.price?.total?.amountMinor == 5000 && bottles.paymentStatus == .pending)

            // Tank cleaning waits for the admin, who approves it; the customer moves it.
            var job = try await customer.orders.placeServiceOrder(serviceOrder(cleaning, windows[1].window))
            #expect(job.status == .pending)
            job = try await admin.orders.approveOrder(SoukV1.ApproveOrderRequest(orderID: job.id))
            #expect(job.status == .approved)
            job = try await customer.orders.rescheduleOrder(
                SoukV1.RescheduleOrderRequest(orderID: job.id, scheduledWindow: windows[2].window, reason: "At work until noon", expectedVersion: job.version))
            #expect(job.scheduledWindow == windows[2].window)

            // The admin assigns the demo courier, who starts and completes; the admin confirms the cash.
            let delivery = try await admin.deliveries.assignDelivery(SoukV1.AssignDeliveryRequest(orderID: job.id, courierAccountID: courierID))
            #expect(delivery.status == .assigned)
            let again = await refusal { try await admin.deliveries.assignDelivery(SoukV1.AssignDeliveryRequest(orderID: job.id, courierAccountID: courierID)) }
            #expect(again?.code == .failedPrecondition && again?.reason == .deliveryOpen)
            let started = try await courier.deliveries.startDelivery(SoukV1.StartDeliveryRequest(deliveryID: delivery.id))
            #expect(started.status == .inProgress && started.dispatchTime != nil)
            let done = try await courier.deliveries.completeDelivery(SoukV1.CompleteDeliveryRequest(deliveryID: delivery.id))
            #expect(done.status == .completed)
            let payment = try await admin.payments.confirmCashPayment(SoukV1.ConfirmCashPaymentRequest(paymentID: job.paymentID))
            #expect(payment.status == .successful && payment.collectedByAccountID == courierID)

            // Five stars, answered by the admin; a second rating is refused.
            let entry = try await customer.feedback.createFeedback(SoukV1.CreateFeedbackRequest(subject: .orderID(job.id), stars: 5, comment: "Spotless tank"))
            #expect(entry.ratedAccountID == courierID)
            let twice = await refusal { try await customer.feedback.createFeedback(SoukV1.CreateFeedbackRequest(subject: .orderID(job.id), stars: 4)) }
            #expect(twice?.code == .alreadyExists && twice?.reason == .alreadyRated)
            let answered = try await admin.feedback.answerFeedback(SoukV1.AnswerFeedbackRequest(feedbackID: entry.id, text: "شكراً لك! Thank you!"))
            #expect(answered.answer?.text.hasPrefix("شكراً") == true)

            // An Apple Pay cleaning rejected by the admin: cancelled and refunded.
            var rejected = try await customer.orders.placeServiceOrder(serviceOrder(cleaning, windows[3].window, payment: .applePayToken("applepay_e2e_0123456789")))
            #expect(rejected.paymentStatus == .successful)
            rejected = try await admin.orders.rejectOrder(SoukV1.RejectOrderRequest(orderID: rejected.id, reason: "The tank is not reachable by our truck"))
            #expect(rejected.status == .cancelled && rejected.paymentStatus == .refunded)

            // The last window fills up; the fourth order is refused.
            for _ in 0..<3 {
                _ = try await customer.orders.placeServiceOrder(serviceOrder(water, windows[4].window, option: water.options[0]))
            }
            let full = await refusal { try await customer.orders.placeServiceOrder(serviceOrder(water, windows[4].window, option: water.options[0])) }
            #expect(full?.code == .failedPrecondition && full?.reason == .windowFull)
        }
    }

    @Test("Chateau Du Nox: a guest browses; a customer fills a cart, checks out with a card; the shop ships and delivers")
    func chateauDuNoxJourney() async throws {
        try await withServer { server in
            let channel = server.channel()
            defer { Task { await channel.close() } }
            let marketplaceID = try server.login("Chateau Du Nox", "customer").marketplaceID
            let guest = SoukClient(channel: channel, marketplaceID: marketplaceID)
            let staff = try await server.session("Chateau Du Nox", "provider", over: channel).client
            let customerSession = try await server.session("Chateau Du Nox", "customer", over: channel)
            let customer = customerSession.client

            let wines = try await guest.catalog.listProducts(SoukV1.ListProductsRequest(pageSize: 100)).products
            #expect(wines.contains { $0.name == "Barbera d'Alba" })
            let cheap = try await guest.catalog.listProducts(
                SoukV1.ListProductsRequest(pageSize: 100, filter: SoukV1.ProductFilter(maxPrice: myr(20000)), orderBy: "price")).products
            let prices = cheap.compactMap { $0.price?.amountMinor }
            #expect(!cheap.isEmpty && prices == prices.sorted() && prices.allSatisfy { $0 <= 20000 })
            let found = try await guest.catalog.searchProducts(SoukV1.SearchProductsRequest(query: "chateau")).products
            #expect(found.map(\.name) == ["Château Margaux Pavillon Rouge"])
            let noCart = await refusal { try await guest.carts.addCartLine(SoukV1.AddCartLineRequest(itemID: wines[0].id, quantity: 1)) }
            #expect(noCart?.code == .unauthenticated)

            let barbera = try await staff.catalog.createProduct(SoukV1.CreateProductRequest(
                product: SoukV1.Product(name: "Journey Barbera", category: .red, price: myr(8990), stock: 40, available: true)))
            let tooMany = await refusal { try await customer.carts.addCartLine(SoukV1.AddCartLineRequest(itemID: barbera.id, quantity: 13)) }
            #expect(tooMany?.reason == .quantityLimit && tooMany?.violation(of: "quantity") != nil)
            let cart = try await customer.carts.addCartLine(SoukV1.AddCartLineRequest(itemID: barbera.id, quantity: 3))
            #expect(cart.price?.subtotal?.amountMinor == 26970)

            let order = try await customer.orders.checkout(SoukV1.CheckoutRequest(
                address: wineAddress("99 Jalan Office"), addressConfirmed: true, payment: SoukV1.PaymentMethodInput(method: .cardToken("tok_visa"))))
            #expect(order.status == .pending && order.paymentStatus == .successful && order.orderNumber.hasPrefix("CDN-"))
            #expect(try await customer.carts.getCart().lines.isEmpty)

            let notMine = await refusal { try await customer.orders.shipOrder(SoukV1.ShipOrderRequest(orderID: order.id)) }
            #expect(notMine?.code == .permissionDenied)
            let shipped = try await staff.orders.shipOrder(SoukV1.ShipOrderRequest(orderID: order.id, shippingCarrier: "Pos Laju", trackingNumber: "EP123456789MY"))
            #expect(shipped.status == .shipped)
            let delivered = try await staff.orders.deliverOrder(SoukV1.DeliverOrderRequest(orderID: order.id))
            #expect(delivered.status == .delivered)
            let received = try await customer.orders.confirmOrderReceived(SoukV1.ConfirmOrderReceivedRequest(orderID: order.id))
            #expect(received.status == .received)

            // A declined card leaves the cart as it was.
            let wine = try await staff.catalog.createProduct(SoukV1.CreateProductRequest(
                product: SoukV1.Product(name: "Decline Shiraz", category: .red, price: myr(12900), stock: 5, available: true)))
            let before = try await customer.carts.addCartLine(SoukV1.AddCartLineRequest(itemID: wine.id, quantity: 2))
            let declined = await refusal {
                try await customer.orders.checkout(SoukV1.CheckoutRequest(
                    address: wineAddress(), addressConfirmed: true, payment: SoukV1.PaymentMethodInput(method: .cardToken("tok_decline"))))
            }
            #expect(declined?.code == .failedPrecondition && declined?.reason == .paymentDeclined)
            #expect(try await customer.carts.getCart() == before)
        }
    }

    @Test("Streams of both directions: an avatar uploaded in chunks (client stream) and downloaded (server stream)")
    func uploadAndDownload() async throws {
        try await withServer { server in
            let channel = server.channel()
            defer { Task { await channel.close() } }
            let customer = try await server.session("Aqua Hub", "customer", over: channel).client
            let picture: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            let media = try await customer.media.uploadMedia { requests in
                try await requests.send(SoukV1.UploadMediaRequest(part: .metadata(SoukV1.UploadMediaMetadata(
                    requestID: UUID().uuidString, contentType: "image/png", sizeBytes: Int64(picture.count), fileName: "me.png", purpose: .avatar))))
                try await requests.send(SoukV1.UploadMediaRequest(part: .chunk(Array(picture[..<1000]))))
                try await requests.send(SoukV1.UploadMediaRequest(part: .chunk(Array(picture[1000...]))))
            }
            #expect(media.sizeBytes == Int64(picture.count))

            var downloaded: [UInt8] = []
            var described: SoukV1.MediaObject?
            for try await response in customer.media.downloadMedia(SoukV1.DownloadMediaRequest(mediaID: media.id)) {
                switch response.part {
                case .media(let object): described = object
                case .chunk(let bytes): downloaded += bytes
                case nil: break
                }
            }
            #expect(described?.id == media.id && downloaded == picture)
        }
    }

    @Test("A bidirectional stream: a customer watches a support conversation and sees the admin's answer")
    func conversationWatch() async throws {
        try await withServer { server in
            let channel = server.channel()
            defer { Task { await channel.close() } }
            let customer = try await server.session("Aqua Hub", "customer", over: channel).client
            let adminSession = try await server.session("Aqua Hub", "admin", over: channel)
            let adminID = try #require(await adminSession.account).id
            let conversation = try await customer.messaging.createConversation(
                SoukV1.CreateConversationRequest(participantAccountIDs: [adminID], firstMessageText: "Is Friday possible?"))

            let answer: SoukV1.Message? = try await customer.messaging.watchConversation { call in
                try await call.send(SoukV1.WatchConversationRequest(conversationID: conversation.id, resumeAfterSequence: conversation.lastSequence))
                _ = try await adminSession.client.messaging.sendMessage(SoukV1.SendMessageRequest(conversationID: conversation.id, text: "Yes, from 8:00"))
                for try await event in call.responses {
                    if case .message(let message) = event.event { return message }
                }
                return nil
            }
            #expect(answer?.text == "Yes, from 8:00" && answer?.senderAccountID == adminID)
        }
    }
}
