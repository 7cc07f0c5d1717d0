import SoukKit

/// What a notification says, as a key with its arguments: `Notifier` renders it in each
/// recipient's language (English, Arabic, Vietnamese: the account's locale) when it stores the
/// notification and writes its pushes. The one place that holds the three languages of every
/// notification text (`rendered(in:)`); a missing translation is a compile error.
///
/// Arguments are the values a text names (order numbers, names, amounts, dates as
/// `YYYY-MM-DD`, reasons written by people), passed on as they are.
public enum NotificationText: Sendable, Hashable {
    /// A date and a time of day in the marketplace's time zone ("2026-11-27", "10:00").
    public struct When: Sendable, Hashable {
        public var date: String
        public var time: String

        public init(date: String, time: String) {
            self.date = date
            self.time = time
        }
    }

    // MARK: Orders of every vertical

    /// A retail order placed and paid.
    case retailOrderPlaced(number: String)
    /// A scheduled water-services order starts tomorrow.
    case orderReminder(number: String, at: When?)
    /// A water-services order placed: confirmed at once (deliveries) or waiting for an admin.
    case serviceOrderPlaced(number: String, confirmed: Bool, service: String, quantity: Int64, at: When)
    case orderRescheduled(number: String, at: When, reason: String)
    case orderApproved(number: String)
    /// Delivery staff assigned to a water-services order.
    case orderAssigned(number: String, at: When?)
    /// A water-services order delivered and completed.
    case serviceOrderCompleted(number: String)
    /// A staff delivery taken back from its courier (to the courier).
    case deliveryCancelled(reason: String)
    /// The delivery of an order cancelled (to the order's parties, its courier, its restaurant).
    case orderDeliveryCancelled(number: String, reason: String)
    case orderCancelled(number: String, rejected: Bool, reason: String)
    case orderShipped(number: String, carrier: String, tracking: String)
    /// A retail order delivered: the customer confirms receipt.
    case orderDelivered(number: String)
    case orderReceived(number: String)
    /// A staff delivery on its way (to the customer).
    case deliveryOnTheWay(number: String)
    /// A staff delivery delayed, with the courier's note.
    case deliveryDelayed(number: String, note: String)
    case feedbackAnswered(answer: String)

    // MARK: Food delivery

    case foodOrderPlaced(number: String, restaurant: String)
    /// A new order for the restaurant.
    case restaurantNewOrder(number: String)
    case foodOrderPreparing(number: String)
    case foodOrderCompleted(number: String)
    case foodOrderOnTheWay(number: String)
    case foodOrderDelivered(number: String)
    /// A delivery offered to a driver (who has until the notification's expire_time).
    case deliveryOffer(number: String, restaurant: String, meters: Int64)
    /// The driver's offer lapsed (to the driver).
    case deliveryOfferExpired(number: String)
    /// The driver's offer lapsed (to the restaurant): offered to the next nearest driver (true),
    /// no other driver available (false), or offer it again (nil).
    case orderOfferExpired(number: String, reoffered: Bool?)
    /// The driver's account was blocked while the offer waited (to the restaurant).
    case orderOfferWithdrawn(number: String, reoffered: Bool?)
    case driverDeclinedOrder(number: String, reason: String)
    case restaurantApproved(restaurant: String, marketplace: String)
    case restaurantRejected(restaurant: String, reason: String)

    // MARK: Rentals

    case bookingRequested(listing: String, months: Int32)
    case bookingConfirmed(listing: String, depositDue: String)
    /// Declined by the lessor (their words), or by the server (`byServer`: another request was
    /// confirmed, the listing archived).
    case bookingDeclined(listing: String, reason: String, byServer: Bool)
    case bookingWithdrawn(listing: String)
    case leaseEnded(listing: String)
    case billIssued(period: String, amount: Int64, currency: String, due: String)
    case billChanged(amount: Int64, currency: String)
    /// A deposit (`period` empty) or a monthly bill past its due date.
    case billOverdue(period: String, amount: Int64, currency: String, due: String)
    case billPaid(deposit: Bool, amount: Int64, share: Int64, currency: String)
    case billRefunded(amount: Int64, currency: String)
    /// The deposit returned: all of it (`amount == paid`), or part of it with the lessor's reason.
    case depositReturned(amount: Int64, paid: Int64, currency: String, reason: String)

