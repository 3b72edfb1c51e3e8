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

    @Test func theDelayShowsOneLEDPerHalfSecondAndBlinksTheOverflow() {
        #expect(LEDPattern.delayDisplay(halfSeconds: 3).frame(at: 0, ledCount: 4) == LEDFrame(bits: 0b0111))
        #expect(LEDPattern.delayDisplay(halfSeconds: 3).nextChange(after: 0, ledCount: 4) == nil)
        let six = LEDPattern.delayDisplay(halfSeconds: 6)
        #expect(six.frame(at: 0, ledCount: 4) == LEDFrame(bits: 0b1111))
        #expect(six.frame(at: 125 * ms, ledCount: 4) == LEDFrame(bits: 0b1100))
        #expect(six.frame(at: 250 * ms, ledCount: 4) == LEDFrame(bits: 0b1111))
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
        #expect(LEDPattern.safeToRemove.frame(at: 0, ledCount: 2) == LEDFrame(bits: 0b11))
        #expect(LEDPattern.warning.frame(at: 0, ledCount: 4) == LEDFrame(bits: 1))
        #expect(LEDPattern.warning.frame(at: 1000 * ms, ledCount: 4) == .dark)
        #expect(LEDPattern.off.nextChange(after: 0, ledCount: 4) == nil)
        #expect(LEDPattern.healthWarning.frame(at: 0, ledCount: 4) == LEDFrame(bits: 0b1000))
        #expect(LEDPattern.healthWarning.frame(at: 250 * ms, ledCount: 4) == LEDFrame(bits: 0b1000))
        #expect(LEDPattern.healthWarning.frame(at: 1000 * ms, ledCount: 4) == .dark)
        #expect(LEDPattern.full.frame(at: 0, ledCount: 4) == .dark)
        #expect(LEDPattern.full.frame(at: 125 * ms, ledCount: 4) == LEDFrame(bits: 0b1111))
        #expect(LEDPattern.full.frame(at: 1999 * ms, ledCount: 4) == LEDFrame(bits: 0b1111))
        #expect(LEDPattern.full.frame(at: 2000 * ms, ledCount: 4) == .dark)

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
        #expect(third.duration == 2_250 * ms)
        #expect(LEDPattern.readout(position: 3, visualCountdown: false).duration == 2_000 * ms)
        // Past the row: the row lit, the place's LED blinking.
        let fifth = LEDPattern.readout(position: 5, visualCountdown: false)
        #expect(fifth.frame(at: 0, ledCount: 4) == LEDFrame(bits: 0b1111))
        #expect(fifth.frame(at: 250 * ms, ledCount: 4) == LEDFrame(bits: 0b1110))
    }

    @Test func patternsThatEndSayWhen() throws {
        for pattern in [
            LEDPattern.acknowledge(count: 1), .acknowledge(count: 2), .countdown(halfSeconds: 3),
            .readout(position: 2, visualCountdown: true),
        ] {
            let end = try #require(pattern.duration)
            #expect(pattern.nextChange(after: end - 1, ledCount: 4) == end)
            #expect(pattern.frame(at: end, ledCount: 4) == .dark)
            #expect(pattern.nextChange(after: end, ledCount: 4) == nil)
        }
        #expect(LEDPattern.acknowledge(count: 2).duration == 500 * ms)
        for pattern in [
            LEDPattern.off, .warning, .error, .full, .safeToRemove, .busy, .exportProgress(done: 1, total: 2),
        ] {
            #expect(pattern.duration == nil, "\(pattern)")
        }
    }

    /// The volume bar: the share of 100 % rounded up (10 % still lights one LED), dark for the first
    /// 125 ms of every half second.
    @Test func theVolumeShowsAsABarThatBeatsEveryHalfSecond() {
        #expect(LEDPattern.volumeDisplay(percent: 30).frame(at: 0, ledCount: 4) == .dark)
        #expect(LEDPattern.volumeDisplay(percent: 30).frame(at: 125 * ms, ledCount: 4) == .firstLit(2))
        #expect(LEDPattern.volumeDisplay(percent: 10).frame(at: 200 * ms, ledCount: 4) == .firstLit(1))
        #expect(LEDPattern.volumeDisplay(percent: 100).frame(at: 499 * ms, ledCount: 4) == .firstLit(4))
        #expect(LEDPattern.volumeDisplay(percent: 100).frame(at: 500 * ms, ledCount: 4) == .dark)
        #expect(LEDPattern.volumeDisplay(percent: 50).duration == nil)
    }

    /// No two situations share a pattern: over 4 s on 4 LEDs, every pattern's frames differ from every
    /// other's somewhere.
    @Test func everyPatternLooksDifferent() {
        let patterns: [LEDPattern] = [
            .off, .countdown(halfSeconds: 4), .delayDisplay(halfSeconds: 2), .delayDisplay(halfSeconds: 3), .allOn,
            .busy, .error, .warning, .acknowledge(count: 1), .acknowledge(count: 2),
            .exportProgress(done: 1, total: 4), .exportProgress(done: 2, total: 4), .safeToRemove, .full,
            .healthWarning, .readout(position: 1, visualCountdown: false), .readout(position: 1, visualCountdown: true),
            .readout(position: 2, visualCountdown: false), .readout(position: 5, visualCountdown: true),
            .volumeDisplay(percent: 50), .volumeDisplay(percent: 100),
        ]
        let frames = patterns.map { pattern in
            (0..<800).map { pattern.frame(at: Int64($0) * 5 * ms, ledCount: 4) }
        }
        for i in patterns.indices {
            for j in patterns.indices where j > i {
                #expect(frames[i] != frames[j], "\(patterns[i]) looks like \(patterns[j])")
            }
        }
    }

    /// For every pattern, the frame is constant between the change times it announces.
    @Test(arguments: [
        LEDPattern.countdown(halfSeconds: 5), .delayDisplay(halfSeconds: 6), .busy, .error, .warning,
        .acknowledge(count: 3), .exportProgress(done: 1, total: 3), .safeToRemove, .full, .healthWarning,
        .readout(position: 2, visualCountdown: true), .readout(position: 6, visualCountdown: false),
        .volumeDisplay(percent: 70),
    ])
    func framesOnlyChangeWhenAnnounced(pattern: LEDPattern) {
        var t: Int64 = 0
        let step: Int64 = 5 * ms
        var frame = pattern.frame(at: 0, ledCount: 4)
        var next = pattern.nextChange(after: 0, ledCount: 4)
        while t < 4_000 * ms {
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
