import CProtobufC
import SoukProtoC

extension Duration {
    /// Seconds and nanoseconds with the same sign, as `google.protobuf.Duration` holds them
    /// (sub-nanosecond parts are dropped).
    var protoComponents: (seconds: Int64, nanos: Int32) {
        var (seconds, attoseconds) = components
        var nanos = attoseconds / 1_000_000_000
        if seconds > 0 && nanos < 0 {
            seconds -= 1
            nanos += 1_000_000_000
        } else if seconds < 0 && nanos > 0 {
            seconds += 1
            nanos -= 1_000_000_000
        }
        return (seconds, Int32(nanos))
    }
}

/// `google.protobuf.Duration` fields are Swift `Duration`s; this mirrors the C struct.
struct DurationMirror: CStructConvertible {
    var value: Duration

    static func cInit(_ c: UnsafeMutablePointer<Google__Protobuf__Duration>) {
        google__protobuf__duration__init(c)
    }

    /// Nanos must be within ±999,999,999 and share the sign of seconds (as the well-known type requires).
    init(c: Google__Protobuf__Duration) throws {
        guard abs(Int64(c.nanos)) < 1_000_000_000, c.seconds == 0 || c.nanos == 0 || (c.seconds < 0) == (c.nanos < 0) else {
            throw FieldError("nanos", "is out of range (\(c.nanos) with seconds \(c.seconds))")
        }
        value = .seconds(c.seconds) + .nanoseconds(Int64(c.nanos))
    }

    init(_ value: Duration) {
        self.value = value
    }

    func fill(_ c: inout Google__Protobuf__Duration, _ arena: inout EncodingArena) {
        (c.seconds, c.nanos) = value.protoComponents
    }
}

extension EncodingArena {
    /// A `google.protobuf.Duration` field (NULL when absent).
    mutating func duration(_ value: Duration?) -> UnsafeMutablePointer<Google__Protobuf__Duration>? {
        message(value.map(DurationMirror.init))
    }
}

extension Unpacked {
    /// A `google.protobuf.Duration` field; nil when absent.
    static func duration(_ c: UnsafePointer<Google__Protobuf__Duration>?, _ field: String) throws -> Duration? {
        let mirror: DurationMirror? = try message(c, field)
        return mirror?.value
    }
}
