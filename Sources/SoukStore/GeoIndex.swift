import Foundation

/// A point on Earth in degrees.
public struct GeoPosition: Sendable, Hashable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Finite, latitude within ±90 and longitude within ±180.
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
    }
}

/// Great-circle distances on a spherical Earth.
public enum GeoDistance {
    /// The mean Earth radius (IUGG), meters.
    public static let earthRadiusMeters = 6_371_008.8

    /// The haversine distance between two positions, meters.
    public static func meters(_ a: GeoPosition, _ b: GeoPosition) -> Double {
        let h = haversine(latitude: radians(b.latitude - a.latitude))
            + cos(radians(a.latitude)) * cos(radians(b.latitude)) * haversine(latitude: radians(b.longitude - a.longitude))
        return meters(haversine: h)
    }

    static func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
    static func haversine(latitude angle: Double) -> Double {
        let s = sin(angle / 2)
        return s * s
    }
    static func meters(haversine h: Double) -> Double { 2 * earthRadiusMeters * asin(min(1, max(0, h).squareRoot())) }
}

/// One entry a record puts in a geospatial index: the scope it is found in (for example the
/// marketplace and "online"), its position, and a stamp queries may filter on (for example the
/// time of a courier's last position, so stale ones are skipped without reading records).
public struct GeoEntry: Sendable {
    public var scope: [KeyPart]
    public var position: GeoPosition
    public var stamp: Int64

    public init(scope: [KeyPart], position: GeoPosition, stamp: Int64 = 0) {
        self.scope = scope
        self.position = position
        self.stamp = stamp
    }
}

/// A geospatial index: "what is near this point, nearest first" without a scan of the table.
///
/// Each entry is keyed `scope │ cell │ latitude │ longitude │ stamp │ id`, where the cell is a
/// square of a latitude/longitude grid (about 610 m by default; see `GeoCellSize`; row-major, so
/// one row of cells is one key range). A query reads rings of cells around the point, nearest rings first, and stops as soon
/// as no unread cell can hold anything nearer than what it has: its cost follows the number of
/// results and the emptiness around the point, not the size of the table. Positions are stored
/// exactly (their bit patterns), so distances are those of the records themselves.
public struct GeoIndex<Value>: Sendable {
    /// The underlying index: list it in the table's indexes so that writes keep it in step.
    public let index: Index<Value>
    let grid: GeoGrid

    /// `cellSize` suits the density expected: a query reads whole cells, so where a cell holds
    /// hundreds of entries a finer grid reads fewer of them.
    public init(_ name: String, cellSize: GeoCellSize = .meters610, entries: @escaping @Sendable (StoredRecord<Value>) -> [GeoEntry]) {
        let grid = GeoGrid(cellSize)
        self.grid = grid
        index = Index(name: name, kind: .nonUnique) { record in
            entries(record).compactMap { entry in
                guard entry.position.isValid else { return nil }
                return entry.scope + [
                    .int(grid.cell(entry.position)), .uint(entry.position.latitude.bitPattern),
                    .uint(entry.position.longitude.bitPattern), .int(entry.stamp),
                ]
            }
        }
    }
}

/// A nearest-first query of a geospatial index.
public struct GeoQuery: Sendable {
    public var scope: [KeyPart]
    public var center: GeoPosition
    public var radiusMeters: Double
    /// Skips entries whose stamp is lower.
    public var minimumStamp: Int64?
    public var limit: Int
    public var pageToken: String?

    public init(
        scope: [KeyPart], center: GeoPosition, radiusMeters: Double, minimumStamp: Int64? = nil, limit: Int,
        pageToken: String? = nil
    ) {
        self.scope = scope
        self.center = center
        self.radiusMeters = radiusMeters
        self.minimumStamp = minimumStamp
        self.limit = limit
        self.pageToken = pageToken
    }
}

/// A record found near the query's point.
public struct GeoHit<Value> {
    public let record: StoredRecord<Value>
    public let distanceMeters: Double
}

/// One page of a nearest-first query.
public struct GeoPage<Value> {
    public let hits: [GeoHit<Value>]
    public let nextPageToken: String?
}

