// The console's own labels in English, Arabic (right to left) and Vietnamese. The server's
// messages come in the same language: every call sends it as accept-language (an account's own
// locale, when set, wins on the server).

const LABELS = {
  en: {
    title: "Souk admin console", language: "Language", signIn: "Sign in", signOut: "Sign out",
    marketplace: "Marketplace", email: "E-mail", password: "Password", signedInAs: "Signed in as",
    notAdmin: "This account is not an active admin of the marketplace.",
    tabApprovals: "Approvals", tabOrders: "Orders", tabPayments: "Payments", tabSupport: "Support", tabAnnouncements: "Announcements",
    rolesWaiting: "Roles waiting", restaurantsWaiting: "Restaurants waiting", nothingWaiting: "Nothing waiting.",
    account: "Account", role: "Role", requested: "Requested", actions: "Actions", approve: "Approve", reject: "Reject",
    reason: "Reason", restaurant: "Restaurant", owner: "Owner", address: "Address", created: "Created",
    approved: "Approved", rejected: "Rejected", refresh: "Refresh",
    last30Days: "Orders placed, last 30 days", placed: "Placed", completed: "Completed", cancelled: "Cancelled", revenue: "Revenue",
    status: "Status", anyStatus: "Any status", activeOrders: "Active orders", order: "Order", total: "Total", customer: "Customer",
    noOrders: "No orders.", payment: "Payment", method: "Method", amount: "Amount", refunded: "Refunded", refund: "Refund",
    refundDone: "Refunded.", noPayments: "No payments.", target: "For",
    tickets: "Tickets", subject: "Subject", topic: "Topic", updated: "Updated", openTickets: "Waiting and answered", allTickets: "All",
    noTickets: "No tickets.", reply: "Reply", send: "Send", fromAdmin: "Admin", fromAuthor: "Author", replySent: "Reply sent.",
    close: "Close ticket", selectTicket: "Choose a ticket to read it.",
    newAnnouncement: "New announcement", announcementTitle: "Title", body: "Text", audience: "Audience", everyone: "Everyone",
    publishNow: "Publish now", saveDraft: "Save as draft", publish: "Publish", announcements: "Announcements", state: "State",
    published: "Published.", noAnnouncements: "No announcements.",
    ROLE_PROVIDER: "Provider", ROLE_COURIER: "Courier", ROLE_ADMIN: "Admin", ROLE_CUSTOMER: "Customer",
  },
  ar: {
    title: "لوحة إدارة سوق", language: "اللغة", signIn: "تسجيل الدخول", signOut: "تسجيل الخروج",
    marketplace: "السوق", email: "البريد الإلكتروني", password: "كلمة المرور", signedInAs: "مسجل الدخول باسم",
    notAdmin: "هذا الحساب ليس مشرفًا فعّالًا في هذا السوق.",
    tabApprovals: "الموافقات", tabOrders: "الطلبات", tabPayments: "المدفوعات", tabSupport: "الدعم", tabAnnouncements: "الإعلانات",
    rolesWaiting: "أدوار بانتظار القرار", restaurantsWaiting: "مطاعم بانتظار الموافقة", nothingWaiting: "لا شيء بانتظار القرار.",
    account: "الحساب", role: "الدور", requested: "تاريخ الطلب", actions: "الإجراءات", approve: "موافقة", reject: "رفض",
    reason: "السبب", restaurant: "المطعم", owner: "المالك", address: "العنوان", created: "تاريخ الإنشاء",
    approved: "تمت الموافقة", rejected: "تم الرفض", refresh: "تحديث",
    last30Days: "الطلبات المقدمة خلال آخر 30 يومًا", placed: "مقدمة", completed: "مكتملة", cancelled: "ملغاة", revenue: "الإيرادات",
    status: "الحالة", anyStatus: "كل الحالات", activeOrders: "الطلبات الجارية", order: "الطلب", total: "الإجمالي", customer: "العميل",
    noOrders: "لا توجد طلبات.", payment: "الدفعة", method: "الطريقة", amount: "المبلغ", refunded: "المسترد", refund: "استرداد",
    refundDone: "تم الاسترداد.", noPayments: "لا توجد مدفوعات.", target: "مقابل",
    tickets: "التذاكر", subject: "الموضوع", topic: "النوع", updated: "آخر تحديث", openTickets: "المنتظرة والمجاب عنها", allTickets: "الكل",
    noTickets: "لا توجد تذاكر.", reply: "الرد", send: "إرسال", fromAdmin: "المشرف", fromAuthor: "صاحب التذكرة", replySent: "تم إرسال الرد.",
    close: "إغلاق التذكرة", selectTicket: "اختر تذكرة لقراءتها.",
    newAnnouncement: "إعلان جديد", announcementTitle: "العنوان", body: "النص", audience: "الجمهور", everyone: "الجميع",
    publishNow: "نشر الآن", saveDraft: "حفظ كمسودة", publish: "نشر", announcements: "الإعلانات", state: "الحالة",
    published: "تم النشر.", noAnnouncements: "لا توجد إعلانات.",
    ROLE_PROVIDER: "مزود", ROLE_COURIER: "مندوب توصيل", ROLE_ADMIN: "مشرف", ROLE_CUSTOMER: "عميل",
  },
  vi: {
    title: "Bảng quản trị Souk", language: "Ngôn ngữ", signIn: "Đăng nhập", signOut: "Đăng xuất",
    marketplace: "Chợ", email: "E-mail", password: "Mật khẩu", signedInAs: "Đăng nhập với",
    notAdmin: "Tài khoản này không phải quản trị viên đang hoạt động của chợ.",
    tabApprovals: "Phê duyệt", tabOrders: "Đơn hàng", tabPayments: "Thanh toán", tabSupport: "Hỗ trợ", tabAnnouncements: "Thông báo",
    rolesWaiting: "Vai trò chờ duyệt", restaurantsWaiting: "Nhà hàng chờ duyệt", nothingWaiting: "Không có gì đang chờ.",
    account: "Tài khoản", role: "Vai trò", requested: "Ngày yêu cầu", actions: "Thao tác", approve: "Duyệt", reject: "Từ chối",
    reason: "Lý do", restaurant: "Nhà hàng", owner: "Chủ", address: "Địa chỉ", created: "Ngày tạo",
    approved: "Đã duyệt", rejected: "Đã từ chối", refresh: "Làm mới",
    last30Days: "Đơn đặt trong 30 ngày qua", placed: "Đã đặt", completed: "Hoàn thành", cancelled: "Đã hủy", revenue: "Doanh thu",
    status: "Trạng thái", anyStatus: "Mọi trạng thái", activeOrders: "Đơn đang xử lý", order: "Đơn", total: "Tổng", customer: "Khách hàng",
    noOrders: "Không có đơn.", payment: "Thanh toán", method: "Phương thức", amount: "Số tiền", refunded: "Đã hoàn", refund: "Hoàn tiền",
    refundDone: "Đã hoàn tiền.", noPayments: "Không có thanh toán.", target: "Cho",
    tickets: "Phiếu hỗ trợ", subject: "Chủ đề", topic: "Loại", updated: "Cập nhật", openTickets: "Đang chờ và đã trả lời", allTickets: "Tất cả",
    noTickets: "Không có phiếu.", reply: "Trả lời", send: "Gửi", fromAdmin: "Quản trị", fromAuthor: "Người gửi", replySent: "Đã gửi trả lời.",
    close: "Đóng phiếu", selectTicket: "Chọn một phiếu để đọc.",
    newAnnouncement: "Thông báo mới", announcementTitle: "Tiêu đề", body: "Nội dung", audience: "Đối tượng", everyone: "Mọi người",
    publishNow: "Đăng ngay", saveDraft: "Lưu nháp", publish: "Đăng", announcements: "Thông báo", state: "Trạng thái",
    published: "Đã đăng.", noAnnouncements: "Không có thông báo.",
    ROLE_PROVIDER: "Nhà cung cấp", ROLE_COURIER: "Người giao hàng", ROLE_ADMIN: "Quản trị", ROLE_CUSTOMER: "Khách hàng",
  },
};

