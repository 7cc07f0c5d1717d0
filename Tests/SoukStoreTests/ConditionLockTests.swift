import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import Testing
@testable import SoukStore

/// `ConditionLock`: a change wakes only the waiters whose condition it makes hold, each answered once.
@Suite struct ConditionLockTests {
    /// Eight threads wait to take a ticket; three tickets are handed out one at a time. Each
    /// ticket is taken by exactly one waiter (a condition run for a waiter by `broadcast` is never
    /// run again), in the order the waiters began; the others time out with nothing.
    @Test func eachChangeAnswersOnlyTheWaitersItSatisfies() {
        struct Tickets { var available = 0; var waiting = 0; var takers: [Int] = [] }
        let lock = ConditionLock(Tickets())
        let taken = Mutex<[Int]>([])
        let group = DispatchGroup()
        for waiter in 0..<8 {
            // Begin in order: each waiter is registered before the next starts.
            group.enter()
            Thread.detachNewThread {
                var first = true
                let ticket = lock.wait(seconds: 1) { state -> Int? in
                    if first {
                        first = false
                        state.waiting += 1
                    }
                    guard state.available > 0 else { return nil }
                    state.available -= 1
                    state.takers.append(waiter)
                    return waiter
                }
                if let ticket { taken.withLock { $0.append(ticket) } }
                group.leave()
            }
            while lock.withLock({ $0.waiting }) <= waiter { usleep(1_000) }
        }
        for _ in 0..<3 {
            lock.withLock { $0.available += 1 }
            lock.broadcast()
        }
        group.wait()
        #expect(lock.withLock { $0.takers } == [0, 1, 2])
        #expect(taken.withLock { $0 }.sorted() == [0, 1, 2])
        #expect(lock.withLock { $0.available } == 0)
    }

    /// A condition that holds at once answers without sleeping; one that never holds answers nil
    /// after its time, having run its condition once more at the end.
    @Test func answersAtOnceOrAfterTheTimeout() {
        let lock = ConditionLock(5)
        #expect(lock.wait(seconds: 10) { $0 > 3 ? $0 : nil } == 5)
        var runs = 0
        #expect(lock.wait(seconds: 0.05) { _ -> Int? in
            runs += 1
            return nil
        } == nil)
        #expect(runs == 2)
    }
}

/// `ByteKey` and `ByteOrder`: the same answers as `[UInt8]`'s own equality, hash and order.
@Suite struct ByteKeyTests {
    @Test func equalityAndOrderMatchTheArrays() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [UInt8] = [0, 1, 0x7f, 0x80, 0xff]
        let keys: [[UInt8]] = (0..<300).map { _ in
            (0..<Int.random(in: 0...4, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
        }
        for left in keys {
            for right in keys.prefix(60) {
                #expect((ByteKey(left) == ByteKey(right)) == (left == right))
                #expect(ByteOrder.precedes(left, right) == left.lexicographicallyPrecedes(right))
                if left == right { #expect(ByteKey(left).hashValue == ByteKey(right).hashValue) }
            }
        }
        #expect(Set(keys.map(ByteKey.init)).count == Set(keys).count)
    }
}