    // MARK: Laundry

    case jobAccepted(dasher: String)
    case jobDasherReplaced
    case jobCancelled
    case jobPriceConfirmed
    /// The job reached `stage` (its position 0–9); `confirmPrice`: the final price needs the
    /// customer's confirmation.
    case jobStage(position: Int, stage: String, confirmPrice: Bool)
    case jobNamesDasher
    /// A job offered to the Dasher who asked for work (who has until the notification's
    /// expire_time to accept or deny it).
    case jobOffered
    case jobPaid
    case jobDisputed
    case jobDisputeResolved(resolution: String)

    // MARK: Messages, support and published content

    /// A chat message: its sender's name and the first words (nil: an attachment only, a photo
    /// when `photo`).
    case chatMessage(sender: String, preview: String?, photo: Bool)
    /// An admin answered the caller's support ticket (`excerpt` of the answer, may be empty).
    case supportAnswered(ticket: String, excerpt: String)
    case supportTicketClosed(ticket: String)
    /// An announcement or a policy published by the marketplace's admins: their own words, in the
    /// language they wrote them.
    case published(title: String, summary: String)
}

extension NotificationText {
    /// The title and body in `language`.
    public func rendered(in language: ErrorLanguage) -> (title: String, body: String) {
        let text = texts
        switch language {
        case .english: return text.en
        case .arabic: return text.ar
        case .vietnamese: return text.vi
        }
    }

    private typealias Pair = (title: String, body: String)