extension Store {
    /// The records of `table` within the query's radius, nearest first (ties by identifier), one
    /// page at a time, read from one consistent snapshot.
    public func nearest<Value>(_ table: Table<Value>, _ geo: GeoIndex<Value>, _ query: GeoQuery) throws -> GeoPage<Value> {
        try guarded {
            try checkReadable(table, geo.index)
            let limit = max(1, min(query.limit, PageRequest.maximumSize))
            let scopePrefix = geo.index.queryPrefix(query.scope)
            let fingerprint = GeoCursor.fingerprint(scopePrefix: scopePrefix, query: query)
            let cursor = try query.pageToken.map { try GeoCursor(token: $0, fingerprint: fingerprint) }
            guard query.center.isValid, query.radiusMeters.isFinite, query.radiusMeters >= 0 else {
                return GeoPage(hits: [], nextPageToken: nil)
            }
            let snapshot = engine.snapshot()
            let iterator = engine.iterator(lower: scopePrefix, upper: KeySpace.upperBound(ofPrefix: scopePrefix), in: snapshot)
            let grid = geo.grid
            var search = GeoSearch(grid: grid, center: query.center, radius: query.radiusMeters, wanted: limit + 1)
            var seen = Set<RecordID>()
            var found = [(distance: Double, id: RecordID)]()
            while let ring = search.nextRing() {
                for segment in ring where segment.lowerBound <= query.radiusMeters {
                    try scan(iterator, grid: grid, scopePrefix: scopePrefix, segment: segment) { position, stamp, id in
                        if let minimum = query.minimumStamp, stamp < minimum { return }
                        let distance = GeoDistance.meters(query.center, position)
                        guard distance <= query.radiusMeters else { return }
                        if let cursor, !cursor.precedes(distance: distance, id: id) { return }
                        guard seen.insert(id).inserted else { return }
                        found.append((distance, id))
                    }
                }
                search.record(found: found.map(\.distance))
            }
            found.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.id < $1.id }
            let page = Array(found.prefix(limit))
            var hits = [GeoHit<Value>]()
            hits.reserveCapacity(page.count)
            let keys = table.recordKeys(page.map(\.id))
            try engine.readMany(flat: keys.flat, sizes: keys.sizes, in: snapshot) { i, bytes in
                if let bytes { hits.append(GeoHit(record: try table.decode(id: page[i].id, bytes), distanceMeters: page[i].distance)) }
            }
            let token = found.count > limit ? page.last.map { GeoCursor(distance: $0.distance, id: $0.id).token(fingerprint) } : nil
            return GeoPage(hits: hits, nextPageToken: token)
        }
    }

    /// Visits the entries of one row segment of cells.
    private func scan(
        _ iterator: any StoreIterator, grid: GeoGrid, scopePrefix: [UInt8], segment: GeoSearch.Segment,
        _ visit: (GeoPosition, Int64, RecordID) throws -> Void
    ) throws {
        var lower = scopePrefix
        KeyPart.int(grid.cell(row: segment.row, column: segment.firstColumn)).encode(into: &lower)
        var upper = scopePrefix
        KeyPart.int(grid.cell(row: segment.row, column: segment.lastColumn) + 1).encode(into: &upper)
        let offset = scopePrefix.count + 8
        iterator.seek(lower)
        while iterator.isValid {
            let key = iterator.keyBuffer
            guard key.lexicographicallyPrecedes(upper) else { break }
            // Entries of a longer scope that starts with this one are not this query's.
            guard key.count == offset + 40 else {
                iterator.next()
                continue
            }
            let position = GeoPosition(
                latitude: Double(bitPattern: KeySpace.readUInt64(key, at: offset)),
                longitude: Double(bitPattern: KeySpace.readUInt64(key, at: offset + 8)))
            let stamp = Int64(bitPattern: KeySpace.readUInt64(key, at: offset + 16) ^ (1 << 63))
            if let id = KeySpace.trailingID(of: key) { try visit(position, stamp, id) }
            iterator.next()
        }
        try iterator.checkError()
    }
}

/// The side of a geospatial index's cells at the equator (narrower towards the poles).
public enum GeoCellSize: Int, Sendable {
    /// 2¹⁵ rows of latitude and 2¹⁶ columns of longitude: for up to a few entries per cell.
    case meters610 = 15
    /// 2¹⁷ rows and 2¹⁸ columns: for dense places (hundreds of entries a square kilometre).
    case meters153 = 17
}

/// The grid behind a `GeoIndex`: 2ⁿ rows of latitude and 2ⁿ⁺¹ columns of longitude.
struct GeoGrid: Sendable {
    let rows: Int
    let columns: Int
    let rowDegrees: Double
    let columnDegrees: Double

