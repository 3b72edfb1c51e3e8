// KnobEdgeMergerTests: two lines' edges, read in batches, merged into detent steps.
import Testing

@testable import GPIOInput

private let ms: UInt64 = 1_000_000

/// The edges of `detents` full-step detents from rest at 11, `gap` apart, starting at `start`:
/// clockwise (A leads) A falls, B falls, A rises, B rises; counter-clockwise B leads.
private func detentEdges(
    _ detents: Int, clockwise: Bool = true, start: UInt64 = 10 * ms, gap: UInt64 = 5 * ms
) -> [KnobEdgeMerger.Edge] {
    let first: KnobEdgeMerger.Line = clockwise ? .a : .b
    let second: KnobEdgeMerger.Line = clockwise ? .b : .a
    let cycle: [(KnobEdgeMerger.Line, Bool)] = [(first, false), (second, false), (first, true), (second, true)]
    return (0..<(detents * 4)).map { index in
        let (line, level) = cycle[index % 4]
        return KnobEdgeMerger.Edge(line: line, level: level, timestampNanoseconds: start + UInt64(index) * gap)
    }
}

@Suite struct KnobEdgeMergerTests {
    @Test("one read after a detent: one step, both directions, stamped with the completing edge")
    func oneDetent() {
        for clockwise in [true, false] {
            var merger = KnobEdgeMerger(mode: .fullStep, a: true, b: true)
            let steps = merger.read(detentEdges(1, clockwise: clockwise), readBegan: 100 * ms)
            #expect(steps == [.init(steps: clockwise ? 1 : -1, timestampNanoseconds: 25 * ms)])
            #expect(!merger.hasPending)
        }
    }

    @Test("the two lines' edges arrive in separate batches: merged by kernel time")
    func linesInSeparateBatches() {
        var merger = KnobEdgeMerger(mode: .fullStep, a: true, b: true)
        let edges = detentEdges(1)
        #expect(merger.read(edges.filter { $0.line == .a }, readBegan: 5 * ms).isEmpty)
        #expect(merger.hasPending)
        #expect(merger.read(edges.filter { $0.line == .b }, readBegan: 100 * ms).count == 1)
        #expect(!merger.hasPending)
    }

    @Test("edges newer than the read wait for the next read and are then decoded")
    func newerEdgesWait() {
        var merger = KnobEdgeMerger(mode: .fullStep, a: true, b: true)
        let edges = detentEdges(1)
        #expect(merger.read(edges, readBegan: 21 * ms).isEmpty)
        #expect(merger.hasPending)
        #expect(merger.read([], readBegan: 23 * ms).isEmpty)
        #expect(merger.read([], readBegan: 26 * ms) == [.init(steps: 1, timestampNanoseconds: 25 * ms)])
        #expect(!merger.hasPending)
    }

    @Test("bounce on one contact cancels out; a spin of 100 detents each way gives 100 steps each way")
    func bounceAndSpin() {
        var merger = KnobEdgeMerger(mode: .fullStep, a: true, b: true)
        let bounce = [
            KnobEdgeMerger.Edge(line: .a, level: false, timestampNanoseconds: 1 * ms),
            KnobEdgeMerger.Edge(line: .a, level: true, timestampNanoseconds: 2 * ms),
        ]
        #expect(merger.read(bounce, readBegan: 3 * ms).isEmpty)
        let forward = merger.read(detentEdges(100), readBegan: 10_000 * ms)
        #expect(forward.map(\.steps) == Array(repeating: 1, count: 100))
        let back = merger.read(detentEdges(100, clockwise: false, start: 20_000 * ms), readBegan: 30_000 * ms)
        #expect(back.map(\.steps) == Array(repeating: -1, count: 100))
    }
}
