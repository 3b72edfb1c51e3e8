// LEDPattern: LED patterns as pure functions of the time elapsed since the pattern started.
import BoothTime

/// LED patterns as pure functions of the time elapsed since the pattern started.
///
/// Times are durations (integer nanoseconds inside). Nothing here reads a clock: the owner tells a pattern how long it
/// has been showing and asks when it will next change, so a test can check every frame at exact times.
///
/// No two situations look alike on a row of 2 to 8 LEDs (`ledCounts`), at any value of their parameters: only `allOn`
/// is the whole row lit and steady, the knob's displays and the export's progress always have a blinking LED, each
/// warning cause has its own blink count, and a readout's place past two rows flashes the row first (LEDPatternTests
/// reads every situation back from what the row shows, by the rules these comments and README.md give).
public enum LEDPattern: Equatable, Hashable, Sendable {
    /// The row lengths the config allows (`gpio.leds`), on each of which every situation has its own pattern. Not one
    /// LED: lit steady it would be both "taking the photo" (`allOn`) and "saving it" (`busy`, a light running along a
    /// row of one), and an export's blinking LED would be "safe to remove".
    public static let ledCounts = 2...8

    /// Every LED off: the booth is idle and ready (the button's own LED says so).
    case off
    /// The visual countdown for a delay of `halfSeconds` × 0.5 s: at the start of every half second the
    /// LEDs flash on for 250 ms, as many as the fraction of the delay still to run, then go dark.
    case countdown(halfSeconds: Int)
    /// The selected delay while the knob chooses it: one LED per 0.5 s, the last of them (the knob's cursor)
    /// blinking, lit 750 ms of every second. Past the row the count starts again at the first LED with the rest of
    /// the row lit and the cursor lit 250 ms of every second (a third lap: 125 ms of every 250 ms).
    case delayDisplay(halfSeconds: Int)
    /// The booth's volume while the knob chooses it: a bar of lit LEDs for the share of 100 %, dark
    /// for 125 ms at the start of every half second.
    case volumeDisplay(percent: Int)
    /// Every LED lit: the photo is being taken now.
    case allOn
    /// A light running along the row, a step every 125 ms: the photo is being saved. (On two LEDs that is the first
    /// and the last in turn, four times as fast as `unknownStick`.)
    case busy
    /// Every LED blinking fast (4 Hz): something failed.
    case error
    /// The first LED blinking `blinks` times (250 ms on, 250 ms off), then 1.5 s dark: the booth works but something
    /// needs attention, the count saying what (`DeviceWarning.blinks`). Several causes take turns, in the order given.
    case warning(blinks: [Int])
    /// `count` blinks of the whole row, then dark: a setting was toggled.
    case acknowledge(count: Int)
    /// Export to a USB stick under way: lit LEDs show the fraction done, the next one blinks (1 s on, 1 s off). The
    /// whole row is never lit: the last LED waits for the copy to be verified and the stick unmounted
    /// (`safeToRemove`).
    case exportProgress(done: Int, total: Int)
    /// Export finished and the stick is unmounted: the whole row breathes slowly (1 s on, 1 s off).
    case safeToRemove
    /// A stick that is not one of the owner's is in (`export.sticks = "owner"`): the first and the last LED lit in
    /// turn, 500 ms each, until it is made the owner's (the knob's switch held) or pulled.
    case unknownStick
    /// The last LED blinking `blinks` times, then 1.5 s dark, as `warning` does: too hot (1), the supply too low (2),
    /// a camera's battery low (3), the printer needing attention (4). Several causes take turns.
    case healthWarning(blinks: [Int])
    /// The photo store is below its free-space reserve: the whole row lit, dark for 125 ms every 2 s.
    case full
    /// The booth's own Wi-Fi is on (`booth hotspot on`): a bar growing from the first LED to the whole row in 750 ms,
    /// then 250 ms dark, three times, then dark.
    case hotspotOn
    /// What the knob has chosen, read out without changing it: for 1.5 s the selected sound's place among
    /// the knob's sounds (LED `position` blinking at 2 Hz; past the row, the row lit and LED
    /// `position - ledCount` blinking), 250 ms dark, then the visual countdown's state as
    /// `acknowledge` shows it (two blinks on, one off), then dark. Past two rows, the whole row first flashes once
    /// (250 ms on, 250 ms off) for each further row: on 4 LEDs place 9 is one flash, then the row lit and LED 1
    /// blinking; place 13 two flashes, then the same. (Custom sounds join the favourites, so a place has no bound.)
    case readout(position: Int, visualCountdown: Bool)

