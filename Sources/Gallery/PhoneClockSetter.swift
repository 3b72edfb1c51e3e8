// PhoneClockSetter: sets the system clock from the first signed-in phone while it is unsynchronised.
import BoothSystem
import GalleryCore
import Glibc
import PhotoModel

/// Sets the system clock from the first signed-in phone while network time has not (`booth gallery --set-clock`,
/// as the installed unit runs it), through timedated, and leaves the `ClockMark` the booth trusts. `PhoneClock`
/// decides; this carries it out, one phone at a time, on a queue of its own (its D-Bus calls block).
actor PhoneClockSetter {
    private let executor = QueueExecutor(label: "heylook.clock")
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Where the mark is written (`ClockMark.path` when installed).
    let markPath: String
    private let log: @Sendable (String) -> Void
    private var timeDate: TimeDate?
    /// Network time, once seen, is not asked again.
    private var synchronised = false
    /// When timedated last said the clock is not synchronised (monotonic seconds): believed for 10 s, so a party's
    /// page loads do not each ask it.
    private var askedAt: Int64?
    /// The last failure to reach timedated, logged once.
    private var lastProblem: String?

    init(markPath: String, log: @escaping @Sendable (String) -> Void) {
        self.markPath = markPath
        self.log = log
    }

    /// Whether the pages should ask phones for their time: no mark yet and timedated says network time has not set
    /// the clock. False when timedated cannot be reached (the reason logged once).
    func wanted() -> Bool {
        guard !marked(), !synchronised else { return false }
        let now = KernelClock().now().nanoseconds / 1_000_000_000
        if let askedAt, now - askedAt < 10 { return true }
        do {
            synchronised = try bus().synchronised()
            askedAt = synchronised ? nil : now
            return !synchronised
        } catch {
            problem("\(error)")
            return false
        }
    }

    /// What to do with a phone's time (`phone`, microseconds since 1970) sent from `address`; sets the clock and
    /// writes the mark when `PhoneClock` says so.
    func offer(phone: Int64, from address: String) throws -> PhoneClock.Decision {
        let booth = WallTime.nowMicroseconds()
        let timeDate = try bus()
        if !synchronised { synchronised = try timeDate.synchronised() }
        let decision = PhoneClock.decide(
            phone: phone, booth: booth, synchronised: synchronised, alreadySet: marked())
        guard case .set(let microseconds) = decision else { return decision }
        // The monotonic moment of the setting, which dates the photos taken undated earlier in this boot.
        let at = BootID.current().flatMap { BootInstant(boot: $0, instant: KernelClock().now()) }
        let ntpProblem = try timeDate.set(microseconds: microseconds)
        let mark = ClockMark(setTo: microseconds / 1_000_000, was: booth / 1_000_000, phone: address, at: at)
        try DurableFile().write(Array(mark.text.utf8), path: markPath, replacing: true, mode: 0o644)
        log(
            "clock set from a phone (\(address)): it said \(Self.text(booth)), the phone \(Self.text(microseconds)); "
                + "photos are dated from now on")
        if let ntpProblem { log("network time could not be turned on again after setting the clock: \(ntpProblem)") }
        return decision
    }

    private func marked() -> Bool { FileAccess.exists(markPath) }

    private func bus() throws(SystemBus.Failure) -> TimeDate {
        if let timeDate { return timeDate }
        let made = try TimeDate()
        timeDate = made
        return made
    }

    private func problem(_ text: String) {
        guard text != lastProblem else { return }
        lastProblem = text
        log("the clock cannot be set from phones: \(text)")
    }

    /// `2026-11-27 18:04:05 UTC`.
    static func text(_ microseconds: Int64) -> String {
        "\(WallTime(seconds: microseconds / 1_000_000, local: false).text) UTC"
    }
}
