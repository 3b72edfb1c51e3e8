// PhoneClockSetter: sets the system clock from the first signed-in phone while it is unsynchronised.
import BoothCore
import BoothSystem
import GalleryCore
import Glibc

/// Sets the system clock from the first signed-in phone while network time has not (`booth gallery --set-clock`,
/// as the installed unit runs it), through timedated, and leaves the `ClockMark` the booth trusts. `PhoneClock`
/// decides; this carries it out, one phone at a time.
actor PhoneClockSetter {
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
        let booth = Self.now()
        let timeDate = try bus()
        if !synchronised { synchronised = try timeDate.synchronised() }
        let decision = PhoneClock.decide(
            phone: phone, booth: booth, synchronised: synchronised, alreadySet: marked())
        guard case .set(let microseconds) = decision else { return decision }
        try timeDate.set(microseconds: microseconds)
        let mark = ClockMark(setTo: microseconds / 1_000_000, was: booth / 1_000_000, phone: address)
        try DurableFile().write(Array(mark.text.utf8), path: markPath, replacing: true, mode: 0o644)
        log(
            "clock set from a phone (\(address)): it said \(Self.text(booth)), the phone \(Self.text(microseconds)); "
                + "photos are dated from now on")
        return decision
    }

    private func marked() -> Bool { access(markPath, F_OK) == 0 }

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

    /// The wall clock now, in microseconds since 1970.
    static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
    }

    /// `2026-11-27 18:04:05 UTC`.
    static func text(_ microseconds: Int64) -> String {
        var seconds = time_t(microseconds / 1_000_000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) UTC"
    }
}
