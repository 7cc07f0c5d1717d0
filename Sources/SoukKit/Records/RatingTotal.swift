import SoukMessages
import SoukStore

/// The exact star total behind a rating average, stored under the rated record's id (an
/// account, a service, a restaurant), so averages never drift by rounding. Each domain keeps
/// its totals in its own table of these.
public struct RatingTotal: Sendable {
    public var count: Int64
    public var stars: Int64

    /// Average in hundredths of a star, rounded half away from zero.
    public var averageHundredths: Int32 {
        count == 0 ? 0 : Int32((stars * 200 + count) / (2 * count))
    }

    public var summary: SoukV1.RatingSummary { SoukV1.RatingSummary(count: count, averageHundredths: averageHundredths) }

    /// A table of totals named `name`.
    public static func table(_ name: String) -> Table<RatingTotal> {
        Table(
            name,
            codec: FieldCodec<RatingTotal>(
                write: { value, writer in
                    writer.int(value.count)
                    writer.int(value.stars)
                },
                read: { reader in RatingTotal(count: try reader.int(), stars: try reader.int()) }))
    }

    /// The summary of `id` in `table`; nil when it was never rated.
    public static func summary(of id: RecordID, in table: Table<RatingTotal>, _ reader: any RecordLookup) throws -> SoukV1.RatingSummary? {
        try reader.get(table, id)?.value.summary
    }

    /// Adds `stars` to the total of `id` in `table` and returns the new summary.
    public static func add(_ stars: Int32, to id: RecordID, in table: Table<RatingTotal>, transaction: Transaction) throws -> SoukV1.RatingSummary {
        if try transaction.get(table, id) != nil {
            return try transaction.update(table, id) {
                $0.count += 1
                $0.stars += Int64(stars)
            }.value.summary
        }
        return try transaction.insert(table, RatingTotal(count: 1, stars: Int64(stars)), id: id).value.summary
    }
}

