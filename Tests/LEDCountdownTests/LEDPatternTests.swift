// LEDPatternTests: every LED pattern as a function of elapsed time.
import BoothTime
import Testing

@testable import LEDCountdown

/// `n * ms`: the tables' times, written as the README gives them.
private func * (count: Int64, unit: Duration) -> Duration { unit * count }

@Suite struct LEDPatternTests {
    let ms: Duration = .milliseconds(1)

    @Test func theCountdownFlashesEveryHalfSecondShrinkingWithTheTimeLeft() {
        let p = LEDPattern.countdown(halfSeconds: 4)
        let expected: [(Int64, UInt8)] = [
            (0, 0b1111), (249, 0b1111), (250, 0), (499, 0),
            (500, 0b0111), (749, 0b0111), (750, 0),
            (1000, 0b0011), (1250, 0),
            (1500, 0b0001), (1749, 0b0001), (1750, 0), (2000, 0), (5000, 0),
        ]
        for (t, bits) in expected {
            #expect(p.frame(at: t * ms, ledCount: 4) == LEDFrame(bits: bits), "at \(t) ms")
        }
    }

    @Test func theCountdownChangesExactlyOnItsQuarterSecondBoundariesAndThenStops() {
        let p = LEDPattern.countdown(halfSeconds: 2)
        var t: Duration = .zero
        var changes: [Int64] = []
        while let next = p.nextChange(after: t, ledCount: 4) {
            changes.append(next.inMilliseconds)
            t = next
        }
        #expect(changes == [250, 500, 750, 1000])
    }

    @Test(arguments: 1...6)
    func everyCountdownLightsAtEveryHalfSecondOfTheDelay(halfSeconds: Int) {
        let p = LEDPattern.countdown(halfSeconds: halfSeconds)
        for slot in 0..<halfSeconds {
            #expect(p.frame(at: LEDPattern.halfSecond * slot, ledCount: 4) != .dark)
            #expect(p.frame(at: LEDPattern.halfSecond * slot + LEDPattern.flashOn, ledCount: 4) == .dark)
        }
        #expect(p.frame(at: LEDPattern.halfSecond * halfSeconds, ledCount: 4) == .dark)
    }

