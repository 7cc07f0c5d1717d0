import CProtobufC
import SoukProtoC

// google/protobuf/wrappers.proto: messages holding one `value`, the way to give a proto3 scalar
// field presence (protoc-c 1.4 does not support proto3 `optional`). In Swift such a field is an
// Optional of the plain value:
//
//     c.nickname = arena.wrapped(nickname)                       // String? → StringValue*
//     nickname = try Unpacked.wrapped(c.nickname, "nickname")   // StringValue* → String?

/// A protobuf-c struct of one of the well-known wrapper messages.
protocol WellKnownWrapperStruct {
    /// The Swift type of its `value`.
    associatedtype Value
    static func initialise(_ c: UnsafeMutablePointer<Self>)
    func read() throws -> Value
    mutating func write(_ value: Value, _ arena: inout EncodingArena)
}

/// Mirrors a wrapper message so the message helpers can pack and unpack it.
struct WrapperMirror<C: WellKnownWrapperStruct>: CStructConvertible {
    var value: C.Value

    init(_ value: C.Value) {
        self.value = value
    }

    static func cInit(_ c: UnsafeMutablePointer<C>) { C.initialise(c) }

    init(c: C) throws {
        value = try c.read()
    }

    func fill(_ c: inout C, _ arena: inout EncodingArena) {
        c.write(value, &arena)
    }
}

extension EncodingArena {
    /// A wrapper-message field (`google.protobuf.StringValue` and the like): NULL when `value` is nil.
    mutating func wrapped<C: WellKnownWrapperStruct>(_ value: C.Value?) -> UnsafeMutablePointer<C>? {
        guard let value else { return nil }
        return cStruct(WrapperMirror<C>(value))
    }
}

extension Unpacked {
    /// A wrapper-message field; nil when absent.
    static func wrapped<C: WellKnownWrapperStruct>(_ c: UnsafePointer<C>?, _ field: String) throws -> C.Value? {
        let mirror: WrapperMirror<C>? = try message(c, field)
        return mirror?.value
    }
}

/// Wrappers whose C `value` is already the Swift value.
protocol PlainWellKnownWrapperStruct: WellKnownWrapperStruct {
    var value: Value { get set }
}

extension PlainWellKnownWrapperStruct {
    func read() throws -> Value { value }
    mutating func write(_ value: Value, _ arena: inout EncodingArena) { self.value = value }
}

extension Google__Protobuf__DoubleValue: PlainWellKnownWrapperStruct {
    typealias Value = Double
    static func initialise(_ c: UnsafeMutablePointer<Self>) { google__protobuf__double_value__init(c) }
}

extension Google__Protobuf__FloatValue: PlainWellKnownWrapperStruct {
    typealias Value = Float
    static func initialise(_ c: UnsafeMutablePointer<Self>) { google__protobuf__float_value__init(c) }
}

extension Google__Protobuf__Int64Value: PlainWellKnownWrapperStruct {
    typealias Value = Int64
    static func initialise(_ c: UnsafeMutablePointer<Self>) { google__protobuf__int64_value__init(c) }
}

extension Google__Protobuf__UInt64Value: PlainWellKnownWrapperStruct {
    typealias Value = UInt64
    static func initialise(_ c: UnsafeMutablePointer<Self>) { google__protobuf__uint64_value__init(c) }
}

extension Google__Protobuf__Int32Value: PlainWellKnownWrapperStruct {
    typealias Value = Int32
    static func initialise(_ c: UnsafeMutablePointer<Self>) { google__protobuf__int32_value__init(c) }
}

extension Google__Protobuf__UInt32Value: PlainWellKnownWrapperStruct {
    typealias Value = UInt32
    static func initialise(_ c: UnsafeMutablePointer<Self>) { google__protobuf__uint32_value__init(c) }
}

extension Google__Protobuf__BoolValue: WellKnownWrapperStruct {
    static func initialise(_ c: UnsafeMutablePointer<Self>) { google__protobuf__bool_value__init(c) }
    func read() throws -> Bool { value != 0 }
    mutating func write(_ value: Bool, _ arena: inout EncodingArena) { self.value = value ? 1 : 0 }
}

extension Google__Protobuf__StringValue: WellKnownWrapperStruct {
    static func initialise(_ c: UnsafeMutablePointer<Self>) { google__protobuf__string_value__init(c) }
    func read() throws -> String { try Unpacked.string(value, "value") }
    mutating func write(_ value: String, _ arena: inout EncodingArena) { self.value = arena.string(value) }
}

extension Google__Protobuf__BytesValue: WellKnownWrapperStruct {
    static func initialise(_ c: UnsafeMutablePointer<Self>) { google__protobuf__bytes_value__init(c) }
    func read() throws -> [UInt8] { Unpacked.bytes(value) }
    mutating func write(_ value: [UInt8], _ arena: inout EncodingArena) { self.value = arena.bytes(value) }
}
