// LEDRowReader: reads what a row of LEDs says from what it shows over time, as a person with README.md's table would.
import LEDCountdown

/// Reads what a row of LEDs says from what it shows over time, by the rules README.md's "What the lights say" table
/// and `LEDPattern`'s comments give, knowing nothing of how `LEDPattern` computes a frame: it sees only the LEDs that
/// exist, lit or dark, for how long. Every documented reading is tried; a row that reads as none, or as more than one,
/// says nothing clear.
struct LEDRowReader {
    /// What a person reads off the row.
    enum Meaning: Hashable, Sendable, CustomStringConvertible {
        case ready, taking, saving, failed, safeToRemove, full, unknownStick, hotspotOn
        /// The countdown: one flash per half second, each as many LEDs as `bars` says, in turn.
        case countdown(bars: [Int])
        /// The knob choosing the delay, in half seconds.
        case delay(halfSeconds: Int)
        /// The knob choosing the volume: a bar of this many LEDs.
        case volume(bar: Int)
        /// The whole row blinking this many times, then dark: the visual countdown off (1), on (2), a stick made
        /// yours (3).
        case rowBlinks(Int)
        /// A copy to a stick: this many LEDs lit, the next one blinking.
        case export(lit: Int)
        /// The first LED's blink counts, taking turns, fewest first.
        case warning([Int])
        /// The last LED's blink counts (heat 1, power 2), taking turns.
        case health([Int])
        /// The knob's readout: the sound's place, then the visual countdown's state.
        case readout(place: Int, visualCountdown: Bool)

        var description: String {
            switch self {
            case .ready: "ready"
            case .taking: "taking the photo"
            case .saving: "saving"
            case .failed: "failed"
            case .safeToRemove: "safe to remove"
            case .full: "full"
            case .unknownStick: "unknown stick"
            case .hotspotOn: "hotspot on"
            case .countdown(let bars): "countdown \(bars)"
            case .delay(let halfSeconds): "delay \(halfSeconds) half seconds"
            case .volume(let bar): "volume bar of \(bar)"
            case .rowBlinks(let count): "row blinks \(count)"
            case .export(let lit): "export, \(lit) lit"
            case .warning(let counts): "warning \(counts)"
            case .health(let counts): "health \(counts)"
            case .readout(let place, let visual): "readout place \(place), visual countdown \(visual ? "on" : "off")"
            }
        }
    }

    /// One stretch of time in which the row did not change: which LEDs were lit, for how many milliseconds.
    struct Run: Hashable, Sendable, CustomStringConvertible {
        var bits: UInt8
        var ms: Int

        var description: String { "\(String(bits, radix: 2)):\(ms)" }
    }

    /// How long the row is watched, and how often it is looked at.
    static let watchedMS = 30_000
    static let sampleMS = 5

    let ledCount: Int

    /// Every LED of the row lit.
    var row: UInt8 { UInt8((1 << ledCount) - 1) }

    /// What the row shows of `pattern` over `watchedMS`, looked at every `sampleMS`: only the LEDs that exist.
    func watch(_ pattern: LEDPattern) -> [Run] {
        var runs: [Run] = []
        for sample in 0..<(Self.watchedMS / Self.sampleMS) {
            let elapsed = Duration.milliseconds(sample * Self.sampleMS)
            let bits = pattern.frame(at: elapsed, ledCount: ledCount).bits & row
            if runs.last?.bits == bits {
                runs[runs.count - 1].ms += Self.sampleMS
            } else {
                runs.append(Run(bits: bits, ms: Self.sampleMS))
            }
        }
        return runs
    }

    /// Every documented reading of `runs` (one, when the row is clear).
    func readings(_ runs: [Run]) -> [Meaning] {
        let readers: [([Run]) -> Meaning?] = [
            steady, running, repeatingWholes, knobOrExport, blinkCode, countdown, rowBlinks, hotspot, readout,
        ]
        return readers.compactMap { $0(runs) }
    }

    // MARK: - The readings

    /// Dark: ready. The whole row, steady: taking the photo.
    private func steady(_ runs: [Run]) -> Meaning? {
        guard runs.count == 1 else { return nil }
        return runs[0].bits == 0 ? .ready : runs[0].bits == row ? .taking : nil
    }

    /// One light running along the row, first LED to last, a step every 125 ms: saving. (On two LEDs, the first and
    /// the last in turn: the unknown stick's 500 ms a step tells them apart.)
    private func running(_ runs: [Run]) -> Meaning? {
        guard runs.count > 2 * ledCount else { return nil }
        for (i, run) in runs.enumerated() {
            guard run.bits == bit(i % ledCount), run.ms == 125 || (i == runs.count - 1 && run.ms < 125) else {
                return nil
            }
        }
        return .saving
    }

