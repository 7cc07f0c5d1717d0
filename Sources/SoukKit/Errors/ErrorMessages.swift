import SoukMessages

/// The languages of the five apps, in which Souk words its errors for users.
public enum ErrorLanguage: String, Sendable, CaseIterable {
    case english = "en"
    case arabic = "ar"
    case vietnamese = "vi"
}

extension SoukV1.ErrorReason {
    /// A sentence for the user about this reason, in `language`. It names no field or value: the
    /// developer message (`grpc-message`) and the BadRequest carry those, in English.
    public func userMessage(in language: ErrorLanguage) -> String {
        let text = userMessages
        switch language {
        case .english: return text.en
        case .arabic: return text.ar
        case .vietnamese: return text.vi
        }
    }

    /// The translations, one line per reason (the switch makes a missing one a compile error).
    private var userMessages: (en: String, ar: String, vi: String) {
        switch self {
        case .unspecified, .unrecognized:
            ("The request could not be completed.", "تعذّر تنفيذ الطلب.", "Không thể thực hiện yêu cầu.")
        case .fieldInvalid:
            ("Some of the information entered is not valid. Please check it and try again.",
             "بعض المعلومات المدخلة غير صالحة. يرجى التحقق منها والمحاولة مرة أخرى.",
             "Một số thông tin đã nhập không hợp lệ. Vui lòng kiểm tra và thử lại.")
        case .staleVersion:
            ("This was changed by someone else in the meantime. Reload it and try again.",
             "تم تغيير هذا من قِبل شخص آخر في هذه الأثناء. أعد تحميله وحاول مرة أخرى.",
             "Dữ liệu này vừa được người khác thay đổi. Vui lòng tải lại và thử lại.")
        case .requestIDReused:
            ("This request was already sent with different details. Please start it again.",
             "تم إرسال هذا الطلب من قبل بتفاصيل مختلفة. يرجى البدء من جديد.",
             "Yêu cầu này đã được gửi trước đó với nội dung khác. Vui lòng thực hiện lại từ đầu.")
        case .wrongVertical:
            ("This feature is not available in this marketplace.",
             "هذه الميزة غير متاحة في هذا السوق.",
             "Tính năng này không có trên sàn này.")
        case .marketplaceMismatch:
            ("You are signed in to a different marketplace. Sign in to this one to continue.",
             "أنت مسجّل الدخول في سوق آخر. سجّل الدخول في هذا السوق للمتابعة.",
             "Bạn đang đăng nhập vào một sàn khác. Hãy đăng nhập vào sàn này để tiếp tục.")
        case .notAllowed:
            ("You do not have permission to do this.",
             "ليست لديك صلاحية للقيام بذلك.",
             "Bạn không có quyền thực hiện thao tác này.")
        case .rolePending:
            ("Your role is still waiting for approval.",
             "دورك لا يزال بانتظار الموافقة.",
             "Vai trò của bạn vẫn đang chờ phê duyệt.")
        case .accountBlocked:
            ("This account has been blocked. Please contact support.",
             "تم حظر هذا الحساب. يرجى التواصل مع الدعم.",
             "Tài khoản này đã bị vô hiệu hóa. Vui lòng liên hệ bộ phận hỗ trợ.")
        case .accountLocked:
            ("Too many failed sign-in attempts. The account is locked for a while; try again later.",
             "محاولات تسجيل دخول فاشلة كثيرة. تم قفل الحساب مؤقتًا؛ حاول مرة أخرى لاحقًا.",
             "Bạn đã đăng nhập sai quá nhiều lần. Tài khoản tạm thời bị khóa; vui lòng thử lại sau.")
        case .badCredentials:
            ("The e-mail or password is incorrect.",
             "البريد الإلكتروني أو كلمة المرور غير صحيحة.",
             "Email hoặc mật khẩu không đúng.")
        case .emailTaken:
            ("An account with this e-mail already exists.",
             "يوجد حساب بهذا البريد الإلكتروني بالفعل.",
             "Email này đã được dùng cho một tài khoản khác.")
        case .emailDomainNotAllowed:
            ("Sign-up is limited to e-mail addresses of certain domains.",
             "التسجيل متاح فقط لعناوين بريد إلكتروني من نطاقات محددة.",
             "Chỉ có thể đăng ký bằng email thuộc một số tên miền nhất định.")
        case .weakPassword:
            ("The password needs at least 8 characters, with an upper-case letter, a lower-case letter, a digit and a special character.",
             "يجب أن تتكون كلمة المرور من 8 أحرف على الأقل، وأن تحتوي على حرف كبير وحرف صغير ورقم ورمز خاص.",
             "Mật khẩu phải có ít nhất 8 ký tự, gồm chữ hoa, chữ thường, chữ số và ký tự đặc biệt.")
        case .tokenInvalid:
            ("Your session or code is no longer valid. Please sign in again.",
             "جلستك أو الرمز لم يعد صالحًا. يرجى تسجيل الدخول مرة أخرى.",
             "Phiên đăng nhập hoặc mã của bạn không còn hiệu lực. Vui lòng đăng nhập lại.")
        case .invalidTransition:
            ("This action is not possible in the current state.",
             "لا يمكن تنفيذ هذا الإجراء في الحالة الحالية.",
             "Không thể thực hiện thao tác này ở trạng thái hiện tại.")
        case .cartLineExists:
            ("This item is already in your cart; change its quantity instead.",
             "هذا المنتج موجود بالفعل في سلتك؛ عدّل الكمية بدلًا من ذلك.",
             "Sản phẩm này đã có trong giỏ hàng; hãy thay đổi số lượng.")
        case .quantityLimit:
            ("The quantity is outside the allowed range.",
             "الكمية خارج النطاق المسموح به.",
             "Số lượng nằm ngoài giới hạn cho phép.")
        case .cartOtherRestaurant:
            ("Your cart holds items from another restaurant. Empty it first to order from this one.",
             "تحتوي سلتك على أصناف من مطعم آخر. أفرغها أولًا للطلب من هذا المطعم.",
             "Giỏ hàng đang có món của nhà hàng khác. Hãy xóa giỏ hàng trước khi đặt món ở nhà hàng này.")
        case .cartEmpty:
            ("Your cart is empty.", "سلتك فارغة.", "Giỏ hàng của bạn đang trống.")
        case .outOfStock:
            ("Not enough of this item is left in stock.",
             "الكمية المتوفرة من هذا المنتج غير كافية.",
             "Sản phẩm này không còn đủ hàng.")
        case .itemUnavailable:
            ("This item is not available right now.", "هذا المنتج غير متاح حاليًا.", "Mặt hàng này hiện không có sẵn.")
        case .restaurantClosed:
            ("The restaurant is closed right now.", "المطعم مغلق حاليًا.", "Nhà hàng hiện đang đóng cửa.")
        case .addressNotConfirmed:
            ("Please confirm the delivery address.", "يرجى تأكيد عنوان التوصيل.", "Vui lòng xác nhận địa chỉ giao hàng.")
        case .cardInvalid:
            ("The card details are not valid.", "بيانات البطاقة غير صالحة.", "Thông tin thẻ không hợp lệ.")
        case .paymentDeclined:
            ("The payment was declined; nothing was ordered or charged.",
             "تم رفض الدفع؛ لم يُنشأ أي طلب ولم يُخصم أي مبلغ.",
             "Thanh toán bị từ chối; không có đơn nào được tạo và bạn không bị trừ tiền.")
        case .paymentMethodNotAccepted:
            ("This payment method is not accepted here.",
             "طريقة الدفع هذه غير مقبولة هنا.",
             "Phương thức thanh toán này không được chấp nhận tại đây.")
        case .alreadyPaid:
            ("This has already been paid.", "تم دفع هذا بالفعل.", "Khoản này đã được thanh toán.")
        case .cancelNotAllowed:
            ("It is too late to cancel.", "فات أوان الإلغاء.", "Đã quá muộn để hủy.")
        case .stageNotNext:
            ("The job can only move on to the next stage.",
             "لا يمكن نقل المهمة إلا إلى المرحلة التالية.",
             "Công việc chỉ có thể chuyển sang bước tiếp theo.")
        case .finalCostRequired:
            ("Enter the actual loads and machine cost to finish this stage.",
             "أدخل عدد الغسلات الفعلي وتكلفة الآلات لإكمال هذه المرحلة.",
             "Hãy nhập số mẻ giặt thực tế và chi phí máy để hoàn tất bước này.")
        case .dasherNotAccepting:
            ("The chosen Dasher is not taking requests right now.",
             "الـDasher الذي اخترته لا يستقبل طلبات حاليًا.",
             "Dasher bạn chọn hiện không nhận yêu cầu.")
        case .leaseTooShort:
            ("The lease is shorter than the minimum allowed.",
             "مدة الإيجار أقصر من الحد الأدنى المسموح به.",
             "Thời hạn thuê ngắn hơn mức tối thiểu cho phép.")
        case .listingLeased:
            ("This property is already leased.", "هذا العقار مؤجَّر بالفعل.", "Bất động sản này đã được cho thuê.")
        case .courierOffline:
            ("The courier is offline.", "المندوب غير متصل حاليًا.", "Người giao hàng đang ngoại tuyến.")
        case .noCourierAvailable:
            ("No courier is available right now. Please try again shortly.",
             "لا يوجد مندوب متاح حاليًا. يرجى المحاولة بعد قليل.",
             "Hiện không có người giao hàng nào sẵn sàng. Vui lòng thử lại sau ít phút.")
        case .alreadyRated:
            ("You have already rated this.", "لقد قيّمت هذا من قبل.", "Bạn đã đánh giá mục này rồi.")
        case .notRatable:
            ("This can be rated only once it is completed.",
             "لا يمكن التقييم إلا بعد الاكتمال.",
             "Chỉ có thể đánh giá sau khi hoàn tất.")
        case .eventsExpired:
            ("Some updates are no longer available. Refresh to see the latest state.",
             "بعض التحديثات لم تعد متاحة. حدّث الصفحة لرؤية أحدث حالة.",
             "Một số cập nhật không còn khả dụng. Hãy làm mới để xem trạng thái mới nhất.")
        case .duplicate:
            ("This already exists.", "هذا موجود بالفعل.", "Mục này đã tồn tại.")
        case .openObligations:
            ("The account cannot be deleted while it still has an active lease, a job in progress or an unpaid bill.",
             "لا يمكن حذف الحساب ما دام لديه عقد إيجار نشط أو مهمة قيد التنفيذ أو فاتورة غير مدفوعة.",
             "Không thể xóa tài khoản khi vẫn còn hợp đồng thuê đang hiệu lực, công việc đang thực hiện hoặc hóa đơn chưa thanh toán.")
        case .resourceNotFound:
            ("We could not find what you asked for.", "لم نتمكن من العثور على ما طلبته.", "Không tìm thấy nội dung bạn yêu cầu.")
        case .concurrentChange:
            ("Too many changes are happening at once. Please try again.",
             "هناك تغييرات كثيرة تحدث في الوقت نفسه. يرجى المحاولة مرة أخرى.",
             "Có quá nhiều thay đổi cùng lúc. Vui lòng thử lại.")
        case .marketplaceArchived:
            ("This marketplace is closed.", "هذا السوق مغلق.", "Sàn này đã ngừng hoạt động.")
        case .selfAction:
            ("You cannot do this to your own account.",
             "لا يمكنك القيام بذلك على حسابك الخاص.",
             "Bạn không thể thực hiện thao tác này với chính tài khoản của mình.")
        case .notImplemented:
            ("This feature is not available yet.", "هذه الميزة غير متاحة بعد.", "Tính năng này chưa được hỗ trợ.")
        case .messageTooLarge:
            ("The request is too large.", "الطلب كبير جدًا.", "Yêu cầu quá lớn.")
        case .tooLarge:
            ("The file is larger than this marketplace allows.", "الملف أكبر مما يسمح به هذا السوق.",
             "Tệp lớn hơn mức chợ này cho phép.")
        case .windowFull:
            ("This time window is fully booked. Please choose another one.",
             "هذه الفترة الزمنية محجوزة بالكامل. يرجى اختيار فترة أخرى.",
             "Khung giờ này đã kín chỗ. Vui lòng chọn khung giờ khác.")
        case .emailNotVerified:
            ("Please confirm your e-mail address with the code we sent you first.",
             "يرجى تأكيد بريدك الإلكتروني أولاً بالرمز الذي أرسلناه إليك.",
             "Vui lòng xác nhận địa chỉ email bằng mã chúng tôi đã gửi trước.")
        case .quizRetryTooSoon:
            ("You can retake the quiz later. Please wait until the time shown.",
             "يمكنك إعادة الاختبار لاحقًا. يرجى الانتظار حتى الوقت المحدد.",
             "Bạn có thể làm lại bài kiểm tra sau. Vui lòng đợi đến thời điểm được nêu.")
        case .verificationCodeLimit:
            ("A code was sent a moment ago. Please wait a little before asking for a new one.",
             "تم إرسال رمز قبل قليل. يرجى الانتظار قليلًا قبل طلب رمز جديد.",
             "Mã vừa được gửi. Vui lòng đợi một lát trước khi yêu cầu mã mới.")
        case .signInRequired:
            ("Please sign in to continue.",
             "يرجى تسجيل الدخول للمتابعة.",
             "Vui lòng đăng nhập để tiếp tục.")
        case .tokenExpired:
            ("Your session needs to be renewed. Please try again.",
             "يجب تجديد جلستك. يرجى المحاولة مرة أخرى.",
             "Phiên đăng nhập cần được gia hạn. Vui lòng thử lại.")
        case .sessionRevoked:
            ("You were signed out. Please sign in again.",
             "تم تسجيل خروجك. يرجى تسجيل الدخول مرة أخرى.",
             "Bạn đã bị đăng xuất. Vui lòng đăng nhập lại.")
        case .rateLimited:
            ("Too many attempts in a short time. Please wait a moment and try again.",
             "محاولات كثيرة خلال وقت قصير. يرجى الانتظار قليلًا ثم المحاولة مرة أخرى.",
             "Bạn đã thử quá nhiều lần trong thời gian ngắn. Vui lòng đợi một lát rồi thử lại.")
        case .jobNotOffered:
            ("This job is no longer offered to you. Ask for work again to get a job.",
             "لم تعد هذه المهمة معروضة عليك. اطلب عملًا مرة أخرى للحصول على مهمة.",
             "Công việc này không còn được giao cho bạn. Hãy nhận việc lại để có công việc mới.")
        case .notPaid:
            ("This has not been paid yet. Please pay for it first.",
             "لم يتم الدفع بعد. يرجى الدفع أولاً.",
             "Khoản này chưa được thanh toán. Vui lòng thanh toán trước.")
        case .disputeWindowClosed:
            ("The time to dispute this charge has passed (7 days after payment).",
             "انتهت مهلة الاعتراض على هذا المبلغ (7 أيام بعد الدفع).",
             "Đã quá thời hạn khiếu nại khoản phí này (7 ngày sau khi thanh toán).")
        case .alreadyDisputed:
            ("This charge is already disputed. We will let you know the decision.",
             "تم الاعتراض على هذا المبلغ بالفعل. سنبلغك بالقرار.",
             "Khoản phí này đã được khiếu nại. Chúng tôi sẽ thông báo kết quả cho bạn.")
        case .alreadyDasher:
            ("You are already a Dasher.", "أنت بالفعل من موظفي التوصيل (Dasher).", "Bạn đã là Dasher.")
        case .quizUnavailable:
            ("The Dasher quiz is not available yet. Please try again later.",
             "اختبار Dasher غير متاح بعد. يرجى المحاولة لاحقًا.",
             "Bài kiểm tra Dasher chưa sẵn sàng. Vui lòng thử lại sau.")
        case .laundryProfileRequired:
            ("Please add your dorm and room to your profile first.",
             "يرجى إضافة السكن والغرفة إلى ملفك الشخصي أولاً.",
             "Vui lòng thêm ký túc xá và phòng vào hồ sơ của bạn trước.")
        case .dasherProfileRequired:
            ("Pass the Dasher quiz first to do this.",
             "اجتز اختبار Dasher أولاً للقيام بذلك.",
             "Hãy vượt qua bài kiểm tra Dasher trước khi làm việc này.")
        case .inUse:
            ("This is still used by listings and cannot be removed.",
             "لا يزال هذا مستخدمًا في إعلانات ولا يمكن إزالته.",
             "Mục này vẫn đang được tin đăng sử dụng và không thể xóa.")
        case .readerTooSlow:
            ("Live updates paused because they were not being read. Reconnect to catch up.",
             "توقفت التحديثات المباشرة مؤقتًا لأنها لم تكن تُقرأ. أعد الاتصال لمتابعة ما فاتك.",
             "Cập nhật trực tiếp đã tạm dừng vì không được đọc. Hãy kết nối lại để cập nhật tiếp.")
        case .tooManyStreams:
            ("Too many live updates are open. Please close some screens and try again.",
             "هناك عدد كبير جدًا من التحديثات المباشرة المفتوحة. يرجى إغلاق بعض الشاشات والمحاولة مرة أخرى.",
             "Có quá nhiều cập nhật trực tiếp đang mở. Vui lòng đóng bớt một số màn hình và thử lại.")
        case .archived:
            ("This item is archived. Restore it before changing it.",
             "هذا العنصر مؤرشف. استعده قبل تعديله.",
             "Mục này đã được lưu trữ. Vui lòng khôi phục trước khi thay đổi.")
        case .restaurantNotApproved:
            ("The restaurant is not approved yet. It can open once an admin approves it.",
             "لم تتم الموافقة على المطعم بعد. يمكنه الفتح بعد موافقة المشرف.",
             "Nhà hàng chưa được duyệt. Nhà hàng có thể mở cửa sau khi quản trị viên duyệt.")
        case .ownerNotEligible:
            ("The restaurant's owner account cannot be approved.",
             "لا يمكن الموافقة على حساب مالك المطعم.",
             "Không thể duyệt tài khoản chủ nhà hàng.")
        case .notCashPayment:
            ("This payment is not cash on delivery.",
             "هذه الدفعة ليست دفعًا نقديًا عند الاستلام.",
             "Khoản thanh toán này không phải tiền mặt khi nhận hàng.")
        case .cashNotCollected:
            ("The cash for this order has not been collected yet.",
             "لم يتم تحصيل المبلغ النقدي لهذا الطلب بعد.",
             "Tiền mặt của đơn hàng này chưa được thu.")
        case .orderNotDelivered:
            ("The order has not been delivered yet.",
             "لم يتم توصيل الطلب بعد.",
             "Đơn hàng chưa được giao.")
        case .ordersInProgress:
            ("Some orders are still in progress. Try again once they are done.",
             "بعض الطلبات لا تزال قيد التنفيذ. حاول مرة أخرى بعد انتهائها.",
             "Một số đơn hàng vẫn đang được xử lý. Vui lòng thử lại khi chúng hoàn tất.")
        case .overloaded:
            ("The service is very busy right now. Please try again in a moment.",
             "الخدمة مشغولة جدًا الآن. يرجى المحاولة مرة أخرى بعد لحظة.",
             "Dịch vụ hiện đang rất bận. Vui lòng thử lại sau giây lát.")
        case .pushAlreadyCompleted:
            ("This notification was already reported as sent or failed.",
             "تم الإبلاغ عن هذا الإشعار من قبل بأنه أُرسل أو فشل.",
             "Thông báo này đã được báo cáo là đã gửi hoặc thất bại.")
        case .notAParty:
            ("Only the people taking part in this order, job, booking or listing can talk about it here.",
             "يمكن فقط للأشخاص المشاركين في هذا الطلب أو المهمة أو الحجز أو الإعلان التحدث عنه هنا.",
             "Chỉ những người tham gia đơn hàng, công việc, đặt thuê hoặc tin đăng này mới có thể trò chuyện về nó ở đây.")
        case .supportNeedsAdmin:
            ("A conversation without a subject is with support: one of you must be an admin.",
             "المحادثة بدون موضوع تكون مع الدعم: يجب أن يكون أحدكما مشرفًا.",
             "Cuộc trò chuyện không có chủ đề là với bộ phận hỗ trợ: một trong hai người phải là quản trị viên.")
        case .ticketClosed:
            ("This support ticket is closed. Write to it to open it again.",
             "تذكرة الدعم هذه مغلقة. اكتب فيها لإعادة فتحها.",
             "Yêu cầu hỗ trợ này đã được đóng. Hãy gửi tin nhắn để mở lại.")
        case .paymentTokenInvalid:
            ("The payment details could not be used. Please enter them again.",
             "تعذّر استخدام بيانات الدفع. يرجى إدخالها مرة أخرى.",
             "Không thể sử dụng thông tin thanh toán. Vui lòng nhập lại.")
        case .finalPriceUnconfirmed:
            ("The final price is more than twice the estimate and waits for the customer's confirmation.",
             "السعر النهائي أكثر من ضعف التقدير وينتظر تأكيد العميل.",
             "Giá cuối cao hơn gấp đôi giá ước tính và đang chờ khách hàng xác nhận.")
        case .deadlineExceeded:
            ("The request took too long. Please try again.",
             "استغرق الطلب وقتًا طويلًا. يرجى المحاولة مرة أخرى.",
             "Yêu cầu mất quá nhiều thời gian. Vui lòng thử lại.")
        case .cancelled:
            ("The request was cancelled.", "تم إلغاء الطلب.", "Yêu cầu đã bị hủy.")
        case .unavailable:
            ("The service is temporarily unavailable. Please try again shortly.",
             "الخدمة غير متاحة مؤقتًا. يرجى المحاولة بعد قليل.",
             "Dịch vụ tạm thời không khả dụng. Vui lòng thử lại sau ít phút.")
        case .courierBlocked:
            ("This courier's account is blocked. Please choose another courier.",
             "حساب هذا المندوب محظور. يرجى اختيار مندوب آخر.",
             "Tài khoản của người giao hàng này đã bị khóa. Vui lòng chọn người khác.")
        case .notACourier:
            ("This account is not a courier.", "هذا الحساب ليس حساب مندوب توصيل.", "Tài khoản này không phải là người giao hàng.")
        case .courierRolePending:
            ("This courier is still waiting for approval.",
             "هذا المندوب ما زال بانتظار الموافقة.",
             "Người giao hàng này vẫn đang chờ được phê duyệt.")
        case .deliveryOpen:
            ("This order already has a delivery under way.",
             "لهذا الطلب توصيل قيد التنفيذ بالفعل.",
             "Đơn hàng này đã có một chuyến giao đang diễn ra.")
        case .courierBusy:
            ("The courier has a delivery to answer or finish first.",
             "لدى المندوب توصيل يجب الرد عليه أو إنهاؤه أولًا.",
             "Người giao hàng còn một chuyến giao cần trả lời hoặc hoàn thành trước.")
        case .courierDeclinedOrder:
            ("This courier already declined this order. Please choose another courier.",
             "رفض هذا المندوب هذا الطلب من قبل. يرجى اختيار مندوب آخر.",
             "Người giao hàng này đã từ chối đơn hàng này. Vui lòng chọn người khác.")
        case .offerExpired:
            ("This delivery offer has expired.", "انتهت صلاحية عرض التوصيل هذا.", "Lời mời giao hàng này đã hết hạn.")
        case .noDeliveryInProgress:
            ("This order has no delivery on the way to follow yet.",
             "لا يوجد توصيل في الطريق لهذا الطلب لمتابعته بعد.",
             "Đơn hàng này chưa có chuyến giao nào đang trên đường để theo dõi.")
        case .internalError:
            ("Something went wrong on our side. Please try again later.",
             "حدث خطأ من جهتنا. يرجى المحاولة لاحقًا.",
             "Đã xảy ra lỗi từ phía chúng tôi. Vui lòng thử lại sau.")
        }
    }
}