    /// Every text in the three languages (English, Arabic, Vietnamese).
    private var texts: (en: Pair, ar: Pair, vi: Pair) {
        switch self {
        case .retailOrderPlaced(let n):
            (("Order \(n) placed", "We received your order and payment; we will tell you when it ships."),
             ("تم تقديم الطلب \(n)", "استلمنا طلبك ودفعتك؛ سنخبرك عند شحنه."),
             ("Đã đặt đơn hàng \(n)", "Chúng tôi đã nhận đơn hàng và thanh toán của bạn; sẽ báo khi đơn được gửi đi."))
        case .orderReminder(let n, let at):
            (("Reminder: order \(n) is tomorrow", "Your order \(n) is scheduled\(at.map { " on \($0.date) at \($0.time)" } ?? "")."),
             ("تذكير: الطلب \(n) غدًا", "طلبك \(n) مجدول\(at.map { " يوم \($0.date) الساعة \($0.time)" } ?? "")."),
             ("Nhắc nhở: đơn hàng \(n) vào ngày mai", "Đơn hàng \(n) của bạn được hẹn\(at.map { " lúc \($0.time) ngày \($0.date)" } ?? "")."))
        case .serviceOrderPlaced(let n, let confirmed, let service, let quantity, let at):
            (("Order \(n) \(confirmed ? "confirmed" : "waiting for approval")",
              "\(service) × \(quantity), scheduled on \(at.date) at \(at.time)."),
             (confirmed ? "تم تأكيد الطلب \(n)" : "الطلب \(n) بانتظار الموافقة",
              "\(service) × \(quantity)، مجدول يوم \(at.date) الساعة \(at.time)."),
             (confirmed ? "Đơn hàng \(n) đã được xác nhận" : "Đơn hàng \(n) đang chờ duyệt",
              "\(service) × \(quantity), hẹn lúc \(at.time) ngày \(at.date)."))
        case .orderRescheduled(let n, let at, let reason):
            (("Order \(n) rescheduled", "Now scheduled on \(at.date) at \(at.time)." + (reason.isEmpty ? "" : " \(reason)")),
             ("تم تغيير موعد الطلب \(n)", "الموعد الجديد يوم \(at.date) الساعة \(at.time)." + (reason.isEmpty ? "" : " \(reason)")),
             ("Đơn hàng \(n) đã đổi lịch", "Lịch mới: lúc \(at.time) ngày \(at.date)." + (reason.isEmpty ? "" : " \(reason)")))
        case .orderApproved(let n):
            (("Order \(n) approved", "Your request was approved."),
             ("تمت الموافقة على الطلب \(n)", "تمت الموافقة على طلبك."),
             ("Đơn hàng \(n) đã được duyệt", "Yêu cầu của bạn đã được duyệt."))
        case .orderAssigned(let n, let at):
            (("Order \(n) assigned", "Delivery staff is assigned to order \(n)\(at.map { " on \($0.date) at \($0.time)" } ?? "")."),
             ("تم إسناد الطلب \(n)", "تم تعيين موظف توصيل للطلب \(n)\(at.map { " يوم \($0.date) الساعة \($0.time)" } ?? "")."),
             ("Đơn hàng \(n) đã được phân công", "Đã có nhân viên giao hàng cho đơn \(n)\(at.map { " lúc \($0.time) ngày \($0.date)" } ?? "")."))
        case .serviceOrderCompleted(let n):
            (("Order \(n) completed", "Your order was delivered. Tell us how it went."),
             ("اكتمل الطلب \(n)", "تم توصيل طلبك. أخبرنا كيف كانت التجربة."),
             ("Đơn hàng \(n) đã hoàn tất", "Đơn hàng của bạn đã được giao. Hãy cho chúng tôi biết trải nghiệm của bạn."))
        case .deliveryCancelled(let reason):
            (("Delivery cancelled", reason),
             ("تم إلغاء التوصيل", reason),
             ("Đã hủy giao hàng", reason))
        case .orderDeliveryCancelled(let n, let reason):
            (("Delivery of order \(n) cancelled", reason),
             ("تم إلغاء توصيل الطلب \(n)", reason),
             ("Đã hủy giao đơn hàng \(n)", reason))
        case .orderCancelled(let n, let rejected, let reason):
            (("Order \(rejected ? "rejected" : "cancelled")", "Order \(n) was \(rejected ? "rejected" : "cancelled")" + (reason.isEmpty ? "." : ": \(reason)")),
             (rejected ? "تم رفض الطلب" : "تم إلغاء الطلب", (rejected ? "تم رفض الطلب \(n)" : "تم إلغاء الطلب \(n)") + (reason.isEmpty ? "." : ": \(reason)")),
             (rejected ? "Đơn hàng bị từ chối" : "Đơn hàng đã bị hủy", "Đơn hàng \(n) \(rejected ? "bị từ chối" : "đã bị hủy")" + (reason.isEmpty ? "." : ": \(reason)")))
        case .orderShipped(let n, let carrier, let tracking):
            (("Order \(n) shipped",
              carrier.isEmpty ? "Your order is on its way." : "Your order is on its way with \(carrier)" + (tracking.isEmpty ? "." : " (tracking \(tracking)).")),
             ("تم شحن الطلب \(n)",
              carrier.isEmpty ? "طلبك في الطريق إليك." : "طلبك في الطريق إليك مع \(carrier)" + (tracking.isEmpty ? "." : " (رقم التتبع \(tracking)).")),
             ("Đơn hàng \(n) đã được gửi đi",
              carrier.isEmpty ? "Đơn hàng đang trên đường đến bạn." : "Đơn hàng đang được \(carrier) giao đến bạn" + (tracking.isEmpty ? "." : " (mã vận đơn \(tracking)).")))
        case .orderDelivered(let n):
            (("Order \(n) delivered", "Your order was delivered. Please confirm you received it."),
             ("تم توصيل الطلب \(n)", "تم توصيل طلبك. يرجى تأكيد الاستلام."),
             ("Đơn hàng \(n) đã được giao", "Đơn hàng đã được giao. Vui lòng xác nhận bạn đã nhận hàng."))
        case .orderReceived(let n):
            (("Order \(n) received", "Thank you for confirming receipt."),
             ("تم استلام الطلب \(n)", "شكرًا لتأكيد الاستلام."),
             ("Đã nhận đơn hàng \(n)", "Cảm ơn bạn đã xác nhận nhận hàng."))
        case .deliveryOnTheWay(let n):
            (("On the way: order \(n)", "Your order is on the way."),
             ("في الطريق: الطلب \(n)", "طلبك في الطريق إليك."),
             ("Đang giao: đơn hàng \(n)", "Đơn hàng đang trên đường đến bạn."))
        case .deliveryDelayed(let n, let note):
            (("Delivery delayed: order \(n)", note.isEmpty ? "Your delivery is delayed." : note),
             ("تأخر التوصيل: الطلب \(n)", note.isEmpty ? "تأخر توصيل طلبك." : note),
             ("Giao hàng bị chậm: đơn hàng \(n)", note.isEmpty ? "Đơn hàng của bạn sẽ được giao trễ." : note))
        case .feedbackAnswered(let answer):
            (("We answered your feedback", answer),
             ("رددنا على ملاحظاتك", answer),
             ("Chúng tôi đã trả lời góp ý của bạn", answer))

        case .foodOrderPlaced(let n, let restaurant):
            (("Order \(n) placed", "\(restaurant) received your order; pay the driver in cash on delivery."),
             ("تم تقديم الطلب \(n)", "استلم \(restaurant) طلبك؛ ادفع للسائق نقدًا عند الاستلام."),
             ("Đã đặt đơn hàng \(n)", "\(restaurant) đã nhận đơn của bạn; thanh toán tiền mặt cho tài xế khi nhận hàng."))
        case .restaurantNewOrder(let n):
            (("New order \(n)", "Accept or reject it."),
             ("طلب جديد \(n)", "اقبله أو ارفضه."),
             ("Đơn hàng mới \(n)", "Hãy nhận hoặc từ chối đơn."))
        case .foodOrderPreparing(let n):
            (("Order \(n) is being prepared", "The restaurant accepted your order and is preparing it."),
             ("يجري تحضير الطلب \(n)", "قبل المطعم طلبك ويقوم بتحضيره."),
             ("Đơn hàng \(n) đang được chuẩn bị", "Nhà hàng đã nhận đơn và đang chuẩn bị món."))
        case .foodOrderCompleted(let n):
            (("Order \(n) completed", "Thank you! You can now rate the restaurant and the driver."),
             ("اكتمل الطلب \(n)", "شكرًا لك! يمكنك الآن تقييم المطعم والسائق."),
             ("Đơn hàng \(n) đã hoàn tất", "Cảm ơn bạn! Giờ bạn có thể đánh giá nhà hàng và tài xế."))
        case .foodOrderOnTheWay(let n):
            (("Order \(n) is on the way", "A driver picked up order \(n)."),
             ("الطلب \(n) في الطريق", "استلم سائق الطلب \(n)."),
             ("Đơn hàng \(n) đang được giao", "Tài xế đã lấy đơn hàng \(n)."))
        case .foodOrderDelivered(let n):
            (("Order \(n) delivered", "Order \(n) was delivered and paid in cash."),
             ("تم توصيل الطلب \(n)", "تم توصيل الطلب \(n) ودفع ثمنه نقدًا."),
             ("Đơn hàng \(n) đã được giao", "Đơn hàng \(n) đã được giao và thanh toán bằng tiền mặt."))
        case .deliveryOffer(let n, let restaurant, let meters):
            (("New delivery offer", "Order \(n) from \(restaurant), \(meters) m away."),
             ("عرض توصيل جديد", "الطلب \(n) من \(restaurant)، على بعد \(meters) م."),
             ("Có đơn giao hàng mới", "Đơn hàng \(n) từ \(restaurant), cách \(meters) m."))
        case .deliveryOfferExpired(let n):
            (("Offer expired", "The offer of order \(n) was not answered in time."),
             ("انتهى العرض", "لم يتم الرد على عرض الطلب \(n) في الوقت المحدد."),
             ("Đơn giao đã hết hạn", "Bạn chưa trả lời đơn giao hàng \(n) kịp thời."))
        case .orderOfferExpired(let n, let reoffered):
            (("Offer of order \(n) expired",
              Self.pick(reoffered, "The driver did not answer in time; order \(n) was offered to the next nearest driver.", "The driver did not answer in time and no other driver is available; offer order \(n) again.", "The driver did not answer in time; offer order \(n) again.")),
             ("انتهى عرض الطلب \(n)",
              Self.pick(reoffered, "لم يرد السائق في الوقت المحدد؛ عُرض الطلب \(n) على أقرب سائق تالٍ.", "لم يرد السائق في الوقت المحدد ولا يوجد سائق آخر متاح؛ اعرض الطلب \(n) مرة أخرى.", "لم يرد السائق في الوقت المحدد؛ اعرض الطلب \(n) مرة أخرى.")),
             ("Lời mời giao đơn \(n) đã hết hạn",
              Self.pick(reoffered, "Tài xế không trả lời kịp; đơn \(n) đã được mời tài xế gần nhất tiếp theo.", "Tài xế không trả lời kịp và không còn tài xế nào khác; hãy mời giao đơn \(n) lại.", "Tài xế không trả lời kịp; hãy mời giao đơn \(n) lại.")))
        case .orderOfferWithdrawn(let n, let reoffered):
            (("Offer of order \(n) withdrawn",
              Self.pick(reoffered, "The driver can no longer take order \(n); it was offered to the next nearest driver.", "The driver can no longer take order \(n) and no other driver is available; offer it again.", "The driver can no longer take order \(n); offer it again.")),
             ("تم سحب عرض الطلب \(n)",
              Self.pick(reoffered, "لم يعد بإمكان السائق أخذ الطلب \(n)؛ عُرض على أقرب سائق تالٍ.", "لم يعد بإمكان السائق أخذ الطلب \(n) ولا يوجد سائق آخر متاح؛ اعرضه مرة أخرى.", "لم يعد بإمكان السائق أخذ الطلب \(n)؛ اعرضه مرة أخرى.")),
             ("Đã rút lời mời giao đơn \(n)",
              Self.pick(reoffered, "Tài xế không thể nhận đơn \(n) nữa; đơn đã được mời tài xế gần nhất tiếp theo.", "Tài xế không thể nhận đơn \(n) nữa và không còn tài xế nào khác; hãy mời giao lại.", "Tài xế không thể nhận đơn \(n) nữa; hãy mời giao lại.")))
        case .driverDeclinedOrder(let n, let reason):
            (("Driver declined order \(n)", (reason.isEmpty ? "" : "\(reason) ") + "Offer order \(n) to another driver."),
             ("رفض السائق الطلب \(n)", (reason.isEmpty ? "" : "\(reason) ") + "اعرض الطلب \(n) على سائق آخر."),
             ("Tài xế đã từ chối đơn \(n)", (reason.isEmpty ? "" : "\(reason) ") + "Hãy mời tài xế khác giao đơn \(n)."))
        case .restaurantApproved(let restaurant, let marketplace):
            (("\(restaurant) is approved", "An admin approved \(restaurant) at \(marketplace): open it when you are ready."),
             ("تمت الموافقة على \(restaurant)", "وافق أحد المشرفين على \(restaurant) في \(marketplace): افتحه عندما تكون مستعدًا."),
             ("\(restaurant) đã được duyệt", "Quản trị viên đã duyệt \(restaurant) trên \(marketplace): hãy mở cửa khi bạn sẵn sàng."))
        case .restaurantRejected(let restaurant, let reason):
            (("\(restaurant) was not approved", "An admin did not approve \(restaurant): \(reason)"),
             ("لم تتم الموافقة على \(restaurant)", "لم يوافق أحد المشرفين على \(restaurant): \(reason)"),
             ("\(restaurant) chưa được duyệt", "Quản trị viên không duyệt \(restaurant): \(reason)"))

        case .bookingRequested(let listing, let months):
            (("New booking request", "A lessee asks to rent \(listing) for \(months) months."),
             ("طلب حجز جديد", "يطلب مستأجر استئجار \(listing) لمدة \(months) أشهر."),
             ("Yêu cầu thuê mới", "Một người thuê muốn thuê \(listing) trong \(months) tháng."))
        case .bookingConfirmed(let listing, let due):
            (("Booking confirmed", "Your lease of \(listing) is confirmed. Pay the deposit by \(due) to start it."),
             ("تم تأكيد الحجز", "تم تأكيد استئجارك لـ \(listing). ادفع التأمين قبل \(due) لبدء العقد."),
             ("Đã xác nhận thuê", "Hợp đồng thuê \(listing) đã được xác nhận. Hãy đóng tiền cọc trước \(due) để bắt đầu."))
        case .bookingDeclined(let listing, let reason, let byServer):
            (("Booking declined",
              byServer ? "Your request for \(listing) was declined: \(reason)." : "The lessor declined your request for \(listing): \(reason)"),
             ("تم رفض الحجز",
              byServer ? "تم رفض طلبك لـ \(listing): \(reason)." : "رفض المؤجر طلبك لـ \(listing): \(reason)"),
             ("Yêu cầu thuê bị từ chối",
              byServer ? "Yêu cầu thuê \(listing) của bạn bị từ chối: \(reason)." : "Chủ nhà đã từ chối yêu cầu thuê \(listing) của bạn: \(reason)"))
        case .bookingWithdrawn(let listing):
            (("Booking withdrawn", "The lessee withdrew the request for \(listing)."),
             ("تم سحب الحجز", "سحب المستأجر طلب \(listing)."),
             ("Yêu cầu thuê đã được rút", "Người thuê đã rút yêu cầu thuê \(listing)."))
        case .leaseEnded(let listing):
            (("Lease ended", "Your lease of \(listing) has ended; the lessor will return the deposit."),
             ("انتهى عقد الإيجار", "انتهى استئجارك لـ \(listing)؛ سيعيد المؤجر التأمين."),
             ("Hợp đồng thuê đã kết thúc", "Hợp đồng thuê \(listing) đã kết thúc; chủ nhà sẽ hoàn lại tiền cọc."))
        case .billIssued(let period, let amount, let currency, let due):
            (("New bill", "Your bill for \(period): \(amount) \(currency), due \(due)."),
             ("فاتورة جديدة", "فاتورتك عن \(period): \(amount) \(currency)، تستحق في \(due)."),
             ("Hóa đơn mới", "Hóa đơn tháng \(period) của bạn: \(amount) \(currency), hạn thanh toán \(due)."))
        case .billChanged(let amount, let currency):
            (("Bill changed", "Your bill now totals \(amount) \(currency)."),
             ("تم تعديل الفاتورة", "أصبح إجمالي فاتورتك \(amount) \(currency)."),
             ("Hóa đơn đã thay đổi", "Tổng hóa đơn của bạn hiện là \(amount) \(currency)."))
        case .billOverdue(let period, let amount, let currency, let due):
            (("Bill overdue", "Your \(period.isEmpty ? "deposit" : "bill for \(period)") of \(amount) \(currency) was due \(due): please pay it."),
             ("فاتورة متأخرة", "\(period.isEmpty ? "التأمين" : "فاتورتك عن \(period)") بمبلغ \(amount) \(currency) كان مستحقًا في \(due): يرجى الدفع."),
             ("Hóa đơn quá hạn", "\(period.isEmpty ? "Tiền cọc" : "Hóa đơn tháng \(period)") \(amount) \(currency) đã đến hạn ngày \(due): vui lòng thanh toán."))
        case .billPaid(let deposit, let amount, let share, let currency):
            ((deposit ? "Deposit paid" : "Bill paid", "\(amount) \(currency) paid; your share is \(share) \(currency)."),
             (deposit ? "تم دفع التأمين" : "تم دفع الفاتورة", "تم دفع \(amount) \(currency)؛ حصتك \(share) \(currency)."),
             (deposit ? "Tiền cọc đã được thanh toán" : "Hóa đơn đã được thanh toán", "Đã thanh toán \(amount) \(currency); phần của bạn là \(share) \(currency)."))
        case .billRefunded(let amount, let currency):
            (("Bill payment refunded", "\(amount) \(currency) of the payment was refunded to the lessee."),
             ("تم استرداد دفعة الفاتورة", "تم رد \(amount) \(currency) من الدفعة إلى المستأجر."),
             ("Đã hoàn tiền hóa đơn", "Đã hoàn \(amount) \(currency) của khoản thanh toán cho người thuê."))
        case .depositReturned(let amount, let paid, let currency, let reason):
            (("Deposit returned",
              amount == paid ? "Your whole deposit was returned." : "\(amount) of your \(paid) \(currency) deposit was returned: \(reason)"),
             ("تمت إعادة التأمين",
              amount == paid ? "تمت إعادة كامل التأمين." : "تمت إعادة \(amount) من تأمينك البالغ \(paid) \(currency): \(reason)"),
             ("Đã hoàn tiền cọc",
              amount == paid ? "Toàn bộ tiền cọc của bạn đã được hoàn lại." : "Đã hoàn \(amount) trên \(paid) \(currency) tiền cọc của bạn: \(reason)"))

        case .jobAccepted(let dasher):
            (("\(dasher.isEmpty ? "A Dasher" : dasher) accepted your laundry job", "Stage 1: Dasher Accepted Request."),
             ("\(dasher.isEmpty ? "أحد الـDashers" : dasher) قبل طلب الغسيل الخاص بك", "المرحلة 1: قبل الـDasher الطلب."),
             ("\(dasher.isEmpty ? "Một Dasher" : dasher) đã nhận đơn giặt của bạn", "Bước 1: Dasher đã nhận yêu cầu."))
        case .jobDasherReplaced:
            (("The customer chose another Dasher", "The job is no longer yours."),
             ("اختار العميل Dasher آخر", "لم يعد هذا الطلب لك."),
             ("Khách hàng đã chọn Dasher khác", "Đơn này không còn là của bạn."))
        case .jobCancelled:
            (("Laundry job cancelled", "The customer cancelled the job."),
             ("تم إلغاء طلب الغسيل", "ألغى العميل الطلب."),
             ("Đơn giặt đã bị hủy", "Khách hàng đã hủy đơn."))
        case .jobPriceConfirmed:
            (("Final price confirmed", "You may bring the laundry back."),
             ("تم تأكيد السعر النهائي", "يمكنك إعادة الغسيل الآن."),
             ("Giá cuối đã được xác nhận", "Bạn có thể mang đồ giặt trả lại."))
        case .jobStage(let position, let stage, let confirmPrice):
            (("Stage \(position): \(stage)",
              confirmPrice ? "The final price is more than twice the estimate: confirm it so the Dasher can bring your laundry back."
                  : "Your laundry job moved to stage \(position)."),
             ("المرحلة \(position): \(Self.arabicStage(position) ?? stage)",
              confirmPrice ? "السعر النهائي أكثر من ضعف التقدير: أكّده ليعيد الـDasher غسيلك."
                  : "انتقل طلب الغسيل الخاص بك إلى المرحلة \(position)."),
             ("Bước \(position): \(Self.vietnameseStage(position) ?? stage)",
              confirmPrice ? "Giá cuối cao hơn gấp đôi giá ước tính: hãy xác nhận để Dasher mang đồ giặt trả lại."
                  : "Đơn giặt của bạn đã chuyển sang bước \(position)."))
        case .jobNamesDasher:
            (("A laundry job names you", "Ask for work to see it."),
             ("طلب غسيل يطلبك بالاسم", "اطلب عملًا لتراه."),
             ("Có đơn giặt chỉ định bạn", "Hãy nhận việc để xem đơn."))
        case .jobOffered:
            (("Laundry job offered", "Accept or deny it before the offer lapses."),
             ("عُرض عليك طلب غسيل", "اقبله أو ارفضه قبل انتهاء العرض."),
             ("Bạn được mời nhận một đơn giặt", "Hãy nhận hoặc từ chối trước khi lời mời hết hạn."))
        case .jobPaid:
            (("Job paid", "The customer paid for the laundry job."),
             ("تم دفع الطلب", "دفع العميل ثمن طلب الغسيل."),
             ("Đơn đã được thanh toán", "Khách hàng đã thanh toán đơn giặt."))
        case .jobDisputed:
            (("Charge disputed", "The customer disputed the charge of a laundry job; an admin will decide."),
             ("اعتراض على المبلغ", "اعترض العميل على مبلغ طلب غسيل؛ سيقرر أحد المشرفين."),
             ("Khiếu nại về phí", "Khách hàng khiếu nại phí của một đơn giặt; quản trị viên sẽ quyết định."))
        case .jobDisputeResolved(let resolution):
            (("Dispute resolved", resolution),
             ("تمت تسوية الاعتراض", resolution),
             ("Khiếu nại đã được giải quyết", resolution))

        case .chatMessage(let sender, let preview?, _):
            ((sender, preview), (sender, preview), (sender, preview))
        case .chatMessage(let sender, nil, true):
            ((sender, "Sent a photo"), (sender, "أرسل صورة"), (sender, "Đã gửi một ảnh"))
        case .chatMessage(let sender, nil, false):
            ((sender, "Sent an attachment"), (sender, "أرسل مرفقًا"), (sender, "Đã gửi một tệp đính kèm"))
        case .supportAnswered(let ticket, let excerpt):
            (("Support answered", excerpt.isEmpty ? "New answer to \"\(ticket)\"." : "\"\(ticket)\": \(excerpt)"),
             ("ردّ الدعم", excerpt.isEmpty ? "ردّ جديد على \"\(ticket)\"." : "\"\(ticket)\": \(excerpt)"),
             ("Bộ phận hỗ trợ đã trả lời", excerpt.isEmpty ? "Có câu trả lời mới cho \"\(ticket)\"." : "\"\(ticket)\": \(excerpt)"))
        case .supportTicketClosed(let ticket):
            (("Support ticket closed", "Your ticket \"\(ticket)\" was closed."),
             ("أُغلقت تذكرة الدعم", "أُغلقت تذكرتك \"\(ticket)\"."),
             ("Yêu cầu hỗ trợ đã đóng", "Yêu cầu \"\(ticket)\" của bạn đã được đóng."))
        case .published(let title, let summary):
            ((title, summary), (title, summary), (title, summary))
        }
    }