    /// The whole row (or its ends) on a fixed rhythm: failed, safe to remove, full, an unknown stick.
    private func repeatingWholes(_ runs: [Run]) -> Meaning? {
        let readings: [(Meaning, [Run])] = [
            (.failed, [Run(bits: row, ms: 125), Run(bits: 0, ms: 125)]),
            (.safeToRemove, [Run(bits: row, ms: 1_000), Run(bits: 0, ms: 1_000)]),
            (.full, [Run(bits: 0, ms: 125), Run(bits: row, ms: 1_875)]),
            (.unknownStick, [Run(bits: bit(0), ms: 500), Run(bits: bit(ledCount - 1), ms: 500)]),
        ]
        return readings.first { repeats(runs, $0.1) }?.0
    }

    /// Two frames in turn: the knob's volume (a bar, dark 125 ms every half second), the knob's delay (one LED per
    /// half second, the last blinking), an export (the lit share, the next LED blinking 1 s on, 1 s off).
    private func knobOrExport(_ runs: [Run]) -> Meaning? {
        guard runs.count > 2, repeats(runs, Array(runs.prefix(2))) else { return nil }
        let (on, off) = (runs[0], runs[1])
        // The volume: dark 125 ms, then the bar for the rest of the half second.
        if on.bits == 0, on.ms == 125, off.ms == 375, let bar = barLength(off.bits), bar > 0 {
            return .volume(bar: bar)
        }
        // The export: one LED more than the share lit for 1 s, then the share for 1 s.
        if on.ms == 1_000, off.ms == 1_000, let lit = barLength(off.bits), barLength(on.bits) == lit + 1 {
            return .export(lit: lit)
        }
        // The delay: the cursor is the one LED that blinks; its rhythm says the lap.
        let blinking = on.bits ^ off.bits
        guard blinking.nonzeroBitCount == 1, on.bits & blinking != 0 else { return nil }
        let cursor = blinking.trailingZeroBitCount
        let lap: Int
        switch (on.ms, off.ms) {
        case (750, 250): lap = 0
        case (250, 750): lap = 1
        case (125, 125): lap = 2
        default: return nil
        }
        // The first lap: the LEDs before the cursor lit; later laps: the rest of the row lit.
        let others = lap == 0 ? bar(cursor) : row & ~blinking
        guard off.bits == others else { return nil }
        return .delay(halfSeconds: lap * ledCount + cursor + 1)
    }

    /// One LED blinking a count (250 ms on, 250 ms off), then 1.5 s dark, the counts in turn: the first LED a
    /// warning, the last heat or power.
    private func blinkCode(_ runs: [Run]) -> Meaning? {
        for (led, meaning) in [(0, Meaning.warning), (ledCount - 1, Meaning.health)] {
            guard runs.first?.bits == bit(led) else { continue }
            var groups: [Int] = []
            var blinks = 0
            var clear = true
            for (i, run) in runs.enumerated() {
                let last = i == runs.count - 1
                if run.bits == bit(led), run.ms == 250 || last {
                    blinks += 1
                } else if run.bits == 0, run.ms == 250 {
                    continue
                } else if run.bits == 0, run.ms == 1_750 || (last && run.ms < 1_750) {
                    if run.ms == 1_750 { groups.append(blinks) }
                    blinks = 0
                } else {
                    clear = false
                    break
                }
            }
            // The counts of one turn: rising from the first; then they must come round again in the same order.
            guard clear, let first = groups.first else { continue }
            var turn = [first]
            for count in groups.dropFirst() {
                guard count > turn[turn.count - 1] else { break }
                turn.append(count)
            }
            guard groups.count > turn.count, groups.indices.allSatisfy({ groups[$0] == turn[$0 % turn.count] }) else {
                continue
            }
            return meaning(turn)
        }
        return nil
    }

    /// A flash of 250 ms every half second, then dark for good: the countdown, each flash a bar.
    private func countdown(_ runs: [Run]) -> Meaning? {
        guard let body = ended(runs), body.count % 2 == 1 else { return nil }
        var bars: [Int] = []
        for (i, run) in body.enumerated() {
            if i % 2 == 0 {
                guard run.ms == 250, let bar = barLength(run.bits), bar > 0 else { return nil }
                bars.append(bar)
            } else {
                guard run.bits == 0, run.ms == 250 else { return nil }
            }
        }
        return .countdown(bars: bars)
    }

