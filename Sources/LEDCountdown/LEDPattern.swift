// LEDPattern: LED patterns as pure functions of the time elapsed since the pattern started.
/// LED patterns as pure functions of the time elapsed since the pattern started.
///
/// Times are nanoseconds. Nothing here reads a clock: the owner tells a pattern how long it has
/// been showing and asks when it will next change, so a test can check every frame at exact times.
public enum LEDPattern: Equatable, Hashable, Sendable {
    /// Every LED off: the booth is idle and ready (the button's own LED says so).
    case off
    /// The visual countdown for a delay of `halfSeconds` × 0.5 s: at the start of every half second the
    /// LEDs flash on for 250 ms, as many as the fraction of the delay still to run, then go dark.
    case countdown(halfSeconds: Int)
    /// The selected delay while the knob chooses it: one lit LED per 0.5 s. Steps beyond the LED count
    /// blink (4 Hz) on top of the fully lit row.
    case delayDisplay(halfSeconds: Int)
    /// The booth's volume while the knob chooses it: a bar of lit LEDs for the share of 100 %, dark
    /// for 125 ms at the start of every half second.
    case volumeDisplay(percent: Int)
    /// Every LED lit: the photo is being taken now.
    case allOn
    /// A light running along the row: the photo is being saved.
    case busy
    /// Every LED blinking fast (4 Hz): something failed.
    case error
    /// The first LED double-blinking every two seconds: the booth works but something needs attention
    /// (a device missing: sound, camera, a GPIO line; the volume muted or below half).
    case warning
    /// `count` blinks of the whole row, then dark: a setting was toggled.
    case acknowledge(count: Int)
    /// Export to a USB stick under way: lit LEDs show the fraction done, the next one blinks (2 Hz).
    case exportProgress(done: Int, total: Int)
    /// Export finished and the stick is unmounted: the whole row breathes slowly (1 s on, 1 s off).
    case safeToRemove
    /// The last LED double-blinking every two seconds: too hot, or the supply too low (heat and power).
    case healthWarning
    /// The photo store is below its free-space reserve: the whole row lit, dark for 125 ms every 2 s.
    case full
    /// What the knob has chosen, read out without changing it: for 1.5 s the selected sound's place among
    /// the favourites (LED `position` blinking at 2 Hz; past the row, the row lit and LED
    /// `position - ledCount` blinking), 250 ms dark, then the visual countdown's state as
    /// `acknowledge` shows it (two blinks on, one off), then dark.
    case readout(position: Int, visualCountdown: Bool)

    /// The frame shown `elapsed` nanoseconds after the pattern started, on a row of `ledCount` LEDs.
    public func frame(at elapsed: Int64, ledCount: Int) -> LEDFrame {
        let all = LEDFrame.firstLit(ledCount)
        let t = max(0, elapsed)
        switch self {
        case .off:
            return .dark
        case .countdown(let halfSeconds):
            let slot = t / Self.halfSecond
            guard halfSeconds > 0, slot < halfSeconds else { return .dark }
            guard t % Self.halfSecond < Self.flashOn else { return .dark }
            let remaining = Int64(halfSeconds) - slot
            let lit = (Int64(ledCount) * remaining + Int64(halfSeconds) - 1) / Int64(halfSeconds)
            return .firstLit(Int(lit))
        case .delayDisplay(let halfSeconds):
            guard halfSeconds > ledCount else { return .firstLit(halfSeconds) }
            let blinkOn = (t / Self.fastBlink) % 2 == 0
            let extra = LEDFrame.firstLit(min(halfSeconds - ledCount, ledCount))
            return blinkOn ? all : LEDFrame(bits: all.bits & ~extra.bits)
        case .volumeDisplay(let percent):
            guard t % Self.halfSecond >= Self.fastBlink else { return .dark }
            return .firstLit((ledCount * min(max(percent, 0), 100) + 99) / 100)
        case .allOn:
            return all
        case .busy:
            guard ledCount > 0 else { return .dark }
            let position = Int((t / Self.chaseStep) % Int64(ledCount))
            return LEDFrame(bits: 1 << UInt8(position))
        case .error:
            return (t / Self.fastBlink) % 2 == 0 ? all : .dark
        case .warning:
            let phase = t % Self.warningPeriod
            let on = phase < Self.fastBlink || (phase >= 2 * Self.fastBlink && phase < 3 * Self.fastBlink)
            return on ? .firstLit(min(1, ledCount)) : .dark
        case .acknowledge(let count):
            guard t < Int64(count) * 2 * Self.fastBlink else { return .dark }
            return (t / Self.fastBlink) % 2 == 0 ? all : .dark
        case .exportProgress(let done, let total):
            guard total > 0 else { return .dark }
            let lit = min(ledCount, ledCount * max(0, done) / total)
            let blinkOn = (t / Self.halfSecond / 2) % 2 == 0 && lit < ledCount
            return .firstLit(blinkOn ? lit + 1 : lit)
        case .safeToRemove:
            return (t / Self.slowBlink) % 2 == 0 ? all : .dark
        case .healthWarning:
            let phase = t % Self.warningPeriod
            let on = phase < Self.fastBlink || (phase >= 2 * Self.fastBlink && phase < 3 * Self.fastBlink)
            return on && ledCount > 0 ? LEDFrame(bits: 1 << UInt8(ledCount - 1)) : .dark
        case .full:
            return t % Self.warningPeriod < Self.fastBlink ? .dark : all
        case .readout(let position, let visualCountdown):
            if t < Self.readoutPosition {
                guard position > 0, ledCount > 0 else { return .dark }
                let round = (position - 1) / ledCount
                let led = LEDFrame(bits: 1 << UInt8((position - 1) % ledCount))
                let base = round > 0 ? LEDFrame(bits: all.bits & ~led.bits) : .dark
                return t % Self.halfSecond < Self.flashOn ? LEDFrame(bits: base.bits | led.bits) : base
            }
            guard t >= Self.readoutPosition + Self.fastBlink * 2 else { return .dark }
            let acknowledgement = LEDPattern.acknowledge(count: visualCountdown ? 2 : 1)
            return acknowledgement.frame(at: t - Self.readoutPosition - Self.fastBlink * 2, ledCount: ledCount)
        }
    }