    /// The frame shown `elapsed` after the pattern started, on a row of `ledCount` LEDs.
    public func frame(at elapsed: Duration, ledCount: Int) -> LEDFrame {
        frame(nanoseconds: elapsed.inNanoseconds, ledCount: ledCount)
    }

    /// How long a pattern that ends (dark for good) lasts on a row of `ledCount` LEDs (a readout past two rows
    /// flashes first); nil for one that repeats or holds.
    public func duration(ledCount: Int) -> Duration? {
        length(ledCount: ledCount).map { .nanoseconds($0) }
    }

    /// The first time after `elapsed` at which the frame may change, or nil when it never will.
    ///
    /// A change time is returned at every boundary where the pattern's formula steps; the owner writes
    /// the LEDs only when the frame really differs.
    public func nextChange(after elapsed: Duration, ledCount: Int) -> Duration? {
        nextChange(nanoseconds: elapsed.inNanoseconds, ledCount: ledCount).map { .nanoseconds($0) }
    }

    /// `frame(at:ledCount:)` at `elapsed` nanoseconds.
    private func frame(nanoseconds elapsed: Int64, ledCount: Int) -> LEDFrame {
        let all = LEDFrame.firstLit(ledCount)
        let t = max(0, elapsed)
        switch self {
        case .off:
            return .dark
        case .countdown(let halfSeconds):
            let slot = t / Beat.halfSecond
            guard halfSeconds > 0, slot < halfSeconds else { return .dark }
            guard t % Beat.halfSecond < Beat.flashOn else { return .dark }
            let remaining = Int64(halfSeconds) - slot
            let lit = (Int64(ledCount) * remaining + Int64(halfSeconds) - 1) / Int64(halfSeconds)
            return .firstLit(Int(lit))
        case .delayDisplay(let halfSeconds):
            guard halfSeconds > 0, ledCount > 0 else { return .dark }
            let lap = (halfSeconds - 1) / ledCount
            let cursor = LEDFrame(bits: 1 << UInt8((halfSeconds - 1) % ledCount))
            let before = LEDFrame.firstLit((halfSeconds - 1) % ledCount)
            let rest = lap == 0 ? before : LEDFrame(bits: all.bits & ~cursor.bits)
            let (on, period): (Int64, Int64) =
                switch lap {
                case 0: (3 * Beat.flashOn, 4 * Beat.flashOn)
                case 1: (Beat.flashOn, 4 * Beat.flashOn)
                default: (Beat.fastBlink, 2 * Beat.fastBlink)
                }
            return t % period < on ? LEDFrame(bits: rest.bits | cursor.bits) : rest
        case .volumeDisplay(let percent):
            guard t % Beat.halfSecond >= Beat.fastBlink else { return .dark }
            return .firstLit((ledCount * min(max(percent, 0), 100) + 99) / 100)
        case .allOn:
            return all
        case .busy:
            guard ledCount > 0 else { return .dark }
            let position = Int((t / Beat.chaseStep) % Int64(ledCount))
            return LEDFrame(bits: 1 << UInt8(position))
        case .error:
            return (t / Beat.fastBlink) % 2 == 0 ? all : .dark
        case .warning(let blinks):
            return Self.blinking(blinks, at: t) ? .firstLit(min(1, ledCount)) : .dark
        case .acknowledge(let count):
            guard t < Int64(count) * 2 * Beat.fastBlink else { return .dark }
            return (t / Beat.fastBlink) % 2 == 0 ? all : .dark
        case .exportProgress(let done, let total):
            let lit = total > 0 ? min(ledCount - 1, ledCount * min(max(0, done), total) / total) : 0
            let blinkOn = (t / Beat.slowBlink) % 2 == 0
            return .firstLit(blinkOn ? lit + 1 : lit)
        case .safeToRemove:
            return (t / Beat.slowBlink) % 2 == 0 ? all : .dark
        case .unknownStick:
            let first = (t / Beat.halfSecond) % 2 == 0
            guard ledCount > 1 else { return first && ledCount == 1 ? .firstLit(1) : .dark }
            return LEDFrame(bits: 1 << UInt8(first ? 0 : ledCount - 1))
        case .healthWarning(let blinks):
            return Self.blinking(blinks, at: t) && ledCount > 0 ? LEDFrame(bits: 1 << UInt8(ledCount - 1)) : .dark
        case .full:
            return t % Beat.fullPeriod < Beat.fastBlink ? .dark : all
        case .hotspotOn:
            let inRound = t % Beat.slowBlink
            guard ledCount > 0, t < Beat.hotspotRounds * Beat.slowBlink, inRound < Beat.hotspotGrowth else {
                return .dark
            }
            return .firstLit(Int(inRound * Int64(ledCount) / Beat.hotspotGrowth) + 1)
        case .readout(let position, let visualCountdown):
            let flashes = Self.readoutFlashes(position: position, ledCount: ledCount)
            guard t >= flashes else { return t % Beat.halfSecond < Beat.flashOn ? all : .dark }
            let u = t - flashes
            if u < Beat.readoutPosition {
                guard position > 0, ledCount > 0 else { return .dark }
                let led = LEDFrame(bits: 1 << UInt8((position - 1) % ledCount))
                let base = position > ledCount ? LEDFrame(bits: all.bits & ~led.bits) : .dark
                return u % Beat.halfSecond < Beat.flashOn ? LEDFrame(bits: base.bits | led.bits) : base
            }
            guard u >= Beat.readoutPosition + Beat.fastBlink * 2 else { return .dark }
            let acknowledgement = LEDPattern.acknowledge(count: visualCountdown ? 2 : 1)
            return acknowledgement.frame(nanoseconds: u - Beat.readoutPosition - Beat.fastBlink * 2, ledCount: ledCount)
        }
    }

