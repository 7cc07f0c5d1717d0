import Foundation
import SoukKit
import SoukMessages
import SoukNotifications
import SoukStore
import Testing

/// Push payloads stay within APNs' and FCM's limits, cutting a long body at a character
/// boundary; every notification text has its three languages.
@Suite struct PushPayloadTests {
    static let fields = PushPayload.Fields(
        notificationID: "01900000-0000-7000-8000-000000000001", kind: .order,
        subject: SoukV1.ResourceRef(type: .order, id: "01900000-0000-7000-8000-000000000002"),
        collapseID: "order-01900000-0000-7000-8000-000000000002", badge: 12, expireUnixSeconds: 1_800_000_000)

    static let longBodies = [
        String(repeating: "تم توصيل طلبك إلى الباب، شكرًا لاستخدامك تطبيقنا. ", count: 120),
        String(repeating: "Đơn hàng của bạn đã được giao tận cửa, cảm ơn bạn đã sử dụng ứng dụng. ", count: 120),
        // Decomposed Vietnamese: a base letter and combining marks make one character.
        String(repeating: "Vie\u{0323}\u{0302}t Nam ", count: 700),
        String(repeating: "👩‍👩‍👧‍👦", count: 600),
    ]

    @Test(arguments: [SoukV1.DevicePlatform.apns, .fcm])
    func aLongBodyIsCutOnACharacterBoundaryWithinTheLimit(platform: SoukV1.DevicePlatform) throws {
        for body in Self.longBodies {
            let made = PushPayload.make(platform: platform, title: "Order 42 delivered", body: body, fields: Self.fields)
            #expect(made.payload.utf8.count <= PushPayload.limit(of: platform))
            #expect(made.payload.utf8.count > PushPayload.limit(of: platform) - 64, "the cut keeps as much of the body as fits")
            #expect(made.body.hasSuffix("…"))
            let kept = String(made.body.dropLast())
            #expect(body.hasPrefix(kept) && Array(body).starts(with: Array(kept)), "a whole-character prefix of the body")
            // The payload is JSON that reads back with the body it carries.
            let object = try JSONSerialization.jsonObject(with: Data(made.payload.utf8)) as? [String: Any]
            let carried = platform == .fcm
                ? object?["body"] as? String
                : ((object?["aps"] as? [String: Any])?["alert"] as? [String: Any])?["body"] as? String
            #expect(carried == made.body)
        }
    }

    @Test func aShortBodyIsSentWhole() {
        let made = PushPayload.make(platform: .apns, title: "Bill paid \"now\"", body: "Line\none\\", fields: Self.fields)
        #expect(made.body == "Line\none\\" && made.title == "Bill paid \"now\"")
        #expect(made.payload.contains(#""body":"Line\none\\""#))
        #expect(made.payload.contains(#""thread-id":"order-01900000-0000-7000-8000-000000000002""#))
    }

    @Test func collapseIDsNameTheSubject() {
        let order = SoukV1.ResourceRef(type: .order, id: "01900000-0000-7000-8000-000000000002")
        let first = PushPayload.collapseID(order, notificationID: RecordID.generate())
        #expect(first == PushPayload.collapseID(order, notificationID: RecordID.generate()))
        #expect(first == "order-01900000-0000-7000-8000-000000000002")
        #expect(first.utf8.count <= PushPayload.maxCollapseIDBytes)
        #expect(PushPayload.collapseID(SoukV1.ResourceRef(type: .delivery, id: order.id), notificationID: RecordID.generate()) != first)
    }

    @Test func textsAreRenderedPerLanguage() {
        let text = NotificationText.foodOrderOnTheWay(number: "1042")
        #expect(text.rendered(in: .english) == ("Order 1042 is on the way", "A driver picked up order 1042."))
        #expect(text.rendered(in: .arabic).title == "الطلب 1042 في الطريق")
        #expect(text.rendered(in: .vietnamese).title == "Đơn hàng 1042 đang được giao")
        let offer = NotificationText.orderOfferExpired(number: "7", reoffered: true)
        #expect(offer.rendered(in: .english).body == "The driver did not answer in time; order 7 was offered to the next nearest driver.")
        for language in ErrorLanguage.allCases {
            let (title, body) = NotificationText.jobStage(position: 4, stage: "Laundry in Washer", confirmPrice: false).rendered(in: language)
            #expect(!title.isEmpty && !body.isEmpty && title.contains("4"))
        }
    }
}
