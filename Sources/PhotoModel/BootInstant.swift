// BootInstant: a moment on one boot's monotonic clock, the boot named by the kernel's boot id.
import BoothTime

/// A moment on one boot's monotonic clock (CLOCK_MONOTONIC, which setting the wall clock does not move), the boot
/// named by the kernel's boot id: how the store remembers when an undated photo was taken, so that once the clock is
/// set from a phone later in the same boot (`ClockMark`), the photo's date is known to the second. Text:
/// `<boot id>@<nanoseconds>`, the id as 32 lowercase hex digits.
public struct BootInstant: Hashable, Sendable, CustomStringConvertible {
    /// The boot's id: 32 lowercase hex digits.
    public let boot: String
    /// The moment on that boot's monotonic clock.
    public let instant: Instant

    /// `instant` of the boot `boot` (its id with or without dashes, as /proc/sys/kernel/random/boot_id or systemd's
    /// `%b` give it); nil when `boot` is not a boot id.
    public init?(boot: String, instant: Instant) {
        guard let id = Self.bootID(boot) else { return nil }
        self.boot = id
        self.instant = instant
    }

    /// `<boot id>@<nanoseconds>`.
    public var description: String { "\(boot)@\(instant.nanoseconds)" }

    /// The moment in `text` (`description`'s form), or nil when it is not one.
    public static func parse(_ text: Substring) -> BootInstant? {
        guard let at = text.firstIndex(of: "@"), let nanoseconds = Int64(text[text.index(after: at)...]),
            nanoseconds >= 0, text[..<at].count == 32
        else { return nil }
        return BootInstant(boot: String(text[..<at]), instant: Instant(nanoseconds: nanoseconds))
    }

    /// A boot id as 32 lowercase hex digits: `text` without its dashes and white space, or nil when that is
    /// not 32 hex digits.
    public static func bootID(_ text: String) -> String? {
        let digits = text.filter { !$0.isWhitespace && $0 != "-" }.lowercased()
        guard digits.count == 32, digits.allSatisfy({ "0123456789abcdef".contains($0) }) else { return nil }
        return digits
    }
}
