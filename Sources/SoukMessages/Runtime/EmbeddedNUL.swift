import CProtobufC

// protobuf-c keeps strings as C strings, so a string that holds a NUL character would silently
// end there ("Ann\0e" arrives as "Ann"). This scan finds such strings in the packed bytes, so a
// server can refuse them instead of acting on a truncated value.

extension ProtoMessage {
    /// The path of the first string field (nested messages and repeated fields included, for
    /// example `account.given_name` or `lines[2].note`) whose value holds a NUL character;
    /// nil when there is none, when the type is not a protobuf-c wrapper, or when the bytes are
    /// not well-formed (decoding reports that).
    public static func stringFieldContainingNUL(in bytes: UnsafeRawBufferPointer) -> String? {
        guard let readable = Self.self as? any CStructReadable.Type else { return nil }
        var reader = NULScanner(bytes: bytes)
        return reader.scan(readable.cDescriptor, end: bytes.count, path: "")
    }
}

// Positions in protobuf-c's ProtobufCLabel and ProtobufCType enums (protobuf-c.h), which Swift
// imports without their case names.
private let repeatedLabel: UInt32 = 2  // PROTOBUF_C_LABEL_REPEATED
private let stringType: UInt32 = 14  // PROTOBUF_C_TYPE_STRING
private let messageType: UInt32 = 16  // PROTOBUF_C_TYPE_MESSAGE

/// Walks the wire format alongside a protobuf-c descriptor.
private struct NULScanner {
    let bytes: UnsafeRawBufferPointer
    var position = 0

    mutating func scan(_ descriptor: UnsafePointer<ProtobufCMessageDescriptor>, end: Int, path: String) -> String? {
        var occurrences: [UInt32: Int] = [:]
        while position < end {
            guard let tag = varint() else { return nil }
            let number = UInt32(truncatingIfNeeded: tag >> 3)
            switch tag & 7 {
            case 0:
                guard varint() != nil else { return nil }
            case 1:
                position += 8
            case 5:
                position += 4
            case 2:
                guard let length = varint(), length <= UInt64(end - position) else { return nil }
                let start = position
                let stop = position + Int(length)
                if let field = protobuf_c_message_descriptor_get_field(descriptor, number) {
                    var name = path.isEmpty ? String(cString: field.pointee.name) : "\(path).\(String(cString: field.pointee.name))"
                    if field.pointee.label.rawValue == repeatedLabel {
                        let index = occurrences[number, default: 0]
                        occurrences[number] = index + 1
                        name += "[\(index)]"
                    }
                    switch field.pointee.type.rawValue {
                    case stringType:
                        if UnsafeRawBufferPointer(rebasing: bytes[start..<stop]).contains(0) { return name }
                    case messageType:
                        if let nested = field.pointee.descriptor?.assumingMemoryBound(to: ProtobufCMessageDescriptor.self),
                           let found = scan(nested, end: stop, path: name)
                        {
                            return found
                        }
                    default:
                        break
                    }
                }
                position = stop
            default:
                return nil
            }
            guard position <= end else { return nil }
        }
        return nil
    }

    mutating func varint() -> UInt64? {
        var value: UInt64 = 0
        for shift in stride(from: 0, to: 64, by: 7) {
            guard position < bytes.count else { return nil }
            let byte = bytes[position]
            position += 1
            value |= UInt64(byte & 0x7F) << UInt64(shift)
            if byte & 0x80 == 0 { return value }
        }
        return nil
    }
}