    /// One LED per half second, the last (the knob's cursor) lit 750 ms of every second; past the row, the rest of
    /// the row lit and the cursor lit 250 ms of every second.
    @Test func theDelayShowsOneLEDPerHalfSecondWithItsCursorBlinking() {
        // (half seconds, LEDs, ms, frame). 2.0 s on four LEDs is never the whole row steady ("taking the photo"); a
        // third lap (two LEDs, 3.0 s) blinks the cursor at 4 Hz.
        let expected: [(Int, Int, Int64, UInt8)] = [
            (3, 4, 0, 0b0111), (3, 4, 749, 0b0111), (3, 4, 750, 0b0011), (3, 4, 1_000, 0b0111),
            (4, 4, 0, 0b1111), (4, 4, 750, 0b0111),
            (6, 4, 0, 0b1111), (6, 4, 250, 0b1101), (6, 4, 999, 0b1101), (6, 4, 1_000, 0b1111),
            (6, 2, 0, 0b11), (6, 2, 125, 0b01),
        ]
        for (halfSeconds, ledCount, t, bits) in expected {
            #expect(
                LEDPattern.delayDisplay(halfSeconds: halfSeconds).frame(at: t * ms, ledCount: ledCount)
                    == LEDFrame(bits: bits), "\(halfSeconds) half seconds on \(ledCount) LEDs at \(t) ms")
        }
    }

    @Test func theOtherPatterns() {
        #expect(LEDPattern.error.frame(at: .zero, ledCount: 4) == LEDFrame(bits: 0b1111))
        #expect(LEDPattern.error.frame(at: 125 * ms, ledCount: 4) == .dark)
        #expect(LEDPattern.busy.frame(at: .zero, ledCount: 4) == LEDFrame(bits: 1))
        #expect(LEDPattern.busy.frame(at: 375 * ms, ledCount: 4) == LEDFrame(bits: 8))
        #expect(LEDPattern.busy.frame(at: 500 * ms, ledCount: 4) == LEDFrame(bits: 1))
        #expect(LEDPattern.acknowledge(count: 2).frame(at: 250 * ms, ledCount: 3) == LEDFrame(bits: 0b111))
        #expect(LEDPattern.acknowledge(count: 2).frame(at: 500 * ms, ledCount: 3) == .dark)
        #expect(LEDPattern.acknowledge(count: 2).nextChange(after: 500 * ms, ledCount: 3) == nil)
        #expect(LEDPattern.exportProgress(done: 2, total: 4).frame(at: .zero, ledCount: 4) == LEDFrame(bits: 0b0111))
        #expect(
            LEDPattern.exportProgress(done: 2, total: 4).frame(at: 1000 * ms, ledCount: 4) == LEDFrame(bits: 0b0011))
        // Every photo copied: still the last LED blinking (verified and unmounted is `safeToRemove`).
        #expect(LEDPattern.exportProgress(done: 4, total: 4).frame(at: .zero, ledCount: 4) == LEDFrame(bits: 0b1111))
        #expect(
            LEDPattern.exportProgress(done: 4, total: 4).frame(at: 1000 * ms, ledCount: 4) == LEDFrame(bits: 0b0111))
        #expect(LEDPattern.exportProgress(done: 0, total: 0).frame(at: .zero, ledCount: 4) == LEDFrame(bits: 0b0001))
        #expect(LEDPattern.safeToRemove.frame(at: .zero, ledCount: 2) == LEDFrame(bits: 0b11))
        // An unknown stick: the first and the last LED in turn, 500 ms each.
        #expect(LEDPattern.unknownStick.frame(at: .zero, ledCount: 4) == LEDFrame(bits: 0b0001))
        #expect(LEDPattern.unknownStick.frame(at: 499 * ms, ledCount: 4) == LEDFrame(bits: 0b0001))
        #expect(LEDPattern.unknownStick.frame(at: 500 * ms, ledCount: 4) == LEDFrame(bits: 0b1000))
        #expect(LEDPattern.unknownStick.frame(at: 1000 * ms, ledCount: 4) == LEDFrame(bits: 0b0001))
        #expect(LEDPattern.off.nextChange(after: .zero, ledCount: 4) == nil)
        #expect(LEDPattern.full.frame(at: .zero, ledCount: 4) == .dark)
        #expect(LEDPattern.full.frame(at: 125 * ms, ledCount: 4) == LEDFrame(bits: 0b1111))
        #expect(LEDPattern.full.frame(at: 1999 * ms, ledCount: 4) == LEDFrame(bits: 0b1111))
        #expect(LEDPattern.full.frame(at: 2000 * ms, ledCount: 4) == .dark)

    }

    /// A warning's LED blinks its count (250 ms on, 250 ms off), then pauses 1.5 s; several counts take turns.
    @Test func warningsBlinkTheirCountOnTheFirstLEDAndHealthOnTheLast() {
        func lit(_ pattern: LEDPattern, _ from: Int64, _ to: Int64) -> [Bool] {
            stride(from: from, to: to, by: 250).map { pattern.frame(at: $0 * ms, ledCount: 4) != .dark }
        }
        let three = LEDPattern.warning(blinks: [3])
        #expect(
            lit(three, 0, 3_000) == [true, false, true, false, true, false, false, false, false, false, false, false])
        #expect(lit(three, 3_000, 3_500) == [true, false], "again after 1.5 s dark")
        #expect(three.frame(at: .zero, ledCount: 4) == LEDFrame(bits: 0b0001))
        let turns = LEDPattern.warning(blinks: [1, 2])
        // 1 blink + pause (2 s), then 2 blinks + pause (2.5 s), then again.
        #expect(
            lit(turns, 0, 4_500) == [true, false] + Array(repeating: false, count: 6) + [true, false, true, false]
                + Array(repeating: false, count: 6))
        #expect(turns.frame(at: 4_500 * ms, ledCount: 4) == LEDFrame(bits: 0b0001))
        let heat = LEDPattern.healthWarning(blinks: [1])
        #expect(heat.frame(at: .zero, ledCount: 4) == LEDFrame(bits: 0b1000))
        #expect(heat.frame(at: 250 * ms, ledCount: 4) == .dark)
        #expect(heat.frame(at: 2_000 * ms, ledCount: 4) == LEDFrame(bits: 0b1000))
        #expect(LEDPattern.warning(blinks: []).frame(at: .zero, ledCount: 4) == .dark)
        #expect(LEDPattern.warning(blinks: []).nextChange(after: .zero, ledCount: 4) == nil)
    }

    @Test func aReadoutShowsThePlaceThenTheVisualCountdownsState() {
        let third = LEDPattern.readout(position: 3, visualCountdown: true)
        #expect(third.frame(at: .zero, ledCount: 4) == LEDFrame(bits: 0b0100))
        #expect(third.frame(at: 250 * ms, ledCount: 4) == .dark)
        #expect(third.frame(at: 1_000 * ms, ledCount: 4) == LEDFrame(bits: 0b0100))
        #expect(third.frame(at: 1_500 * ms, ledCount: 4) == .dark)
        // Two blinks of the row: on.
        let blinks = (0..<8).map { third.frame(at: 1_750 * ms + Int64($0) * 125 * ms, ledCount: 4) }
        #expect(blinks == [.firstLit(4), .dark, .firstLit(4), .dark, .dark, .dark, .dark, .dark])
        #expect(third.duration(ledCount: 4) == 2_250 * ms)
        #expect(LEDPattern.readout(position: 3, visualCountdown: false).duration(ledCount: 4) == 2_000 * ms)
        // Past the row: the row lit, the place's LED blinking.
        let fifth = LEDPattern.readout(position: 5, visualCountdown: false)
        #expect(fifth.frame(at: .zero, ledCount: 4) == LEDFrame(bits: 0b1111))
        #expect(fifth.frame(at: 250 * ms, ledCount: 4) == LEDFrame(bits: 0b1110))
        #expect(fifth.duration(ledCount: 4) == 2_000 * ms)
    }

    /// Past two rows, the whole row flashes once for each further row, then shows the place as on the second row.
    @Test func aReadoutPastTwoRowsFlashesTheRowOncePerFurtherRowFirst() {
        // Place 9 on four LEDs (the third row): one flash, then the row lit and LED 1 blinking.
        let ninth = LEDPattern.readout(position: 9, visualCountdown: false)
        let frames = stride(from: Int64(0), to: 2_500, by: 250).map { ninth.frame(at: $0 * ms, ledCount: 4) }
        #expect(
            frames == [
                .firstLit(4), .dark, .firstLit(4), LEDFrame(bits: 0b1110), .firstLit(4), LEDFrame(bits: 0b1110),
                .firstLit(4), LEDFrame(bits: 0b1110), .dark, .firstLit(4),
            ])
        #expect(ninth.duration(ledCount: 4) == 2_500 * ms)
        // Place 14 (the fourth row): two flashes, then LED 2 blinking in the lit row.
        let fourteenth = LEDPattern.readout(position: 14, visualCountdown: true)
        #expect(fourteenth.frame(at: 500 * ms, ledCount: 4) == .firstLit(4))
        #expect(fourteenth.frame(at: 750 * ms, ledCount: 4) == .dark)
        #expect(fourteenth.frame(at: 1_250 * ms, ledCount: 4) == LEDFrame(bits: 0b1101))
        #expect(fourteenth.duration(ledCount: 4) == 3_250 * ms)
        // Up to two rows nothing flashes first.
        #expect(LEDPattern.readout(position: 8, visualCountdown: true).frame(at: 250 * ms, ledCount: 4) == .firstLit(3))
    }

    @Test func patternsThatEndSayWhen() throws {
        for pattern in [
            LEDPattern.acknowledge(count: 1), .acknowledge(count: 2), .countdown(halfSeconds: 3),
            .readout(position: 2, visualCountdown: true), .readout(position: 13, visualCountdown: false), .hotspotOn,
        ] {
            let end = try #require(pattern.duration(ledCount: 4))
            #expect(pattern.nextChange(after: end - .nanoseconds(1), ledCount: 4) == end)
            #expect(pattern.frame(at: end, ledCount: 4) == .dark)
            #expect(pattern.nextChange(after: end, ledCount: 4) == nil)
        }
        #expect(LEDPattern.acknowledge(count: 2).duration(ledCount: 4) == 500 * ms)
        for pattern in [
            LEDPattern.off, .warning(blinks: [2]), .error, .full, .safeToRemove, .busy,
            .exportProgress(done: 1, total: 2), .unknownStick,
        ] {
            #expect(pattern.duration(ledCount: 4) == nil, "\(pattern)")
        }
    }

    /// The hotspot's confirmation: the bar grows to the whole row in 750 ms, dark for 250 ms, three times; on every
    /// row length each LED joins exactly when the pattern says the frame changes.
    @Test(arguments: 1...8) func theHotspotsBarGrowsThreeTimes(ledCount: Int) throws {
        let pattern = LEDPattern.hotspotOn
        #expect(pattern.frame(at: .zero, ledCount: ledCount) == .firstLit(1))
        #expect(pattern.frame(at: 749 * ms, ledCount: ledCount) == .firstLit(ledCount))
        #expect(pattern.frame(at: 750 * ms, ledCount: ledCount) == .dark)
        #expect(pattern.frame(at: 2000 * ms, ledCount: ledCount) == .firstLit(1))
        #expect(pattern.duration(ledCount: ledCount) == 3000 * ms)
        var t: Duration = .zero
        var frames: [LEDFrame] = [pattern.frame(at: .zero, ledCount: ledCount)]
        while let next = pattern.nextChange(after: t, ledCount: ledCount) {
            #expect(next > t)
            #expect(
                pattern.frame(at: next - .nanoseconds(1), ledCount: ledCount) == frames.last,
                "unannounced change before \(next)")
            let frame = pattern.frame(at: next, ledCount: ledCount)
            if frame != frames.last { frames.append(frame) }
            t = next
        }
        let round = (1...ledCount).map { LEDFrame.firstLit($0) } + [.dark]
        #expect(frames == round + round + round)
    }

    /// The volume bar: the share of 100 % rounded up (10 % still lights one LED), dark for the first
    /// 125 ms of every half second.
    @Test func theVolumeShowsAsABarThatBeatsEveryHalfSecond() {
        #expect(LEDPattern.volumeDisplay(percent: 30).frame(at: .zero, ledCount: 4) == .dark)
        #expect(LEDPattern.volumeDisplay(percent: 30).frame(at: 125 * ms, ledCount: 4) == .firstLit(2))
        #expect(LEDPattern.volumeDisplay(percent: 10).frame(at: 200 * ms, ledCount: 4) == .firstLit(1))
        #expect(LEDPattern.volumeDisplay(percent: 100).frame(at: 499 * ms, ledCount: 4) == .firstLit(4))
        #expect(LEDPattern.volumeDisplay(percent: 100).frame(at: 500 * ms, ledCount: 4) == .dark)
        #expect(LEDPattern.volumeDisplay(percent: 50).duration(ledCount: 4) == nil)
    }

    /// Every situation the booth can show on a row of `n` LEDs, at every value the booth can give it, with what a
    /// person should read off the row. The readings come from the documented rules in this test's own words (a share
    /// rounded up is "the fewest LEDs that cover it"), never from `LEDPattern`'s arithmetic.
    static func everySituation(ledCount n: Int) -> [(pattern: LEDPattern, meaning: LEDRowReader.Meaning)] {
        /// The fewest LEDs whose share of the row covers `part` of `whole`: the volume's bar, a countdown's flash.
        func covering(_ part: Int, of whole: Int) -> Int { (1...n).first { $0 * whole >= part * n } ?? n }
        /// The most LEDs, short of the whole row (the last waits for "safe to remove"), whose share of the row is
        /// done: an export's lit LEDs.
        func copied(_ part: Int, of whole: Int) -> Int { (0..<n).last { $0 * whole <= part * n } ?? 0 }
        var all: [(LEDPattern, LEDRowReader.Meaning)] = [
            (.off, .ready), (.allOn, .taking), (.busy, .saving), (.error, .failed), (.safeToRemove, .safeToRemove),
            (.full, .full), (.unknownStick, .unknownStick), (.hotspotOn, .hotspotOn),
        ]
        // Every delay the knob allows (RuntimeChoices.delayRange, 0.5 to 3.0 s): the countdown flashes once a half
        // second, as many LEDs as the share of the delay still to run.
        for halfSeconds in 1...6 {
            let bars = (0..<halfSeconds).map { covering(halfSeconds - $0, of: halfSeconds) }
            all.append((.countdown(halfSeconds: halfSeconds), .countdown(bars: bars)))
            all.append((.delayDisplay(halfSeconds: halfSeconds), .delay(halfSeconds: halfSeconds)))
        }
        // Every volume (RuntimeChoices: 10 to 100 % in steps of 10).
        for percent in stride(from: 10, through: 100, by: 10) {
            all.append((.volumeDisplay(percent: percent), .volume(bar: covering(percent, of: 100))))
        }
        // The visual countdown off (1 blink) and on (2), a stick made yours (3), a print refused (4).
        for count in 1...4 { all.append((.acknowledge(count: count), .rowBlinks(count))) }
        // Exports have no size limit: every count of photos up to two rows' worth, and large ones around each LED's
        // share.
        var exports = (1...(2 * n + 1)).flatMap { total in (0...total).map { (done: $0, total: total) } }
        for total in [100, 1_000, 123_457, 10_000_000] {
            let edges = (0...n).flatMap { k in [-1, 0, 1].map { k * total / n + $0 } }
            exports += Set(edges.filter { (0...total).contains($0) }).sorted().map { (done: $0, total: total) }
        }
        for (done, total) in exports {
            all.append((.exportProgress(done: done, total: total), .export(lit: copied(done, of: total))))
        }
        // Every set of causes that can be there at once, fewest blinks first (DeviceWarning.blinks: 1 to 6 on the
        // first LED; heat 1, power 2, the camera's battery 3 and the printer 4 on the last).
        for causes in 1..<(1 << 6) {
            let counts = (1...6).filter { causes & (1 << ($0 - 1)) != 0 }
            all.append((.warning(blinks: counts), .warning(counts)))
        }
        for causes in 1..<(1 << 4) {
            let counts = (1...4).filter { causes & (1 << ($0 - 1)) != 0 }
            all.append((.healthWarning(blinks: counts), .health(counts)))
        }
        // Every place among the knob's sounds: up to 5 favourites and the sounds folder, which a stick fills to 20
        // (SoundLibrary.ImportLimits) but sounds copied in by hand have no limit, so places up to 40, and 100.
        for position in Array(1...40) + [100] {
            for visual in [false, true] {
                all.append(
                    (
                        .readout(position: position, visualCountdown: visual),
                        .readout(place: position, visualCountdown: visual)
                    ))
            }
        }
        return all
    }

    /// No two situations look alike. On every row the config allows (`LEDPattern.ledCounts`), every situation at
    /// every value the booth can give it reads, by the documented rules alone (`LEDRowReader` watches 30 s of it),
    /// as exactly what it means and nothing else; so no two meanings share what the row shows. These mutations of
    /// LEDPattern.swift fail it, and each passed the sampled test it replaced (every pair of patterns' first 10 s
    /// compared, labelled by the code's own formulas, on 2 to 8 LEDs, places up to 2 × LEDs, warnings alone or in
    /// pairs):
    /// - `readoutFlashes` returning 0 (no flashes past two rows): on 4 LEDs place 9 reads as place 5;
    /// - `volumeDisplay`'s bar shifted to end at the last LED: 10 % on 4 LEDs lights LED 4, no bar from the first;
    /// - `exportProgress` blinking the last LED instead of the one after the lit share: no share copied reads;
    /// - `blinking` taking only the first two counts (`.prefix(2)`): three causes read as two;
    /// - `ledCounts = 1...8` (one LED allowed): saving reads as taking, safe to remove as an export too.
    @Test(arguments: LEDPattern.ledCounts)
    func everySituationReadsAsWhatItMeans(ledCount: Int) {
        let reader = LEDRowReader(ledCount: ledCount)
        var seen: [[LEDRowReader.Run]: LEDRowReader.Meaning] = [:]
        var misread: [String] = []
        var alike: [String] = []
        let situations = Self.everySituation(ledCount: ledCount)
        for (pattern, meaning) in situations {
            let runs = reader.watch(pattern)
            let readings = reader.readings(runs)
            if readings != [meaning] {
                misread.append("\(pattern) reads as \(readings), not \(meaning)")
            }
            if let other = seen.updateValue(meaning, forKey: runs), other != meaning {
                alike.append("\(pattern) (\(meaning)) looks like \(other)")
            }
        }
        #expect(situations.count > 200)
        // Counted, with a few named: a broken pattern misreads at hundreds of values.
        for (problems, what) in [(misread, "misread"), (alike, "alike")] where !problems.isEmpty {
            let examples = problems.prefix(5).joined(separator: "\n")
            Issue.record("\(ledCount) LEDs: \(problems.count) \(what), e.g.\n\(examples)")
        }
    }

    /// For every pattern, the frame is constant between the change times it announces.
    @Test(arguments: [
        LEDPattern.countdown(halfSeconds: 5), .delayDisplay(halfSeconds: 6), .delayDisplay(halfSeconds: 2), .busy,
        .error, .warning(blinks: [3]), .warning(blinks: [1, 6]), .acknowledge(count: 3),
        .exportProgress(done: 1, total: 3), .exportProgress(done: 3, total: 3), .safeToRemove, .full,
        .healthWarning(blinks: [1, 2]), .unknownStick,
        .readout(position: 2, visualCountdown: true), .readout(position: 6, visualCountdown: false),
        .readout(position: 14, visualCountdown: true), .volumeDisplay(percent: 70), .hotspotOn,
    ])
    func framesOnlyChangeWhenAnnounced(pattern: LEDPattern) {
        var t: Duration = .zero
        let step = 5 * ms
        var frame = pattern.frame(at: .zero, ledCount: 4)
        var next = pattern.nextChange(after: .zero, ledCount: 4)
        while t < 10_000 * ms {
            t += step
            let now = pattern.frame(at: t, ledCount: 4)
            if let n = next, t >= n {
                next = pattern.nextChange(after: t, ledCount: 4)
            } else {
                #expect(now == frame, "\(pattern) changed unannounced at \(t.inMilliseconds) ms")
            }
            frame = now
        }
    }
}
