// RotaryDecoderTests: the transition table, every from→to pair per mode, rotations, bounce, noise.
import BoothTestSupport
import Testing

@testable import GPIOInput

/// Phases as `A << 1 | B`; the "A leads B" (+1) cycle is 0 → 2 → 3 → 1 → 0.
private let clockwise: [UInt8] = [0, 2, 3, 1]
private let counterClockwise: [UInt8] = [0, 1, 3, 2]

extension RotaryDecoder {
    /// Feeds a phase number instead of two levels.
    fileprivate mutating func update(phase: UInt8) -> Int {
        update(a: phase & 2 != 0, b: phase & 1 != 0)
    }

    /// Feeds phases in order, returning each output.
    fileprivate mutating func feed(_ phases: [UInt8]) -> [Int] {
        phases.map { update(phase: $0) }
    }
}

/// Phases visited going `steps` detents the given way from phase 0 (each cycle ends on 0).
private func rotation(_ cycle: [UInt8], cycles: Int) -> [UInt8] {
    (0..<cycles).flatMap { _ in cycle.dropFirst() + [0] }
}

@Suite struct RotaryDecoderTests {
    @Test("table: +1 along the A-leads cycle, -1 against it, 0 for no change or both bits")
    func transitionTable() {
        for from in UInt8(0)..<4 {
            for to in UInt8(0)..<4 {
                let cwNext = clockwise[(clockwise.firstIndex(of: from)! + 1) % 4]
                let ccwNext = counterClockwise[(counterClockwise.firstIndex(of: from)! + 1) % 4]
                let expected = to == cwNext ? 1 : to == ccwNext ? -1 : 0
                #expect(RotaryDecoder.transition(from: from, to: to) == expected, "\(from)→\(to)")
                if from ^ to == 3 || from == to {
                    #expect(RotaryDecoder.transition(from: from, to: to) == 0, "invalid \(from)→\(to)")
                }
            }
        }
    }