    init(_ size: GeoCellSize) {
        rows = 1 << size.rawValue
        columns = 1 << (size.rawValue + 1)
        rowDegrees = 180.0 / Double(rows)
        columnDegrees = 360.0 / Double(columns)
    }

    func row(_ latitude: Double) -> Int { min(rows - 1, max(0, Int(((latitude + 90) / rowDegrees).rounded(.down)))) }
    func column(_ longitude: Double) -> Int { wrap(Int(((longitude + 180) / columnDegrees).rounded(.down))) }
    func wrap(_ column: Int) -> Int { ((column % columns) + columns) % columns }
    /// Row-major: the column takes the low 20 bits, enough for 2¹⁹ columns.
    func cell(row: Int, column: Int) -> Int64 { Int64(row) << 20 | Int64(column) }
    func cell(_ position: GeoPosition) -> Int64 { cell(row: row(position.latitude), column: column(position.longitude)) }
}

/// The rings of cells a query reads, nearest first, and when it may stop.
struct GeoSearch {
    /// Cells `firstColumn...lastColumn` of one row (no wrap-around), and the least distance
    /// from the query's point to any position in them.
    struct Segment {
        let row: Int
        let firstColumn: Int
        let lastColumn: Int
        let lowerBound: Double
    }

    let grid: GeoGrid
    let center: GeoPosition
    let radius: Double
    let wanted: Int
    let centerRow: Int
    let centerColumn: Int
    private var ring = 0
    private var pending: [Segment]?
    private var done = false
    /// The `wanted`-th least distance found so far.
    private var boundOfFound = Double.infinity

    init(grid: GeoGrid, center: GeoPosition, radius: Double, wanted: Int) {
        self.grid = grid
        self.center = center
        self.radius = radius
        self.wanted = wanted
        centerRow = grid.row(center.latitude)
        centerColumn = grid.column(center.longitude)
    }

    /// Called after each ring with the distances found so far.
    mutating func record(found distances: [Double]) {
        guard distances.count >= wanted else { return }
        var sorted = distances
        sorted.sort()
        boundOfFound = sorted[wanted - 1]
    }

    /// The next ring's segments, or nil when no unread cell can hold a result: every unread cell
    /// lies beyond the radius, or beyond the `wanted` nearest already found. Ring k ≥ 1 is the
    /// square of half-width 2^(k-1) cells around the point minus the previous square; any path
    /// from the point to a cell outside the ring crosses the ring, so the least bound of a ring
    /// bounds every later ring too.
    mutating func nextRing() -> [Segment]? {
        guard !done else { return nil }
        let segments = segments(ofRing: ring)
        ring += 1
        let least = segments.map(\.lowerBound).min() ?? .infinity
        if segments.isEmpty || least > radius || least > boundOfFound {
            done = true
            return nil
        }
        return segments
    }

    private func segments(ofRing ring: Int) -> [Segment] {
        let half = ring == 0 ? 0 : 1 << (ring - 1)
        // The half-width of the square already read (-1: none).
        let inner = ring == 0 ? -1 : ring == 1 ? 0 : 1 << (ring - 2)
        let maxColumnHalf = grid.columns / 2
        // The whole grid is read: nothing left.
        if inner >= max(centerRow, grid.rows - 1 - centerRow) && inner >= maxColumnHalf { return [] }
        let columnHalf = min(half, maxColumnHalf)
        let innerColumnHalf = min(inner, maxColumnHalf)
        var segments = [Segment]()
        for row in max(0, centerRow - half)...min(grid.rows - 1, centerRow + half) {
            if abs(row - centerRow) > inner {
                append(row: row, from: centerColumn - columnHalf, through: centerColumn + columnHalf, to: &segments)
            } else if columnHalf > innerColumnHalf {
                append(row: row, from: centerColumn - columnHalf, through: centerColumn - innerColumnHalf - 1, to: &segments)
                append(row: row, from: centerColumn + innerColumnHalf + 1, through: centerColumn + columnHalf, to: &segments)
            }
        }
        return segments
    }

    /// Adds the columns `first...last` (unwrapped) of a row, split where they wrap around.
    private func append(row: Int, from first: Int, through last: Int, to segments: inout [Segment]) {
        guard first <= last else { return }
        if last - first + 1 >= grid.columns {
            segments.append(segment(row: row, 0, grid.columns - 1))
            return
        }
        let a = grid.wrap(first)
        let b = grid.wrap(last)
        if a <= b {
            segments.append(segment(row: row, a, b))
        } else {
            segments.append(segment(row: row, a, grid.columns - 1))
            segments.append(segment(row: row, 0, b))
        }
    }

