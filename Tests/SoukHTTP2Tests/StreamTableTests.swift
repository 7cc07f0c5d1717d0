@testable import SoukHTTP2
import SoukTesting
import Testing

/// The stream table behaves as a dictionary from stream ID to stream.
@Suite("Stream table")
struct StreamTableTests {
    final class FakeStream: StreamIdentified {
        let streamID: Int32
        init(_ streamID: Int32) { self.streamID = streamID }
    }


    @Test func anEmptyTableHoldsNothing() {
        var table = StreamTable<FakeStream>()
        #expect(table.isEmpty)
        #expect(table[1] == nil)
        #expect(table.removeValue(forStreamID: 1) == nil)
        #expect(table.removeAll().isEmpty)
    }

    @Test func insertingAnIDAgainReplacesTheStream() {
        var table = StreamTable<FakeStream>()
        let first = FakeStream(5)
        let second = FakeStream(5)
        table.insert(first)
        table.insert(second)
        #expect(table.count == 1)
        #expect(table[5] === second)
    }

    /// Random inserts and removals, with IDs that collide in the table (same slot modulo the size)
    /// and IDs in a rising window as a client opens them, checked against a Dictionary after each step.
    @Test(arguments: [UInt64(1), 2, 3, 4])
    func randomOperationsMatchADictionary(seed: UInt64) {
        var generator = SplitMix(state: seed)
        var table = StreamTable<FakeStream>()
        var model: [Int32: FakeStream] = [:]
        var nextID: Int32 = 1
        for step in 0 ..< 10_000 {
            let roll = Int.random(in: 0 ..< 10, using: &generator)
            if roll < 4 || model.isEmpty {
                // A new stream, or now and then one far away whose slot collides with others.
                let id = roll == 0 ? Int32.random(in: 0 ..< 64, using: &generator) * 64 + 1 : nextID
                if id == nextID { nextID += 2 }
                let stream = FakeStream(id)
                table.insert(stream)
                model[id] = stream
            } else if roll < 8 {
                let id = model.keys.randomElement(using: &generator)!
                #expect(table.removeValue(forStreamID: id) === model.removeValue(forKey: id))
            } else {
                let id = Int32.random(in: 0 ..< nextID + 8, using: &generator)
                #expect(table.removeValue(forStreamID: id) === model.removeValue(forKey: id))
            }
            #expect(table.count == model.count)
            if step % 97 == 0 {
                for id in Int32(0) ..< nextID + 4 where table[id] !== model[id] {
                    Issue.record("step \(step): stream \(id) is \(String(describing: table[id]?.streamID))")
                }
            }
            for (id, stream) in model where table[id] !== stream {
                Issue.record("step \(step): stream \(id) not found")
                return
            }
        }
        let all = table.removeAll()
        #expect(Set(all.map(\.streamID)) == Set(model.keys))
        #expect(table.isEmpty)
    }
}