    /// The words for an order offered to the next driver (true), no driver left (false), or neither (nil).
    private static func pick(_ reoffered: Bool?, _ next: String, _ none: String, _ again: String) -> String {
        switch reoffered {
        case true?: next
        case false?: none
        case nil: again
        }
    }

    /// The laundry stages' words (Drip 'n Dash's exact English ones are the argument).
    private static func arabicStage(_ position: Int) -> String? {
        let words = [
            "بانتظار قبول الـDasher", "قبل الـDasher الطلب", "الـDasher في الطريق للاستلام", "تم استلام الغسيل", "الغسيل في الغسالة",
            "انتهى الغسل", "الغسيل في المجفف", "انتهى التجفيف", "الـDasher في الطريق للتسليم", "تم تسليم الغسيل",
        ]
        return words.indices.contains(position) ? words[position] : nil
    }

    private static func vietnameseStage(_ position: Int) -> String? {
        let words = [
            "Chờ Dasher nhận đơn", "Dasher đã nhận yêu cầu", "Dasher đang đến lấy đồ", "Đã lấy đồ giặt", "Đồ đang trong máy giặt",
            "Đã giặt xong", "Đồ đang trong máy sấy", "Đã sấy xong", "Dasher đang đi giao đồ", "Đã giao đồ giặt",
        ]
        return words.indices.contains(position) ? words[position] : nil
    }
}