    /// hav(d) = hav(Δφ) + cos φ₁ cos φ₂ hav(Δλ): each term is bounded below over the cells' band
    /// of latitudes and longitudes, which bounds the distance below.
    private func segment(row: Int, _ first: Int, _ last: Int) -> Segment {
        let south = Double(row) * grid.rowDegrees - 90
        let north = south + grid.rowDegrees
        let west = Double(first) * grid.columnDegrees - 180
        let east = Double(last + 1) * grid.columnDegrees - 180
        let latitudeGap = max(0, south - center.latitude, center.latitude - north)
        let longitudeGap = Self.gap(center.longitude, west: west, east: east)
        let cosines = cos(GeoDistance.radians(center.latitude))
            * min(cos(GeoDistance.radians(south)), cos(GeoDistance.radians(north)))
        let h = GeoDistance.haversine(latitude: GeoDistance.radians(latitudeGap))
            + max(0, cosines) * GeoDistance.haversine(latitude: GeoDistance.radians(longitudeGap))
        return Segment(row: row, firstColumn: first, lastColumn: last, lowerBound: GeoDistance.meters(haversine: h))
    }

    /// Degrees from a longitude to the band west...east, around the shorter way.
    static func gap(_ longitude: Double, west: Double, east: Double) -> Double {
        if longitude >= west && longitude <= east { return 0 }
        func around(_ a: Double, _ b: Double) -> Double {
            let d = abs(a - b).truncatingRemainder(dividingBy: 360)
            return min(d, 360 - d)
        }
        return min(around(longitude, west), around(longitude, east))
    }
}

/// Where a page of a nearest-first query ended: the last hit's distance and identifier, bound to
/// the query (index, scope, point and radius) by a checksum.
struct GeoCursor {
    let distance: Double
    let id: RecordID

    init(distance: Double, id: RecordID) {
        self.distance = distance
        self.id = id
    }

    init(token: String, fingerprint: UInt32) throws {
        guard let bytes = Base64URL.decode(token), bytes.count == 29, bytes[0] == 2 else { throw StoreError.invalidPageToken }
        let check = UInt32(bytes[1]) << 24 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 8 | UInt32(bytes[4])
        guard check == fingerprint, let id = RecordID(bytes: bytes[13...]) else { throw StoreError.invalidPageToken }
        let distance = bytes.withUnsafeBytes { Double(bitPattern: KeySpace.readUInt64($0, at: 5)) }
        guard distance.isFinite, distance >= 0 else { throw StoreError.invalidPageToken }
        self.distance = distance
        self.id = id
    }

    func token(_ fingerprint: UInt32) -> String {
        var bytes: [UInt8] = [2, UInt8(fingerprint >> 24 & 0xFF), UInt8(fingerprint >> 16 & 0xFF), UInt8(fingerprint >> 8 & 0xFF), UInt8(fingerprint & 0xFF)]
        KeySpace.appendUInt64(distance.bitPattern, to: &bytes)
        id.appendBytes(to: &bytes)
        return Base64URL.encode(bytes)
    }

    /// Whether a hit comes after this cursor.
    func precedes(distance other: Double, id otherID: RecordID) -> Bool {
        distance < other || (distance == other && id < otherID)
    }

    static func fingerprint(scopePrefix: [UInt8], query: GeoQuery) -> UInt32 {
        var bytes = scopePrefix
        KeySpace.appendUInt64(query.center.latitude.bitPattern, to: &bytes)
        KeySpace.appendUInt64(query.center.longitude.bitPattern, to: &bytes)
        KeySpace.appendUInt64(query.radiusMeters.bitPattern, to: &bytes)
        return bytes.withUnsafeBytes { CRC32C.checksum($0) }
    }
}

extension Transaction {
    /// `Store.nearest` from inside a transaction: the committed entries, read without a lock
    /// (a caller locks the record it picks, and checks it again under the lock).
    public func nearest<Value>(_ table: Table<Value>, _ geo: GeoIndex<Value>, _ query: GeoQuery) throws -> GeoPage<Value> {
        try store.nearest(table, geo, query)
    }
}