    /// How long a pattern that ends (dark for good) lasts; nil for one that repeats or holds.
    public var duration: Int64? {
        switch self {
        case .countdown(let halfSeconds): Int64(max(0, halfSeconds)) * Self.halfSecond
        case .acknowledge(let count): Int64(max(0, count)) * 2 * Self.fastBlink
        case .readout(_, let visualCountdown):
            Self.readoutPosition + Self.fastBlink * 2 + (visualCountdown ? 4 : 2) * Self.fastBlink
        case .off, .delayDisplay, .volumeDisplay, .allOn, .busy, .error, .warning, .healthWarning, .exportProgress,
            .safeToRemove, .full:
            nil
        }
    }

    /// The first time after `elapsed` at which the frame may change, or nil when it never will.
    ///
    /// A change time is returned at every boundary where the pattern's formula steps; the owner writes
    /// the LEDs only when the frame really differs.
    public func nextChange(after elapsed: Int64, ledCount: Int) -> Int64? {
        let t = max(0, elapsed)
        func next(_ step: Int64) -> Int64 { (t / step + 1) * step }
        switch self {
        case .off, .allOn:
            return nil
        case .countdown(let halfSeconds):
            let end = Int64(max(0, halfSeconds)) * Self.halfSecond
            guard t < end else { return nil }
            let slotStart = t / Self.halfSecond * Self.halfSecond
            return t < slotStart + Self.flashOn ? slotStart + Self.flashOn : slotStart + Self.halfSecond
        case .delayDisplay(let halfSeconds):
            return halfSeconds > ledCount ? next(Self.fastBlink) : nil
        case .volumeDisplay:
            let start = t / Self.halfSecond * Self.halfSecond
            return t < start + Self.fastBlink ? start + Self.fastBlink : start + Self.halfSecond
        case .busy:
            return ledCount > 1 ? next(Self.chaseStep) : nil
        case .error, .warning, .healthWarning:
            return next(Self.fastBlink)
        case .acknowledge(let count):
            let end = Int64(count) * 2 * Self.fastBlink
            return t < end ? next(Self.fastBlink) : nil
        case .readout:
            guard let end = duration, t < end else { return nil }
            return next(Self.fastBlink)
        case .full:
            let start = t / Self.warningPeriod * Self.warningPeriod
            return t < start + Self.fastBlink ? start + Self.fastBlink : start + Self.warningPeriod
        case .exportProgress:
            return next(Self.halfSecond * 2)
        case .safeToRemove:
            return next(Self.slowBlink)
        }
    }

    /// Half a second: the countdown's beat.
    public static let halfSecond: Int64 = 500_000_000
    /// How long the countdown LEDs stay lit in each half second.
    public static let flashOn: Int64 = 250_000_000
    static let fastBlink: Int64 = 125_000_000
    static let chaseStep: Int64 = 125_000_000
    static let slowBlink: Int64 = 1_000_000_000
    static let warningPeriod: Int64 = 2_000_000_000
    static let readoutPosition: Int64 = 1_500_000_000
}
