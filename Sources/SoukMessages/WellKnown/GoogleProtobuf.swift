import CProtobufC
import SoukProtoC

/// Swift types for the `google.protobuf` well-known messages (see also `Timestamp`; durations are Swift `Duration`s).
public enum GoogleProtobuf {
    /// `google.protobuf.Any`: a packed message and the URL naming its type.
    public struct AnyMessage: Sendable, Hashable {
        /// For example `type.googleapis.com/google.rpc.BadRequest`.
        public var typeURL: String
        /// The packed message.
        public var value: [UInt8]

        public init(typeURL: String = "", value: [UInt8] = []) {
            self.typeURL = typeURL
            self.value = value
        }

        /// Packs `message` under the type URL `type.googleapis.com/<protoName>`.
        public init<M: ProtoMessage>(packing message: M) {
            self.init(typeURL: "type.googleapis.com/\(M.protoName)", value: message.encoded())
        }

        /// The type name: what follows the last `/` of the type URL.
        public var typeName: Substring {
            guard let slash = typeURL.lastIndex(of: "/") else { return typeURL[...] }
            return typeURL[typeURL.index(after: slash)...]
        }

        /// The packed message when it is an `M`, nil when it is another type.
        public func unpack<M: ProtoMessage>(_ type: M.Type) throws -> M? {
            guard typeName == M.protoName else { return nil }
            return try M(decoding: value)
        }
    }

    /// `google.protobuf.Empty`.
    public struct Empty: Sendable, Hashable {
        public init() {}
    }

    /// `google.protobuf.FieldMask`: the field paths an update touches.
    public struct FieldMask: Sendable, Hashable {
        /// For example `["display_name", "address.city"]`.
        public var paths: [String]

        public init(paths: [String] = []) {
            self.paths = paths
        }
    }
}

extension GoogleProtobuf.AnyMessage: CProtoMessage {
    public static var protoName: String { "google.protobuf.Any" }

    static func cInit(_ c: UnsafeMutablePointer<Google__Protobuf__Any>) {
        google__protobuf__any__init(c)
    }

    init(c: Google__Protobuf__Any) throws {
        self.init(typeURL: try Unpacked.string(c.type_url, "type_url"), value: Unpacked.bytes(c.value))
    }

    func fill(_ c: inout Google__Protobuf__Any, _ arena: inout EncodingArena) {
        c.type_url = arena.string(typeURL)
        c.value = arena.bytes(value)
    }
}

extension GoogleProtobuf.Empty: CProtoMessage {
    public static var protoName: String { "google.protobuf.Empty" }

    static func cInit(_ c: UnsafeMutablePointer<Google__Protobuf__Empty>) {
        google__protobuf__empty__init(c)
    }

    init(c: Google__Protobuf__Empty) throws {}

    func fill(_ c: inout Google__Protobuf__Empty, _ arena: inout EncodingArena) {}
}

extension GoogleProtobuf.FieldMask: CProtoMessage {
    public static var protoName: String { "google.protobuf.FieldMask" }

    static func cInit(_ c: UnsafeMutablePointer<Google__Protobuf__FieldMask>) {
        google__protobuf__field_mask__init(c)
    }

    init(c: Google__Protobuf__FieldMask) throws {
        self.init(paths: try Unpacked.strings(c.n_paths, c.paths, "paths"))
    }

    func fill(_ c: inout Google__Protobuf__FieldMask, _ arena: inout EncodingArena) {
        c.n_paths = paths.count
        c.paths = arena.strings(paths)
    }
}
