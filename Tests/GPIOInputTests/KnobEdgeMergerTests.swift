// KnobEdgeMergerTests: two lines' edges, read in batches, merged into detent steps.
import BoothTestSupport
import BoothTime
import Testing

@testable import GPIOInput

private let ms: Int64 = 1_000_000

/// The instant `nanoseconds` after the clock's origin.
private func t(_ nanoseconds: Int64) -> Instant { Instant(nanoseconds: nanoseconds) }

/// The edges of `detents` full-step detents from rest at 11, `gap` apart, starting at `start`:
/// clockwise (A leads) A falls, B falls, A rises, B rises; counter-clockwise B leads.
private func detentEdges(
    _ detents: Int, clockwise: Bool = true, start: Int64 = 10 * ms, gap: Int64 = 5 * ms
) -> [KnobEdgeMerger.Edge] {
    let first: KnobEdgeMerger.Line = clockwise ? .a : .b
    let second: KnobEdgeMerger.Line = clockwise ? .b : .a
    let cycle: [(KnobEdgeMerger.Line, Bool)] = [(first, false), (second, false), (first, true), (second, true)]
    return (0..<(detents * 4)).map { index in
        let (line, level) = cycle[index % 4]
        return KnobEdgeMerger.Edge(line: line, level: level, time: t(start + Int64(index) * gap))
    }
}

@Suite struct KnobEdgeMergerTests {
    @Test("one read after a detent: one step, both directions, stamped with the completing edge")
    func oneDetent() {
        for clockwise in [true, false] {
            var merger = KnobEdgeMerger(mode: .fullStep, a: true, b: true)
            let steps = merger.read(detentEdges(1, clockwise: clockwise), readBegan: t(100 * ms))
            #expect(steps == [.init(steps: clockwise ? 1 : -1, time: t(25 * ms))])
            #expect(!merger.hasPending)
        }
    }

    @Test("the two lines' edges arrive in separate batches: merged by kernel time")
    func linesInSeparateBatches() {
        var merger = KnobEdgeMerger(mode: .fullStep, a: true, b: true)
        let edges = detentEdges(1)
        #expect(merger.read(edges.filter { $0.line == .a }, readBegan: t(5 * ms)).isEmpty)
        #expect(merger.hasPending)
        #expect(merger.read(edges.filter { $0.line == .b }, readBegan: t(100 * ms)).count == 1)
        #expect(!merger.hasPending)
    }

    @Test("edges newer than the read wait for the next read and are then decoded")
    func newerEdgesWait() {
        var merger = KnobEdgeMerger(mode: .fullStep, a: true, b: true)
        let edges = detentEdges(1)
        #expect(merger.read(edges, readBegan: t(21 * ms)).isEmpty)
        #expect(merger.hasPending)
        #expect(merger.read([], readBegan: t(23 * ms)).isEmpty)
        #expect(merger.read([], readBegan: t(26 * ms)) == [.init(steps: 1, time: t(25 * ms))])
        #expect(!merger.hasPending)
    }

    @Test("bounce on one contact cancels out; a spin of 100 detents each way gives 100 steps each way")
    func bounceAndSpin() {
        var merger = KnobEdgeMerger(mode: .fullStep, a: true, b: true)
        let bounce = [
            KnobEdgeMerger.Edge(line: .a, level: false, time: t(1 * ms)),
            KnobEdgeMerger.Edge(line: .a, level: true, time: t(2 * ms)),
        ]
        #expect(merger.read(bounce, readBegan: t(3 * ms)).isEmpty)
        let forward = merger.read(detentEdges(100), readBegan: t(10_000 * ms))
        #expect(forward.map(\.steps) == Array(repeating: 1, count: 100))
        let back = merger.read(detentEdges(100, clockwise: false, start: 20_000 * ms), readBegan: t(30_000 * ms))
        #expect(back.map(\.steps) == Array(repeating: -1, count: 100))
    }

