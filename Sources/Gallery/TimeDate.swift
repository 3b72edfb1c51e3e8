// TimeDate: systemd-timedated on the system bus: whether network time keeps the clock, and setting it.
import BoothSystem

/// systemd-timedated on the system bus: whether network time keeps the clock (`NTPSynchronized`, which timedated
/// reads from the kernel: a maximum error under 16 s; the gallery's own sandbox forbids adjtimex), and setting the
/// clock, which polkit allows the gallery's user (deploy/polkit/50-heylook-gallery.rules). Owned by one task at a time.
final class TimeDate {
    static let service = "org.freedesktop.timedate1"
    static let path = "/org/freedesktop/timedate1"

    private let bus: SystemBus

    /// Connects to the system bus.
    init() throws(SystemBus.Failure) {
        bus = try SystemBus()
    }

    /// Whether network time (timesyncd, chrony) keeps the clock.
    func synchronised() throws(SystemBus.Failure) -> Bool {
        try bus.property(Self.service, Self.path, Self.service, "NTPSynchronized") == "true"
    }

    /// Sets the clock to `microseconds` since 1970 (UTC). timedated refuses while its network time service is
    /// on (the two would fight), so that is turned off for the moment of setting and on again: with a network
    /// later, network time takes over. Throws only when the clock was not set; once it is, a failure to turn
    /// network time on again is returned, for the log.
    func set(microseconds: Int64) throws(SystemBus.Failure) -> SystemBus.Failure? {
        let ntp = try bus.property(Self.service, Self.path, Self.service, "NTP") == "true"
        if ntp { try setNTP(false) }
        do {
            try bus.call(
                Self.service, Self.path, Self.service, "SetTime", signature: "xbb",
                [String(microseconds), "false", "false"]
            )
        } catch {
            if ntp { try? setNTP(true) }
            throw error
        }
        guard ntp else { return nil }
        do {
            try setNTP(true)
            return nil
        } catch {
            return error
        }
    }

    private func setNTP(_ on: Bool) throws(SystemBus.Failure) {
        try bus.call(
            Self.service, Self.path, Self.service, "SetNTP", signature: "bb", [on ? "true" : "false", "false"])
    }
}
