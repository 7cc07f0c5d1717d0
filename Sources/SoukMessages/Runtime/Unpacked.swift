import CProtobufC

/// Reads the fields of an unpacked protobuf-c struct into Swift values. Each function takes the
/// field's name so an error can say which field was wrong.
enum Unpacked {
    /// A string field. protobuf-c does not check UTF-8, so this does (proto3 requires it).
    /// Limitation of protobuf-c: a string ends at its first NUL character.
    static func string(_ c: UnsafePointer<CChar>?, _ field: String) throws -> String {
        guard let c else { return "" }
        if c.pointee == 0 { return "" }
        guard let string = String(validatingCString: c) else {
            throw FieldError(field, "is not valid UTF-8")
        }
        return string
    }

    /// A bytes field: the array protobuf-c unpacked it into when it is large (see `LargeBlocks`),
    /// else a copy.
    static func bytes(_ c: ProtobufCBinaryData) -> [UInt8] {
        guard c.len > 0, let data = c.data else { return [] }
        if c.len >= LargeBlocks.threshold, let array = LargeBlocks.take(data, count: c.len) {
            return array
        }
        return Array(UnsafeBufferPointer(start: data, count: c.len))
    }

    /// A message field; nil when absent.
    static func message<M: CStructReadable>(_ c: UnsafePointer<M.CStruct>?, _ field: String) throws -> M? {
        guard let c else { return nil }
        do {
            return try M(c: c.pointee)
        } catch let error as FieldError {
            throw error.inside(field)
        }
    }

    /// A repeated message field.
    static func messages<M: CStructReadable>(
        _ count: Int, _ c: UnsafePointer<UnsafeMutablePointer<M.CStruct>?>?, _ field: String
    ) throws -> [M] {
        guard count > 0, let c else { return [] }
        var result: [M] = []
        result.reserveCapacity(count)
        for index in 0..<count {
            guard let element = c[index] else { continue }
            do {
                result.append(try M(c: element.pointee))
            } catch let error as FieldError {
                throw error.inside("\(field)[\(index)]")
            }
        }
        return result
    }

    /// A repeated string field.
    static func strings(_ count: Int, _ c: UnsafePointer<UnsafeMutablePointer<CChar>?>?, _ field: String) throws -> [String] {
        guard count > 0, let c else { return [] }
        var result: [String] = []
        result.reserveCapacity(count)
        for index in 0..<count {
            result.append(try string(c[index], "\(field)[\(index)]"))
        }
        return result
    }

    /// A repeated bytes field.
    static func bytesList(_ count: Int, _ c: UnsafePointer<ProtobufCBinaryData>?) -> [[UInt8]] {
        guard count > 0, let c else { return [] }
        return (0..<count).map { bytes(c[$0]) }
    }

    /// A repeated scalar field (integers, floats, bools).
    static func values<T: BitwiseCopyable>(_ count: Int, _ c: UnsafePointer<T>?) -> [T] {
        guard count > 0, let c else { return [] }
        return Array(UnsafeBufferPointer(start: c, count: count))
    }

    /// A repeated enum field.
    static func enumValues<E: ProtoEnum, C: RawRepresentable>(_ count: Int, _ c: UnsafePointer<C>?) -> [E]
    where C.RawValue: FixedWidthInteger {
        guard count > 0, let c else { return [] }
        return (0..<count).map { E(cValue: c[$0]) }
    }
}
