// Duration+Units: a Duration as the whole units the booth's records, configs and kernel calls write.
extension Duration {
    /// `seconds` (a config's or a script's decimal number) to the nearest nanosecond, so 0.3 is 300 ms exactly and
    /// equals `.milliseconds(300)`.
    public static func seconds(toTheNanosecond seconds: Double) -> Duration {
        .nanoseconds(Int64((seconds * 1e9).rounded()))
    }

    /// This duration in whole nanoseconds, rounded to the nearest (`.seconds(0.009)`, a few attoseconds short, is
    /// 9 000 000, not one less).
    public var inNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let half: Int64 = 500_000_000
        return seconds * 1_000_000_000 + (attoseconds >= 0 ? attoseconds + half : attoseconds - half) / 1_000_000_000
    }

    /// This duration in whole microseconds, toward zero (the events log's `_us` fields).
    public var inMicroseconds: Int64 { inNanoseconds / 1000 }

    /// This duration in whole milliseconds, toward zero (the configs' and messages' `_ms`).
    public var inMilliseconds: Int64 { inNanoseconds / 1_000_000 }

    /// This duration in seconds.
    public var inSeconds: Double { Double(inNanoseconds) / 1e9 }
}

extension Duration {
    /// How a message says this duration: "300 ms" below a second, else "5 s" or "1.5 s" (to the tenth).
    public var spoken: String {
        let milliseconds = inMilliseconds
        if abs(milliseconds) < 1000 { return "\(milliseconds) ms" }
        let tenths = (milliseconds + (milliseconds >= 0 ? 50 : -50)) / 100
        return tenths % 10 == 0 ? "\(tenths / 10) s" : "\(tenths / 10).\(abs(tenths % 10)) s"
    }
}