    /// `duration(ledCount:)` in nanoseconds.
    private func length(ledCount: Int) -> Int64? {
        switch self {
        case .countdown(let halfSeconds): Int64(max(0, halfSeconds)) * Beat.halfSecond
        case .acknowledge(let count): Int64(max(0, count)) * 2 * Beat.fastBlink
        case .hotspotOn: Beat.hotspotRounds * Beat.slowBlink
        case .readout(let position, let visualCountdown):
            Self.readoutFlashes(position: position, ledCount: ledCount) + Beat.readoutPosition + Beat.fastBlink * 2
                + (visualCountdown ? 4 : 2) * Beat.fastBlink
        case .off, .delayDisplay, .volumeDisplay, .allOn, .busy, .error, .warning, .healthWarning, .exportProgress,
            .safeToRemove, .unknownStick, .full:
            nil
        }
    }

    /// `nextChange(after:ledCount:)` in nanoseconds.
    private func nextChange(nanoseconds elapsed: Int64, ledCount: Int) -> Int64? {
        let t = max(0, elapsed)
        func next(_ step: Int64) -> Int64 { (t / step + 1) * step }
        switch self {
        case .off, .allOn:
            return nil
        case .countdown(let halfSeconds):
            let end = Int64(max(0, halfSeconds)) * Beat.halfSecond
            guard t < end else { return nil }
            let slotStart = t / Beat.halfSecond * Beat.halfSecond
            return t < slotStart + Beat.flashOn ? slotStart + Beat.flashOn : slotStart + Beat.halfSecond
        case .delayDisplay(let halfSeconds):
            return halfSeconds > 0 && ledCount > 0 ? next(Beat.fastBlink) : nil
        case .volumeDisplay:
            let start = t / Beat.halfSecond * Beat.halfSecond
            return t < start + Beat.fastBlink ? start + Beat.fastBlink : start + Beat.halfSecond
        case .busy:
            return ledCount > 1 ? next(Beat.chaseStep) : nil
        case .error:
            return next(Beat.fastBlink)
        case .warning(let blinks), .healthWarning(let blinks):
            return blinks.contains { $0 > 0 } ? next(Beat.blinkStep) : nil
        case .acknowledge(let count):
            let end = Int64(count) * 2 * Beat.fastBlink
            return t < end ? next(Beat.fastBlink) : nil
        case .readout:
            guard let end = length(ledCount: ledCount), t < end else { return nil }
            return next(Beat.fastBlink)
        case .full:
            let start = t / Beat.fullPeriod * Beat.fullPeriod
            return t < start + Beat.fastBlink ? start + Beat.fastBlink : start + Beat.fullPeriod
        case .exportProgress:
            return next(Beat.slowBlink)
        case .safeToRemove:
            return next(Beat.slowBlink)
        case .unknownStick:
            return ledCount > 0 ? next(Beat.halfSecond) : nil
        case .hotspotOn:
            guard ledCount > 0, t < Beat.hotspotRounds * Beat.slowBlink else { return nil }
            let round = t / Beat.slowBlink * Beat.slowBlink
            let inRound = t - round
            guard inRound < Beat.hotspotGrowth else { return round + Beat.slowBlink }
            // The next LED's start, rounded up to the nanosecond at which `frame` shows it.
            let step = inRound * Int64(ledCount) / Beat.hotspotGrowth + 1
            guard step < ledCount else { return round + Beat.hotspotGrowth }
            return round + (step * Beat.hotspotGrowth + Int64(ledCount) - 1) / Int64(ledCount)
        }
    }