    /// The whole row blinking (125 ms on, 125 ms off), then dark for good.
    private func rowBlinks(_ runs: [Run]) -> Meaning? {
        guard let body = ended(runs), body.count % 2 == 1 else { return nil }
        let blink = [Run(bits: row, ms: 125), Run(bits: 0, ms: 125)]
        guard body.indices.allSatisfy({ body[$0] == blink[$0 % 2] }) else { return nil }
        return .rowBlinks(body.count / 2 + 1)
    }

    /// A bar growing from the first LED to the whole row in 750 ms, then 250 ms dark, three times, then dark.
    private func hotspot(_ runs: [Run]) -> Meaning? {
        guard let body = ended(runs) else { return nil }
        var rest = body[...]
        for round in 1...3 {
            let growth = rest.prefix(ledCount)
            guard growth.count == ledCount, growth.map({ barLength($0.bits) }) == Array(1...ledCount),
                abs(growth.reduce(0) { $0 + $1.ms } - 750) < Self.sampleMS
            else { return nil }
            rest = rest.dropFirst(ledCount)
            if round < 3 {
                guard let pause = rest.first, pause.bits == 0, abs(pause.ms - 250) < Self.sampleMS else { return nil }
                rest = rest.dropFirst()
            }
        }
        return rest.isEmpty ? .hotspotOn : nil
    }

    /// The readout: one flash of the whole row (250 ms on, 250 ms off) for each row past the second; for 1.5 s the
    /// place's LED blinking (2 Hz), alone on the first row, in the lit row past it; 250 ms dark; the whole row
    /// blinking once (the visual countdown off) or twice (on); then dark for good.
    private func readout(_ runs: [Run]) -> Meaning? {
        guard var body = ended(runs).map({ $0[...] }) else { return nil }
        let flash = [Run(bits: row, ms: 250), Run(bits: 0, ms: 250)]
        var flashes = 0
        while Array(body.prefix(2)) == flash {
            flashes += 1
            body = body.dropFirst(2)
        }
        guard let first = body.first, first.ms == 250 else { return nil }
        let place: Int
        if first.bits.nonzeroBitCount == 1, flashes == 0 {
            // Alone: the place is the LED's.
            let led = Run(bits: first.bits, ms: 250)
            let dark = Run(bits: 0, ms: 250)
            guard Array(body.prefix(6)) == [led, dark, led, dark, led, Run(bits: 0, ms: 500)] else { return nil }
            place = first.bits.trailingZeroBitCount + 1
            body = body.dropFirst(6)
        } else if first.bits == row, let second = body.dropFirst().first, (row ^ second.bits).nonzeroBitCount == 1 {
            // In the lit row: one row further on, and one more for each flash.
            let whole = Run(bits: row, ms: 250)
            let gap = Run(bits: second.bits, ms: 250)
            let expected = [whole, gap, whole, gap, whole, gap, Run(bits: 0, ms: 250)]
            guard Array(body.prefix(7)) == expected else { return nil }
            place = (flashes + 1) * ledCount + (row ^ second.bits).trailingZeroBitCount + 1
            body = body.dropFirst(7)
        } else {
            return nil
        }
        let blinks = Array(body)
        let once = [Run(bits: row, ms: 125)]
        let twice = [Run(bits: row, ms: 125), Run(bits: 0, ms: 125), Run(bits: row, ms: 125)]
        guard blinks == once || blinks == twice else { return nil }
        return .readout(place: place, visualCountdown: blinks == twice)
    }

    // MARK: - Helpers

    /// LED `index` alone.
    private func bit(_ index: Int) -> UInt8 { UInt8(1 << index) }

    /// The first `count` LEDs.
    private func bar(_ count: Int) -> UInt8 { UInt8((1 << count) - 1) }

    /// How many LEDs a bar from the first LED lights; nil for lit LEDs that are not such a bar.
    private func barLength(_ bits: UInt8) -> Int? {
        let length = bits.nonzeroBitCount
        return bits == bar(length) ? length : nil
    }

    /// Whether `runs` are `cycle` over and over (the watch may end within a run), at least twice round.
    private func repeats(_ runs: [Run], _ cycle: [Run]) -> Bool {
        guard runs.count > cycle.count else { return false }
        return runs.indices.allSatisfy { i in
            let expected = cycle[i % cycle.count]
            return runs[i].bits == expected.bits
                && (runs[i].ms == expected.ms || (i == runs.count - 1 && runs[i].ms < expected.ms))
        }
    }

    /// The runs of a pattern that ends, without the dark it ends in; nil unless the row ends dark for at least 2 s.
    private func ended(_ runs: [Run]) -> [Run]? {
        guard let last = runs.last, last.bits == 0, last.ms >= 2_000, runs.count > 1 else { return nil }
        return Array(runs.dropLast())
    }
}
