// WallTime: the kernel's wall clock (CLOCK_REALTIME), whether it is synchronised, and a moment of it in calendar fields.
import CBoothSys
import Glibc

/// A moment of the kernel's wall clock (CLOCK_REALTIME) in calendar fields, in the local time zone or UTC: the one
/// place the booth and the gallery read that clock and break its seconds up (localtime_r, gmtime_r). Never for
/// timing: that is `KernelClock`'s.
public struct WallTime: Equatable, Sendable {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int
    /// The zone's offset from UTC at this moment, in seconds east (0 for UTC).
    public var utcOffset: Int

    /// The wall clock now, in microseconds since 1970 (UTC).
    public static func nowMicroseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
    }

    /// The moment `seconds` after 1970 (UTC), in the local time zone (`TZ`, /etc/localtime) or in UTC.
    public init(seconds: Int64, local: Bool) {
        var time = time_t(seconds)
        var parts = tm()
        if local { localtime_r(&time, &parts) } else { gmtime_r(&time, &parts) }
        year = Int(parts.tm_year) + 1900
        month = Int(parts.tm_mon) + 1
        day = Int(parts.tm_mday)
        hour = Int(parts.tm_hour)
        minute = Int(parts.tm_min)
        second = Int(parts.tm_sec)
        utcOffset = parts.tm_gmtoff
    }

    /// Whether the kernel says its wall clock is synchronised (set by network time): false when it reports
    /// TIME_ERROR or the STA_UNSYNC flag, as it does until network time sets a Pi's clock (it has no battery clock).
    /// The corresponding C function is `adjtimex`, with no change (a read, allowed without CAP_SYS_TIME).
    public static func isSynchronised() throws(SystemError) -> Bool {
        switch booth_clock_synchronised() {
        case 1: return true
        case 0: return false
        default: throw SystemError("adjtimex", errno: Glibc.errno)
        }
    }

    /// Now, in the local time zone or in UTC.
    public static func now(local: Bool) -> WallTime {
        WallTime(seconds: nowMicroseconds() / 1_000_000, local: local)
    }

    /// `2026-11-27 18:04:05`.
    public var text: String {
        "\(year)-\(Self.two(month))-\(Self.two(day)) \(Self.two(hour)):\(Self.two(minute)):\(Self.two(second))"
    }

    private static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