// Status names of the contract, by their last words ("ORDER_STATUS_OUT_FOR_DELIVERY").
const STATUS_WORDS = {
  ar: {
    PENDING: "قيد الانتظار", APPROVED: "موافق عليه", PLACED: "مقدم", PREPARING: "قيد التحضير", OUT_FOR_DELIVERY: "في الطريق",
    SHIPPED: "تم الشحن", DELIVERED: "تم التسليم", RECEIVED: "تم الاستلام", COMPLETED: "مكتمل", CANCELLED: "ملغى",
    COLLECTED: "محصّل", SUCCESSFUL: "ناجح", FAILED: "فاشل", PARTIALLY_REFUNDED: "مسترد جزئيًا", REFUNDED: "مسترد",
    OPEN: "مفتوحة", ANSWERED: "تم الرد", CLOSED: "مغلقة", DRAFT: "مسودة", SCHEDULED: "مجدول", PUBLISHED: "منشور",
    EXPIRED: "منتهي", ARCHIVED: "مؤرشف", CARD: "بطاقة", CASH: "نقدًا",
  },
  vi: {
    PENDING: "Đang chờ", APPROVED: "Đã duyệt", PLACED: "Đã đặt", PREPARING: "Đang chuẩn bị", OUT_FOR_DELIVERY: "Đang giao",
    SHIPPED: "Đã gửi", DELIVERED: "Đã giao", RECEIVED: "Đã nhận", COMPLETED: "Hoàn thành", CANCELLED: "Đã hủy",
    COLLECTED: "Đã thu", SUCCESSFUL: "Thành công", FAILED: "Thất bại", PARTIALLY_REFUNDED: "Hoàn một phần", REFUNDED: "Đã hoàn",
    OPEN: "Mở", ANSWERED: "Đã trả lời", CLOSED: "Đã đóng", DRAFT: "Nháp", SCHEDULED: "Đã lên lịch", PUBLISHED: "Đã đăng",
    EXPIRED: "Hết hạn", ARCHIVED: "Lưu trữ", CARD: "Thẻ", CASH: "Tiền mặt",
  },
};

