import SoukGRPC
import SoukKit
import SoukMessages
import SoukOrders
import SoukStore

/// How many orders that are not cancelled one window of one marketplace holds. Placing,
/// rescheduling and cancelling lock and move this counter in their own transaction, so two
/// customers racing for the last place serialize on it and exactly one gets it.
struct WindowBooking: Sendable {
    var marketplaceID: String
    var start: StoreTime
    var booked: Int64
}

enum WindowBookingTable {
    static let byWindow = Index<WindowBooking>.unique("window_bookings.window") { [.string($0.marketplaceID), .time($0.start)] }
    static let table = Table(
        "window_bookings",
        codec: FieldCodec<WindowBooking>(
            write: { value, writer in
                writer.string(value.marketplaceID)
                writer.time(value.start)
                writer.int(value.booked)
            },
            read: { reader in WindowBooking(marketplaceID: try reader.string(), start: try reader.time(), booked: try reader.int()) }),
        indexes: [byWindow])
}

/// The marketplace's daily windows (commerce settings, its time zone) and their bookings.
enum ServiceWindows {
    static func daily(_ marketplace: SoukV1.Marketplace) -> [SoukV1.DailyWindow] {
        (marketplace.settings?.commerce?.serviceWindows ?? []).sorted { $0.startMinute < $1.startMinute }
    }

    static func capacity(_ marketplace: SoukV1.Marketplace) -> Int64 {
        Int64(marketplace.settings?.commerce?.windowCapacity ?? 0)
    }

    /// The windows of `date` as instants.
    static func windows(on date: CivilDate, _ marketplace: SoukV1.Marketplace) -> [(start: StoreTime, end: StoreTime)] {
        let clock = MarketplaceClock(timeZone: marketplace.timeZone)
        return daily(marketplace).map { (clock.instant(date, minute: Int($0.startMinute)), clock.instant(date, minute: Int($0.endMinute))) }
    }

    /// The window a request asks for: one of the marketplace's windows on its local day (any
    /// window when it has none), starting after `now`. INVALID_ARGUMENT naming `field` otherwise.
    static func resolve(_ window: SoukV1.TimeWindow?, _ marketplace: SoukV1.Marketplace, now: StoreTime, field: String) throws
        -> (start: StoreTime, end: StoreTime)
    {
        guard let startStamp = window?.startTime, let endStamp = window?.endTime else {
            throw RPCError.invalidField(field, "is required: a start and end time of one of the marketplace's windows")
        }
        let start = StoreTime(startStamp)
        let end = StoreTime(endStamp)
        guard start > now else { throw RPCError.invalidField(field, "must start in the future") }
        guard end > start else { throw RPCError.invalidField(field, "must end after it starts") }
        // A marketplace without daily windows takes any window.
        if daily(marketplace).isEmpty { return (start, end) }
        let date = MarketplaceClock(timeZone: marketplace.timeZone).date(of: start)
        guard windows(on: date, marketplace).contains(where: { $0.start == start && $0.end == end }) else {
            throw RPCError.invalidField(field, "is not one of the marketplace's time windows (see ListServiceWindows)")
        }
        return (start, end)
    }

    /// Takes one place in the window; FAILED_PRECONDITION (WINDOW_FULL) when none is left.
    static func book(_ start: StoreTime, marketplaceID: String, capacity: Int64, transaction: Transaction) throws {
        if let current = try transaction.get(WindowBookingTable.table, unique: WindowBookingTable.byWindow, [.string(marketplaceID), .time(start)]) {
            guard capacity == 0 || current.value.booked < capacity else { throw full }
            try transaction.update(WindowBookingTable.table, current.id) { $0.booked += 1 }
        } else {
            try transaction.insert(WindowBookingTable.table, WindowBooking(marketplaceID: marketplaceID, start: start, booked: 1))
        }
    }

    /// Gives back one place of the window (a cancelled or moved order).
    static func release(_ start: StoreTime, marketplaceID: String, transaction: Transaction) throws {
        guard let current = try transaction.get(WindowBookingTable.table, unique: WindowBookingTable.byWindow, [.string(marketplaceID), .time(start)]),
              current.value.booked > 0
        else { return }
        try transaction.update(WindowBookingTable.table, current.id) { $0.booked -= 1 }
    }

    static var full: RPCError {
        RPCError.souk(.failedPrecondition, .windowFull, "this time window is fully booked; choose another one")
    }

    /// `Orders.ListServiceWindows`.
    static func list(_ request: SoukV1.ListServiceWindowsRequest, _ call: SoukCall, store: Store, now: StoreTime) throws
        -> SoukV1.ListServiceWindowsResponse
    {
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        guard let date = CivilDate(request.date) else { throw RPCError.invalidField("date", "must be a valid calendar date") }
        let capacity = capacity(marketplace)
        var response = SoukV1.ListServiceWindowsResponse()
        for window in windows(on: date, marketplace) where window.start > now {
            let booked = try store.get(
                WindowBookingTable.table, unique: WindowBookingTable.byWindow, [.string(marketplaceID.description), .time(window.start)]
            )?.value.booked ?? 0
            var entry = SoukV1.ServiceWindow()
            entry.window = SoukV1.TimeWindow(startTime: Timestamp(window.start), endTime: Timestamp(window.end))
            entry.capacity = Int32(capacity)
            entry.booked = Int32(booked)
            entry.available = capacity == 0 || booked < capacity
            response.windows.append(entry)
        }
        return response
    }
}
