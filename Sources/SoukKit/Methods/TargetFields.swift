import SoukStore

extension FieldChecks {
    /// The record a transition or an edit names (`text` in request field `field`) and the
    /// version it expects, with the checks `more` records on the request's other fields: one
    /// INVALID_ARGUMENT naming every violation, or the id and the version (nil: any).
    public static func target(
        _ text: String, field: String, expectedVersion: Int64, more: (inout FieldChecks) throws -> Void = { _ in }
    ) throws -> (id: RecordID, expected: UInt64?) {
        var checks = FieldChecks()
        let id = try checks.run { try RequestFields.id(text, field: field) }
        let expected = try checks.run { try RequestFields.expectedVersion(expectedVersion) }
        try more(&checks)
        try checks.finish()
        return (id!, expected ?? nil)
    }
}