const LANGUAGE_KEY = "souk.console.language";
let lang = localStorage.getItem(LANGUAGE_KEY) || "en";
if (!LABELS[lang]) lang = "en";

export const language = () => lang;
export const languages = () => Object.keys(LABELS);

export function t(key) {
  return LABELS[lang][key] ?? LABELS.en[key] ?? key;
}

/** A status or enum value of the contract in the current language. */
export function enumLabel(value, prefix) {
  if (!value) return "—";
  if (LABELS[lang][value]) return LABELS[lang][value];
  const words = prefix && value.startsWith(prefix) ? value.slice(prefix.length) : value;
  const translated = STATUS_WORDS[lang]?.[words];
  if (translated) return translated;
  const plain = words.toLowerCase().replace(/_/g, " ");
  return plain.charAt(0).toUpperCase() + plain.slice(1);
}

/** Sets the page's language and direction, and every element's data-i18n label. */
export function setLanguage(next) {
  if (!LABELS[next]) return;
  lang = next;
  localStorage.setItem(LANGUAGE_KEY, next);
  document.documentElement.lang = next;
  document.documentElement.dir = next === "ar" ? "rtl" : "ltr";
  for (const element of document.querySelectorAll("[data-i18n]")) element.textContent = t(element.dataset.i18n);
  for (const element of document.querySelectorAll("[data-i18n-placeholder]")) element.placeholder = t(element.dataset.i18nPlaceholder);
}

const LOCALES = { en: "en-GB", ar: "ar", vi: "vi-VN" };

export function formatTime(timestamp) {
  if (!timestamp) return "—";
  return new Intl.DateTimeFormat(LOCALES[lang], { dateStyle: "medium", timeStyle: "short" }).format(new Date(timestamp));
}

/** Money of the contract: amountMinor (an int64 string in JSON) in the currency's minor units. */
export function formatMoney(money) {
  if (!money || !money.currencyCode) return "—";
  const format = new Intl.NumberFormat(LOCALES[lang], { style: "currency", currency: money.currencyCode });
  const digits = format.resolvedOptions().maximumFractionDigits;
  return format.format(Number(money.amountMinor || 0) / 10 ** digits);
}
