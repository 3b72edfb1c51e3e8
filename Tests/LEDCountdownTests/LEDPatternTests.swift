// LEDPatternTests: every LED pattern as a function of elapsed time.
import Testing

@testable import LEDCountdown

@Suite struct LEDPatternTests {
    let ms: Int64 = 1_000_000

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
        var t: Int64 = 0
        var changes: [Int64] = []
        while let next = p.nextChange(after: t, ledCount: 4) {
            changes.append(next / ms)
            t = next
        }
        #expect(changes == [250, 500, 750, 1000])
    }

    @Test(arguments: 1...6)
    func everyCountdownLightsAtEveryHalfSecondOfTheDelay(halfSeconds: Int) {
        let p = LEDPattern.countdown(halfSeconds: halfSeconds)
        for slot in 0..<halfSeconds {
            #expect(p.frame(at: Int64(slot) * LEDPattern.halfSecond, ledCount: 4) != .dark)
            #expect(p.frame(at: Int64(slot) * LEDPattern.halfSecond + LEDPattern.flashOn, ledCount: 4) == .dark)
        }
        #expect(p.frame(at: Int64(halfSeconds) * LEDPattern.halfSecond, ledCount: 4) == .dark)
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
        #expect(LEDPattern.error.frame(at: 0, ledCount: 4) == LEDFrame(bits: 0b1111))
        #expect(LEDPattern.error.frame(at: 125 * ms, ledCount: 4) == .dark)
        #expect(LEDPattern.busy.frame(at: 0, ledCount: 4) == LEDFrame(bits: 1))
        #expect(LEDPattern.busy.frame(at: 375 * ms, ledCount: 4) == LEDFrame(bits: 8))
        #expect(LEDPattern.busy.frame(at: 500 * ms, ledCount: 4) == LEDFrame(bits: 1))
        #expect(LEDPattern.acknowledge(count: 2).frame(at: 250 * ms, ledCount: 3) == LEDFrame(bits: 0b111))
        #expect(LEDPattern.acknowledge(count: 2).frame(at: 500 * ms, ledCount: 3) == .dark)
        #expect(LEDPattern.acknowledge(count: 2).nextChange(after: 500 * ms, ledCount: 3) == nil)
        #expect(LEDPattern.exportProgress(done: 2, total: 4).frame(at: 0, ledCount: 4) == LEDFrame(bits: 0b0111))
        #expect(
            LEDPattern.exportProgress(done: 2, total: 4).frame(at: 1000 * ms, ledCount: 4) == LEDFrame(bits: 0b0011))
        // Every photo copied: still the last LED blinking (verified and unmounted is `safeToRemove`).
        #expect(LEDPattern.exportProgress(done: 4, total: 4).frame(at: 0, ledCount: 4) == LEDFrame(bits: 0b1111))
        #expect(
            LEDPattern.exportProgress(done: 4, total: 4).frame(at: 1000 * ms, ledCount: 4) == LEDFrame(bits: 0b0111))
        #expect(LEDPattern.exportProgress(done: 0, total: 0).frame(at: 0, ledCount: 4) == LEDFrame(bits: 0b0001))
        #expect(LEDPattern.safeToRemove.frame(at: 0, ledCount: 2) == LEDFrame(bits: 0b11))
        // An unknown stick: the first and the last LED in turn, 500 ms each.
        #expect(LEDPattern.unknownStick.frame(at: 0, ledCount: 4) == LEDFrame(bits: 0b0001))
        #expect(LEDPattern.unknownStick.frame(at: 499 * ms, ledCount: 4) == LEDFrame(bits: 0b0001))
        #expect(LEDPattern.unknownStick.frame(at: 500 * ms, ledCount: 4) == LEDFrame(bits: 0b1000))
        #expect(LEDPattern.unknownStick.frame(at: 1000 * ms, ledCount: 4) == LEDFrame(bits: 0b0001))
        #expect(LEDPattern.off.nextChange(after: 0, ledCount: 4) == nil)
        #expect(LEDPattern.full.frame(at: 0, ledCount: 4) == .dark)
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
        #expect(three.frame(at: 0, ledCount: 4) == LEDFrame(bits: 0b0001))
        let turns = LEDPattern.warning(blinks: [1, 2])
        // 1 blink + pause (2 s), then 2 blinks + pause (2.5 s), then again.
        #expect(
            lit(turns, 0, 4_500) == [true, false] + Array(repeating: false, count: 6) + [true, false, true, false]
                + Array(repeating: false, count: 6))
        #expect(turns.frame(at: 4_500 * ms, ledCount: 4) == LEDFrame(bits: 0b0001))
        let heat = LEDPattern.healthWarning(blinks: [1])
        #expect(heat.frame(at: 0, ledCount: 4) == LEDFrame(bits: 0b1000))
        #expect(heat.frame(at: 250 * ms, ledCount: 4) == .dark)
        #expect(heat.frame(at: 2_000 * ms, ledCount: 4) == LEDFrame(bits: 0b1000))
        #expect(LEDPattern.warning(blinks: []).frame(at: 0, ledCount: 4) == .dark)
        #expect(LEDPattern.warning(blinks: []).nextChange(after: 0, ledCount: 4) == nil)
    }

    @Test func aReadoutShowsThePlaceThenTheVisualCountdownsState() {
        let third = LEDPattern.readout(position: 3, visualCountdown: true)
        #expect(third.frame(at: 0, ledCount: 4) == LEDFrame(bits: 0b0100))
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
        #expect(fifth.frame(at: 0, ledCount: 4) == LEDFrame(bits: 0b1111))
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
            #expect(pattern.nextChange(after: end - 1, ledCount: 4) == end)
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
        #expect(pattern.frame(at: 0, ledCount: ledCount) == .firstLit(1))
        #expect(pattern.frame(at: 749 * ms, ledCount: ledCount) == .firstLit(ledCount))
        #expect(pattern.frame(at: 750 * ms, ledCount: ledCount) == .dark)
        #expect(pattern.frame(at: 2000 * ms, ledCount: ledCount) == .firstLit(1))
        #expect(pattern.duration(ledCount: ledCount) == 3000 * ms)
        var t: Int64 = 0
        var frames: [LEDFrame] = [pattern.frame(at: 0, ledCount: ledCount)]
        while let next = pattern.nextChange(after: t, ledCount: ledCount) {
            #expect(next > t)
            #expect(pattern.frame(at: next - 1, ledCount: ledCount) == frames.last, "unannounced change before \(next)")
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
        #expect(LEDPattern.volumeDisplay(percent: 30).frame(at: 0, ledCount: 4) == .dark)
        #expect(LEDPattern.volumeDisplay(percent: 30).frame(at: 125 * ms, ledCount: 4) == .firstLit(2))
        #expect(LEDPattern.volumeDisplay(percent: 10).frame(at: 200 * ms, ledCount: 4) == .firstLit(1))
        #expect(LEDPattern.volumeDisplay(percent: 100).frame(at: 499 * ms, ledCount: 4) == .firstLit(4))
        #expect(LEDPattern.volumeDisplay(percent: 100).frame(at: 500 * ms, ledCount: 4) == .dark)
        #expect(LEDPattern.volumeDisplay(percent: 50).duration(ledCount: 4) == nil)
    }

    /// Every pattern the booth can show on a row of `ledCount` LEDs, each with what it says: patterns that say the
    /// same (two volumes that light the same bar, two exports at the same share) carry the same meaning.
    static func everyPattern(ledCount: Int) -> [(pattern: LEDPattern, meaning: String)] {
        var all: [(LEDPattern, String)] = [
            (.off, "ready"), (.allOn, "taking"), (.busy, "saving"), (.error, "failed"), (.safeToRemove, "safe"),
            (.full, "full"), (.unknownStick, "unknown stick"), (.hotspotOn, "hotspot on"),
        ]
        for halfSeconds in 1...6 {  // RuntimeChoices.delayRange
            all.append((.countdown(halfSeconds: halfSeconds), "countdown \(halfSeconds)"))
            all.append((.delayDisplay(halfSeconds: halfSeconds), "delay \(halfSeconds)"))
        }
        for percent in stride(from: 10, through: 100, by: 10) {  // RuntimeChoices' volume steps
            all.append((.volumeDisplay(percent: percent), "volume bar \((ledCount * percent + 99) / 100)"))
        }
        for count in 1...3 { all.append((.acknowledge(count: count), "acknowledge \(count)")) }
        for total in 1...(2 * ledCount + 1) {
            for done in 0...total {
                all.append(
                    (.exportProgress(done: done, total: total), "export \(min(ledCount - 1, ledCount * done / total))"))
            }
        }
        // Every cause alone and every pair taking turns (DeviceWarning.blinks: 1...6, heat and power 1...2).
        for first in 1...6 {
            all.append((.warning(blinks: [first]), "warning \([first])"))
            for second in (first + 1)...7 where second <= 6 {
                all.append((.warning(blinks: [first, second]), "warning \([first, second])"))
            }
        }
        for blinks in [[1], [2], [1, 2]] { all.append((.healthWarning(blinks: blinks), "health \(blinks)")) }
        for position in 1...(2 * ledCount) {
            for visual in [false, true] {
                all.append((.readout(position: position, visualCountdown: visual), "readout \(position) \(visual)"))
            }
        }
        return all
    }

    /// No two situations look alike, at every value of their parameters, on every row from 2 to 8 LEDs: over 10 s,
    /// sampled every 5 ms, two patterns' frames differ somewhere unless they mean the same. (The old patterns failed
    /// this: a 2.0 s delay on four LEDs, an export at 100 % and "taking" were all the whole row steady, and one
    /// warning pattern stood for six causes.)
    @Test(arguments: 2...8) func noTwoSituationsLookAlike(ledCount: Int) {
        let patterns = Self.everyPattern(ledCount: ledCount)
        var seen: [[LEDFrame]: String] = [:]
        for (pattern, meaning) in patterns {
            let frames = (0..<2_000).map { pattern.frame(at: Int64($0) * 5 * ms, ledCount: ledCount) }
            if let other = seen[frames] {
                #expect(other == meaning, "\(ledCount) LEDs: \(pattern) (\(meaning)) looks like \(other)")
            } else {
                seen[frames] = meaning
            }
        }
    }

    /// Only "taking the photo" is the whole row lit and steady, at every parameter value.
    @Test(arguments: 2...8) func onlyTakingIsTheWholeRowSteady(ledCount: Int) {
        let row = LEDFrame.firstLit(ledCount)
        for (pattern, meaning) in Self.everyPattern(ledCount: ledCount) where meaning != "taking" {
            let frames = (0..<800).map { pattern.frame(at: Int64($0) * 5 * ms, ledCount: ledCount) }
            #expect(frames.contains { $0 != row }, "\(ledCount) LEDs: \(pattern) is the whole row, steady")
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
        var t: Int64 = 0
        let step: Int64 = 5 * ms
        var frame = pattern.frame(at: 0, ledCount: 4)
        var next = pattern.nextChange(after: 0, ledCount: 4)
        while t < 10_000 * ms {
            t += step
            let now = pattern.frame(at: t, ledCount: 4)
            if let n = next, t >= n {
                next = pattern.nextChange(after: t, ledCount: 4)
            } else {
                #expect(now == frame, "\(pattern) changed unannounced at \(t / ms) ms")
            }
            frame = now
        }
    }
}