    /// Runs every from→to pair after reaching `from` along `approach` from rest at 00, and
    /// compares with `expected` (pairs not listed must give 0).
    private func checkAllPairs(
        mode: RotaryDecoder.Mode, approach: [UInt8], expected: [[UInt8]: Int],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for from in UInt8(0)..<4 {
            for to in UInt8(0)..<4 {
                var decoder = RotaryDecoder(mode: mode)
                let path = approach.prefix(through: approach.firstIndex(of: from)!).dropFirst()
                _ = decoder.feed(Array(path))
                #expect(
                    decoder.update(phase: to) == expected[[from, to], default: 0],
                    "\(mode) \(from)→\(to)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test("full step: all 16 pairs after a clockwise approach; only 01→00 completes a detent")
    func fullStepPairsClockwise() {
        checkAllPairs(mode: .fullStep, approach: clockwise, expected: [[1, 0]: 1])
    }

    @Test("full step: all 16 pairs after a counter-clockwise approach; only 10→00 completes a detent")
    func fullStepPairsCounterClockwise() {
        checkAllPairs(mode: .fullStep, approach: counterClockwise, expected: [[2, 0]: -1])
    }

    @Test("half step: all 16 pairs after a clockwise approach; 10→11 and 01→00 complete detents")
    func halfStepPairsClockwise() {
        checkAllPairs(mode: .halfStep, approach: clockwise, expected: [[2, 3]: 1, [1, 0]: 1])
    }

    @Test("half step: all 16 pairs after a counter-clockwise approach; 01→11 and 10→00 complete detents")
    func halfStepPairsCounterClockwise() {
        checkAllPairs(mode: .halfStep, approach: counterClockwise, expected: [[1, 3]: -1, [2, 0]: -1])
    }

    @Test("full step: 20 detents each way, one step on arriving at each detent")
    func fullStepRotations() {
        var decoder = RotaryDecoder(mode: .fullStep)
        let cw = decoder.feed(rotation(clockwise, cycles: 20))
        #expect(cw == Array(repeating: [0, 0, 0, 1], count: 20).flatMap { $0 })
        let ccw = decoder.feed(rotation(counterClockwise, cycles: 20))
        #expect(ccw == Array(repeating: [0, 0, 0, -1], count: 20).flatMap { $0 })
    }

    @Test("full step: a KY-040 resting at 11 steps on returning to 11")
    func fullStepRestingHigh() {
        var decoder = RotaryDecoder(mode: .fullStep, a: true, b: true)
        // A leads: 11 → 01 → 00 → 10 → 11.
        #expect(decoder.feed([1, 0, 2, 3, 1, 0, 2, 3]) == [0, 0, 0, 1, 0, 0, 0, 1])
        #expect(decoder.feed([2, 0, 1, 3]) == [0, 0, 0, -1])
    }

    @Test("full step: starting mid-cycle learns the detent at the first rest phase")
    func fullStepLearnsDetent() {
        var decoder = RotaryDecoder(mode: .fullStep, a: true, b: false)  // phase 2
        #expect(decoder.feed([3, 1, 0, 2, 3]) == [0, 0, 0, 0, 1])  // detent 11 learned, one cycle later a step
    }

    @Test("half step: two steps per Gray cycle each way")
    func halfStepRotations() {
        var decoder = RotaryDecoder(mode: .halfStep)
        #expect(decoder.feed(rotation(clockwise, cycles: 5)).reduce(0, +) == 10)
        #expect(decoder.feed(rotation(counterClockwise, cycles: 5)).reduce(0, +) == -10)
    }

    @Test("bounce on one contact at rest never steps", arguments: [RotaryDecoder.Mode.fullStep, .halfStep])
    func bounceAtRest(mode: RotaryDecoder.Mode) {
        var decoder = RotaryDecoder(mode: mode)
        #expect(decoder.feed(Array(repeating: [2, 0], count: 50).flatMap { $0 }).allSatisfy { $0 == 0 })
        #expect(decoder.feed(Array(repeating: [1, 0], count: 50).flatMap { $0 }).allSatisfy { $0 == 0 })
    }

    @Test(
        "bounce on every transition of a rotation still gives one step per detent",
        arguments: [RotaryDecoder.Mode.fullStep, .halfStep])
    func bounceDuringRotation(mode: RotaryDecoder.Mode) {
        for (cycle, sign) in [(clockwise, 1), (counterClockwise, -1)] {
            var decoder = RotaryDecoder(mode: mode)
            var phases: [UInt8] = []
            var previous: UInt8 = 0
            for next in rotation(cycle, cycles: 10) {
                // The changing contact chatters 3 times before settling on `next`.
                phases += [next, previous, next, previous, next]
                previous = next
            }
            let steps = decoder.feed(phases)
            let perCycle = 4 / mode.transitionsPerDetent
            #expect(steps.reduce(0, +) == sign * 10 * perCycle)
            #expect(steps.filter { $0 != 0 }.count == 10 * perCycle)
        }
    }

    @Test("both contacts jumping (a missed edge) never steps and the decoder recovers")
    func invalidTransitions() {
        var decoder = RotaryDecoder(mode: .fullStep)
        #expect(decoder.feed([3, 0, 3, 0]) == [0, 0, 0, 0])
        #expect(decoder.feed([2, 1, 0]) == [0, 0, 0])  // 0→2 valid, 2→1 invalid, 1→0: sum 2, no step
        #expect(decoder.feed(rotation(clockwise, cycles: 3)).reduce(0, +) == 3)
    }

    @Test(
        "random noise never yields more steps than valid transitions per detent",
        arguments: [RotaryDecoder.Mode.fullStep, .halfStep], [UInt64(1), 42, 2024, 0xB007])
    func randomNoise(mode: RotaryDecoder.Mode, seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var decoder = RotaryDecoder(mode: mode)
        var previous: UInt8 = 0
        var validTransitions = 0
        var steps = 0
        for _ in 0..<20_000 {
            let next = UInt8.random(in: 0..<4, using: &rng)
            if (previous ^ next).nonzeroBitCount == 1 { validTransitions += 1 }
            let step = decoder.update(phase: next)
            #expect([-1, 0, 1].contains(step))
            steps += abs(step)
            previous = next
        }
        #expect(steps <= validTransitions / mode.transitionsPerDetent)
    }

    @Test(
        "a random walk of valid transitions steps by its net displacement",
        arguments: [UInt64(7), 99])
    func randomWalk(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var decoder = RotaryDecoder(mode: .fullStep)
        var position = 0  // net transitions from 00, which is the detent
        var steps = 0
        for _ in 0..<10_000 {
            position += Bool.random(using: &rng) ? 1 : -1
            steps += decoder.update(phase: clockwise[((position % 4) + 4) % 4])
        }
        // Return to the detent nearest below, then each completed detent was counted once.
        let detents = position >= 0 ? position / 4 : -((-position + 3) / 4)
        let back = position - detents * 4
        for _ in 0..<back {
            position -= 1
            steps += decoder.update(phase: clockwise[((position % 4) + 4) % 4])
        }
        #expect(steps == detents)
    }
}