    /// Half a second: the countdown's beat.
    public static let halfSecond: Duration = .milliseconds(500)
    /// How long the countdown LEDs stay lit in each half second.
    public static let flashOn: Duration = .milliseconds(250)

    /// The patterns' times in nanoseconds, the unit of their arithmetic.
    enum Beat {
        static let halfSecond: Int64 = 500_000_000
        static let flashOn: Int64 = 250_000_000
        static let fastBlink: Int64 = 125_000_000
        static let chaseStep: Int64 = 125_000_000
        static let slowBlink: Int64 = 1_000_000_000
        static let fullPeriod: Int64 = 2_000_000_000
        static let readoutPosition: Int64 = 1_500_000_000
        /// The hotspot's bar grows for this long in each of its rounds (one a second).
        static let hotspotGrowth: Int64 = 750_000_000
        static let hotspotRounds: Int64 = 3
        /// A warning's blink: this long on, then this long off.
        static let blinkStep: Int64 = 250_000_000
        /// The dark pause after a warning's blinks.
        static let blinkPause: Int64 = 1_500_000_000
    }

    /// How long a readout's whole row flashes before the place: one flash (250 ms on, 250 ms off) for each row
    /// past the second that the place is on.
    static func readoutFlashes(position: Int, ledCount: Int) -> Int64 {
        guard position > 0, ledCount > 0 else { return 0 }
        return Int64(max(0, (position - 1) / ledCount - 1)) * Beat.halfSecond
    }

    /// Whether a blink code's LED is lit at `t`: each count (ignoring counts below 1) blinks that many times, then
    /// pauses, the counts in turn, over and over.
    static func blinking(_ blinks: [Int], at t: Int64) -> Bool {
        let counts = blinks.filter { $0 > 0 }
        let periods = counts.map { Int64($0) * 2 * Beat.blinkStep + Beat.blinkPause }
        let cycle = periods.reduce(0, +)
        guard cycle > 0 else { return false }
        var phase = t % cycle
        for (count, period) in zip(counts, periods) {
            guard phase >= period else {
                return phase < Int64(count) * 2 * Beat.blinkStep && (phase / Beat.blinkStep) % 2 == 0
            }
            phase -= period
        }
        return false
    }
}