    @Test("v1: A's edge is queued after B's later edge (each line has its own IRQ thread); still one step")
    func lateEdgeFromTheOtherLine() {
        // gpiolib-cdev v1 stamps an edge in the hard IRQ handler but queues it from the line's own
        // IRQ thread, so under load A's fall (10 ms) can reach its fifo after B's fall (15 ms) was
        // queued and read: B's edge is older than the read and is decoded first.
        for clockwise in [true, false] {
            var merger = KnobEdgeMerger(mode: .fullStep, a: true, b: true)
            let edges = detentEdges(1, clockwise: clockwise)
            var steps = merger.read([edges[1]], readBegan: t(16 * ms))
            steps += merger.read([edges[0]], readBegan: t(17 * ms))
            steps += merger.read([edges[2], edges[3]], readBegan: t(100 * ms))
            #expect(steps.map(\.steps) == [clockwise ? 1 : -1], "clockwise \(clockwise)")
        }
    }

    @Test(
        "fast spins with chatter, per-line queueing delays and random read splits: no detent lost or invented",
        arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func fastSpins(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        // The physical signal: runs of detents each way, 1-10 ms between transitions, chatter.
        var edges: [KnobEdgeMerger.Edge] = []
        var expected: [Int] = []
        var now: Int64 = 10 * ms
        while expected.count < 2000 {
            let clockwise = Bool.random(using: &random)
            for _ in 0..<Int.random(in: 1...40, using: &random) {
                expected.append(clockwise ? 1 : -1)
                for edge in detentEdges(1, clockwise: clockwise, start: 0, gap: 0) {
                    now += Int64.random(in: (1 * ms)...(10 * ms), using: &random)
                    if Int.random(in: 0..<4, using: &random) == 0 {
                        for _ in 0..<Int.random(in: 1...3, using: &random) {
                            edges.append(.init(line: edge.line, level: edge.level, time: t(now)))
                            now += Int64.random(in: 20_000...100_000, using: &random)
                            edges.append(.init(line: edge.line, level: !edge.level, time: t(now)))
                            now += Int64.random(in: 20_000...100_000, using: &random)
                        }
                    }
                    edges.append(.init(line: edge.line, level: edge.level, time: t(now)))
                }
            }
        }
        // Each line's IRQ thread queues its edges in order, up to 4 ms after their timestamps.
        var queuedAt: [Int64] = []
        var lastQueued: [KnobEdgeMerger.Line: Int64] = [.a: 0, .b: 0]
        for edge in edges {
            let at = max(
                lastQueued[edge.line]!, edge.time.nanoseconds + Int64.random(in: 0...(4 * ms), using: &random))
            lastQueued[edge.line] = at
            queuedAt.append(at)
        }
        // Reads at random moments; B's descriptor is read a little after A's.
        var merger = KnobEdgeMerger(mode: .fullStep, a: true, b: true)
        let byLine: [KnobEdgeMerger.Line: [Int]] = [
            .a: edges.indices.filter { edges[$0].line == .a }, .b: edges.indices.filter { edges[$0].line == .b },
        ]
        var next: [KnobEdgeMerger.Line: Int] = [.a: 0, .b: 0]
        var steps: [Int] = []
        var readAt: Int64 = 10 * ms
        while next[.a]! < byLine[.a]!.count || next[.b]! < byLine[.b]!.count || merger.hasPending {
            readAt += Int64.random(in: 100_000...(8 * ms), using: &random)
            var batch: [KnobEdgeMerger.Edge] = []
            for line in [KnobEdgeMerger.Line.a, .b] {
                let readsAt = readAt + (line == .b ? Int64.random(in: 0...200_000, using: &random) : 0)
                while next[line]! < byLine[line]!.count, queuedAt[byLine[line]![next[line]!]] <= readsAt {
                    batch.append(edges[byLine[line]![next[line]!]])
                    next[line]! += 1
                }
            }
            steps += merger.read(batch, readBegan: t(readAt)).map(\.steps)
        }
        let firstDifference = zip(steps, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(steps.count == expected.count)
        #expect(firstDifference == nil)
    }
}
