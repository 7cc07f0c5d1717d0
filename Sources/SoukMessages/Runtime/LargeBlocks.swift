import CProtobufC
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Memory protobuf-c unpacks large fields into, made of Swift arrays, so that a large bytes field
/// becomes its wrapper's `[UInt8]` without a copy: `Unpacked.bytes` takes the array whose storage
/// the field's data is.
///
/// Blocks under `threshold` bytes come from `malloc`, as with protobuf-c's own allocator. Like
/// `EncodingArena`'s borrowed arrays, this relies on a native Swift array keeping its elements at one
/// address while any copy of it is alive.
enum LargeBlocks {
    /// Blocks of at least this many bytes are arrays.
    static let threshold = 16 * 1024

    /// Arrays by the address of their storage, from allocation until taken or freed.
    private static let arrays = Mutex<[UInt: [UInt8]]>([:])

    /// A new array of `size` bytes, registered under the address returned.
    static func allocate(_ size: Int) -> UnsafeMutableRawPointer {
        var array = [UInt8](unsafeUninitializedCapacity: size) { _, count in count = size }
        let base = array.withUnsafeMutableBytes { $0.baseAddress! }
        arrays.withLock { $0[UInt(bitPattern: base)] = array }
        return base
    }

    /// The array whose storage starts at `data` and holds `count` bytes, if it is a block not yet
    /// taken; from then on the array is the caller's.
    static func take(_ data: UnsafeRawPointer, count: Int) -> [UInt8]? {
        arrays.withLock { arrays in
            let key = UInt(bitPattern: data)
            guard arrays[key]?.count == count else { return nil }
            return arrays.removeValue(forKey: key)
        }
    }

    /// protobuf-c freed the block at `base`: the registry lets go of its array (if not taken).
    static func release(_ base: UnsafeMutableRawPointer) {
        _ = arrays.withLock { $0.removeValue(forKey: UInt(bitPattern: base)) }
    }

    /// Runs `body` with a protobuf-c allocator that makes large blocks arrays. The blocks of one
    /// unpack are listed (in memory of this call, so small unpacks take no lock and allocate nothing
    /// extra), so that freeing tells them from `malloc`'s. Free everything unpacked with this
    /// allocator before `body` returns.
    static func withAllocator<R>(_ body: (UnsafeMutablePointer<ProtobufCAllocator>) throws -> R) rethrows -> R {
        var blocks: [UInt] = []
        return try withUnsafeMutablePointer(to: &blocks) { blocks in
            var allocator = ProtobufCAllocator(alloc: allocateBlock, free: freeBlock, allocator_data: UnsafeMutableRawPointer(blocks))
            return try body(&allocator)
        }
    }
}

/// protobuf-c's `alloc`; `state` is the `[UInt]` of the unpack's large blocks.
private func allocateBlock(_ state: UnsafeMutableRawPointer?, _ size: Int) -> UnsafeMutableRawPointer? {
    guard size >= LargeBlocks.threshold, let state else { return malloc(size) }
    let block = LargeBlocks.allocate(size)
    state.assumingMemoryBound(to: [UInt].self).pointee.append(UInt(bitPattern: block))
    return block
}

/// protobuf-c's `free`: a large block leaves the registry (its array lives on if it was taken);
/// anything else goes back to `free`.
private func freeBlock(_ state: UnsafeMutableRawPointer?, _ pointer: UnsafeMutableRawPointer?) {
    guard let pointer else { return }
    if let blocks = state?.assumingMemoryBound(to: [UInt].self),
       let index = blocks.pointee.firstIndex(of: UInt(bitPattern: pointer)) {
        blocks.pointee.remove(at: index)
        LargeBlocks.release(pointer)
    } else {
        free(pointer)
    }
}
