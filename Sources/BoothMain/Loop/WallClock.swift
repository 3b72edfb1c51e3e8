// WallClock: the local wall-clock time, for photo names and EXIF (never for timing).
import BoothCore
import Glibc

/// The local wall-clock time, for photo names and EXIF (never for timing: that is the loop's `LoopClock`).
enum WallClock {
    /// Now, in local time.
    static func now() -> PhotoName.DateTime {
        var t = time(nil)
        var parts = tm()
        localtime_r(&t, &parts)
        return PhotoName.DateTime(
            year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday),
            hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec))
    }

    /// `HH:MM:SS.mmm` of now, for the simulated camera's test pattern.
    static func timeOfDayWithMilliseconds() -> String {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        var t = ts.tv_sec
        var parts = tm()
        localtime_r(&t, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let ms = ts.tv_nsec / 1_000_000
        let msText = ms < 10 ? "00\(ms)" : ms < 100 ? "0\(ms)" : "\(ms)"
        return
            "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(msText)"
    }
}
