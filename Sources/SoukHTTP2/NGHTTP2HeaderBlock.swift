import CNGHTTP2

/// Turns `[HTTP2Header]` into the `nghttp2_nv` array nghttp2's submit functions take, in memory that
/// is reused from call to call (nghttp2 copies names and values during the submit, so the memory is
/// only borrowed for that call). One per connection; touched only on its event loop.
final class NGHTTP2HeaderBlock {
    private var bytes: UnsafeMutablePointer<UInt8>
    private var byteCapacity: Int
    private var fields: UnsafeMutablePointer<nghttp2_nv>
    private var fieldCapacity: Int

    init() {
        // Enough for a gRPC response's headers; grown for larger blocks.
        byteCapacity = 256
        bytes = .allocate(capacity: byteCapacity)
        fieldCapacity = 8
        fields = .allocate(capacity: fieldCapacity)
    }

    deinit {
        bytes.deallocate()
        fields.deallocate()
    }

    /// Calls `body` with an `nghttp2_nv` array for `headers`, valid only during the call.
    func withNameValues<R>(_ headers: [HTTP2Header], _ body: (UnsafePointer<nghttp2_nv>, Int) -> R) -> R {
        // Through the buffer the headers are borrowed where they lie, without a retain per string.
        headers.withUnsafeBufferPointer { headers in
            var total = 0
            for index in headers.indices {
                total += headers[index].name.utf8.count + headers[index].value.utf8.count
            }
            reserve(bytes: total, fields: headers.count)

            var offset = 0
            for index in headers.indices {
                let name = bytes + offset
                offset += copyUTF8(headers[index].name, to: name)
                let value = bytes + offset
                offset += copyUTF8(headers[index].value, to: value)
                fields[index] = nghttp2_nv(
                    name: name,
                    value: value,
                    namelen: value - name,
                    valuelen: (bytes + offset) - value,
                    flags: UInt8(NGHTTP2_NV_FLAG_NONE.rawValue)
                )
            }
            return body(fields, headers.count)
        }
    }

    private func reserve(bytes needed: Int, fields neededFields: Int) {
        if needed > byteCapacity {
            bytes.deallocate()
            byteCapacity = max(needed, byteCapacity * 2)
            bytes = .allocate(capacity: byteCapacity)
        }
        if neededFields > fieldCapacity {
            fields.deallocate()
            fieldCapacity = max(neededFields, fieldCapacity * 2)
            fields = .allocate(capacity: fieldCapacity)
        }
    }

    /// Copies the UTF-8 bytes of `string` to `destination`; returns how many were copied.
    private func copyUTF8(_ string: String, to destination: UnsafeMutablePointer<UInt8>) -> Int {
        if let count = string.utf8.withContiguousStorageIfAvailable({ utf8 -> Int in
            if let base = utf8.baseAddress { destination.update(from: base, count: utf8.count) }
            return utf8.count
        }) {
            return count
        }
        var count = 0
        for byte in string.utf8 {
            destination[count] = byte
            count += 1
        }
        return count
    }
}
