import SoukProtoC

/// The leading comments of each RPC in the embedded descriptor set's source info, by method path
/// (`/souk.v1.Orders/WatchOrder`): SoukJSON's registry keeps types only, so `souk describe` reads
/// the few fields it needs here with a minimal protobuf reader.
enum MethodComments {
    static let all: [String: String] = {
        let bytes = UnsafeRawBufferPointer(start: souk_descriptor_set_bytes(), count: souk_descriptor_set_length())
        var result: [String: String] = [:]
        for file in fields(bytes) where file.number == 1 {  // FileDescriptorSet.file
            guard case .bytes(let f) = file.value else { continue }
            var package = ""
            var services: [(name: String, methods: [String])] = []
            var comments: [[Int]: String] = [:]
            for field in fields(f) {
                switch (field.number, field.value) {
                case (2, .bytes(let b)): package = String(decoding: b, as: UTF8.self)
                case (6, .bytes(let s)):  // FileDescriptorProto.service
                    var name = ""
                    var methods: [String] = []
                    for sf in fields(s) {
                        if sf.number == 1, case .bytes(let b) = sf.value { name = String(decoding: b, as: UTF8.self) }
                        if sf.number == 2, case .bytes(let m) = sf.value {
                            let methodName = fields(m).first { $0.number == 1 }.flatMap { if case .bytes(let b) = $0.value { String(decoding: b, as: UTF8.self) } else { nil } }
                            methods.append(methodName ?? "")
                        }
                    }
                    services.append((name, methods))
                case (9, .bytes(let info)):  // source_code_info
                    for location in fields(info) where location.number == 1 {
                        guard case .bytes(let l) = location.value else { continue }
                        var path: [Int] = []
                        var leading = ""
                        for lf in fields(l) {
                            switch (lf.number, lf.value) {
                            case (1, .bytes(let packed)): path = varints(packed)
                            case (1, .varint(let v)): path.append(Int(v))
                            case (3, .bytes(let b)): leading = String(decoding: b, as: UTF8.self)
                            default: break
                            }
                        }
                        if path.count == 4, path[0] == 6, path[2] == 2 { comments[path] = leading }
                    }
                default: break
                }
            }
            for (s, service) in services.enumerated() {
                for (m, method) in service.methods.enumerated() {
                    if let comment = comments[[6, s, 2, m]] {
                        result["/\(package.isEmpty ? "" : package + ".")\(service.name)/\(method)"] = comment
                    }
                }
            }
        }
        return result
    }()

    /// The `Access:` line of a method's comment (without the prefix), if it has one.
    static func access(_ path: String) -> String? {
        guard let comment = all[path] else { return nil }
        for line in comment.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("Access:") { return trimmed.dropFirst("Access:".count).trimmingCharacters(in: .whitespaces) }
        }
        return nil
    }

    enum Value {
        case varint(UInt64)
        case bytes(UnsafeRawBufferPointer)
        case other
    }

    /// The fields of one message; stops quietly at malformed bytes (the set is our own build output).
    static func fields(_ bytes: UnsafeRawBufferPointer) -> [(number: Int, value: Value)] {
        var out: [(Int, Value)] = []
        var i = 0
        func varint() -> UInt64? {
            var result: UInt64 = 0
            var shift: UInt64 = 0
            while i < bytes.count, shift < 64 {
                let byte = bytes[i]
                i += 1
                result |= UInt64(byte & 0x7f) << shift
                if byte & 0x80 == 0 { return result }
                shift += 7
            }
            return nil
        }
        while i < bytes.count {
            guard let key = varint() else { break }
            let number = Int(key >> 3)
            switch key & 7 {
            case 0:
                guard let v = varint() else { return out }
                out.append((number, .varint(v)))
            case 1: i += 8; out.append((number, .other))
            case 5: i += 4; out.append((number, .other))
            case 2:
                guard let length = varint(), i + Int(length) <= bytes.count else { return out }
                out.append((number, .bytes(UnsafeRawBufferPointer(rebasing: bytes[i..<(i + Int(length))]))))
                i += Int(length)
            default: return out
            }
        }
        return out
    }

    static func varints(_ bytes: UnsafeRawBufferPointer) -> [Int] {
        var out: [Int] = []
        var value = 0
        var shift = 0
        for byte in bytes {
            value |= Int(byte & 0x7f) << shift
            if byte & 0x80 == 0 { out.append(value); value = 0; shift = 0 } else { shift += 7 }
        }
        return out
    }
}
