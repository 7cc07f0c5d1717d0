/// A protobuf enum as a Swift enum. Proto3 enums are open: a value this build does not know is
/// kept as an `unrecognized(Int32)` case (by convention) so it survives a decode/encode round trip.
public protocol ProtoEnum: RawRepresentable, Sendable, Hashable where RawValue == Int32 {
    /// Every value, known or not, maps to a case.
    init(rawValue: Int32)
}

extension ProtoEnum {
    /// The Swift value of a protobuf-c enum field.
    init<C: RawRepresentable>(cValue: C) where C.RawValue: FixedWidthInteger {
        self.init(rawValue: Int32(truncatingIfNeeded: cValue.rawValue))
    }

    /// The protobuf-c enum value (unknown numbers are stored as they are, as protobuf-c does).
    func cValue<C: RawRepresentable>(_ type: C.Type = C.self) -> C where C.RawValue: FixedWidthInteger {
        // Imported C enums accept every raw value, so this never fails.
        C(rawValue: C.RawValue(truncatingIfNeeded: rawValue))!
    }
}
