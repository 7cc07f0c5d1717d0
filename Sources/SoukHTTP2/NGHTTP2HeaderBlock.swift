import CNGHTTP2

/// Turns `[HTTP2Header]` into the `nghttp2_nv` array nghttp2's submit functions take. nghttp2 copies
/// names and values during the submit, so the array is only borrowed for that call. One per
/// connection; touched only on its event loop.
///
/// Most responses send the same constant arrays (`:status 200` with the content type, then
/// `grpc-status 0`), so the last few arrays converted are kept, each with the array it came from:
/// handing over the same array again costs a pointer compare instead of copying every name and value.
final class NGHTTP2HeaderBlock {
    private static let slotCount = 4
    /// Empty until the first conversion, so that a connection that never answers costs little.
    private var slots: [Converted] = []
    /// The slot the next array not found is converted into (round robin).
    private var nextSlot = 0

    /// One converted array: `fields` point into `bytes`.
    private struct Converted {
        /// The array converted, held so that its storage, whose address identifies it, stays alive
        /// and unchanged (a mutation of a shared array copies it to new storage).
        var source: [HTTP2Header] = []
        var identity: UnsafeRawPointer?
        var bytes: UnsafeMutablePointer<UInt8>?
        var byteCapacity = 0
        var fields: UnsafeMutablePointer<nghttp2_nv>?
        var fieldCapacity = 0
    }

    init() {}

    deinit {
        for slot in slots {
            slot.bytes?.deallocate()
            slot.fields?.deallocate()
        }
    }

    /// Calls `body` with an `nghttp2_nv` array for `headers`, valid only during the call.
    func withNameValues<R>(_ headers: [HTTP2Header], _ body: (UnsafePointer<nghttp2_nv>, Int) -> R) -> R {
        let identity = headers.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
        for index in slots.indices where slots[index].identity == identity && identity != nil {
            return body(slots[index].fields!, headers.count)
        }
        if slots.isEmpty { slots = Array(repeating: Converted(), count: Self.slotCount) }
        let index = nextSlot
        nextSlot = (nextSlot + 1) % Self.slotCount
        convert(headers, into: &slots[index])
        slots[index].source = headers
        slots[index].identity = identity
        return body(slots[index].fields!, headers.count)
    }

    private func convert(_ headers: [HTTP2Header], into slot: inout Converted) {
        // Through the buffer the headers are borrowed where they lie, without a retain per string.
        headers.withUnsafeBufferPointer { headers in
            var total = 0
            for index in headers.indices {
                total += headers[index].name.utf8.count + headers[index].value.utf8.count
            }
            let (bytes, fields) = reserve(&slot, bytes: total, fields: headers.count)
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
        }
    }

    /// The slot's buffers, grown to hold `needed` bytes and `neededFields` fields.
    private func reserve(
        _ slot: inout Converted, bytes needed: Int, fields neededFields: Int
    ) -> (UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<nghttp2_nv>) {
        if slot.bytes == nil || needed > slot.byteCapacity {
            slot.bytes?.deallocate()
            // Enough for a gRPC response's headers; grown for larger blocks.
            slot.byteCapacity = max(needed, 2 * slot.byteCapacity, 128)
            slot.bytes = .allocate(capacity: slot.byteCapacity)
        }
        if slot.fields == nil || neededFields > slot.fieldCapacity {
            slot.fields?.deallocate()
            slot.fieldCapacity = max(neededFields, 2 * slot.fieldCapacity, 4)
            slot.fields = .allocate(capacity: slot.fieldCapacity)
        }
        return (slot.bytes!, slot.fields!)
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
