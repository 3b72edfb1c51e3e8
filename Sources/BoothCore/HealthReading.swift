// HealthReading: the SoC's temperature and the Pi firmware's power and throttling flags, as read.

/// The SoC's temperature (a thermal zone) and, on a Raspberry Pi, the firmware's under-voltage and
/// throttling flags (`get_throttled`), as read from sysfs; nil where the machine has none.
public struct HealthReading: Hashable, Sendable {
    /// The SoC temperature in millidegrees Celsius.
    public var temperature: Int64?
    /// The firmware's `get_throttled` bits (see the flags below).
    public var throttled: UInt32?

    /// A reading from its parts.
    public init(temperature: Int64?, throttled: UInt32?) {
        self.temperature = temperature
        self.throttled = throttled
    }

    /// Under-voltage now (bit 0): the supply sags below 4.63 V; a brown-out is near.
    public static let underVoltageNow: UInt32 = 1 << 0
    /// The ARM frequency is capped now (bit 1).
    public static let frequencyCappedNow: UInt32 = 1 << 1
    /// Throttled now (bit 2).
    public static let throttledNow: UInt32 = 1 << 2
    /// The soft temperature limit is active now (bit 3).
    public static let softTemperatureLimitNow: UInt32 = 1 << 3
    /// Under-voltage has occurred since boot (bit 16).
    public static let underVoltageOccurred: UInt32 = 1 << 16
    /// Throttling has occurred since boot (bit 18).
    public static let throttlingOccurred: UInt32 = 1 << 18

    /// Whether the supply is too low now.
    public var underVoltage: Bool { (throttled ?? 0) & Self.underVoltageNow != 0 }

    /// Whether the SoC is too hot now: at or above `limit` millidegrees, or the firmware is holding it
    /// back for heat (soft limit, throttled or capped without under-voltage).
    public func overheating(limit: Int64) -> Bool {
        if let temperature, temperature >= limit { return true }
        let flags = throttled ?? 0
        let heatFlags = Self.softTemperatureLimitNow | Self.throttledNow | Self.frequencyCappedNow
        return flags & heatFlags != 0 && flags & Self.underVoltageNow == 0
    }

    /// A thermal zone's `temp` file: millidegrees as a decimal number and a newline; nil for anything
    /// else (a driver that cannot read its sensor returns an error or garbage).
    public static func parseTemperature(_ text: String) -> Int64? {
        let trimmed = text.trimmingSpace
        guard !trimmed.isEmpty, trimmed.count <= 12 else { return nil }
        return Int64(trimmed)
    }

    /// The firmware's `get_throttled` file: the bits in hexadecimal (with or without `0x`); nil for
    /// anything else.
    public static func parseThrottled(_ text: String) -> UInt32? {
        var trimmed = Substring(text.trimmingSpace)
        if trimmed.hasPrefix("0x") || trimmed.hasPrefix("0X") { trimmed = trimmed.dropFirst(2) }
        guard !trimmed.isEmpty, trimmed.count <= 8, trimmed.allSatisfy(\.isHexDigit) else { return nil }
        return UInt32(trimmed, radix: 16)
    }

    /// The flags in words, for `booth doctor` and the log ("under-voltage now, throttling has occurred").
    public var flagWords: [String] {
        let flags = throttled ?? 0
        let words: [(UInt32, String)] = [
            (Self.underVoltageNow, "under-voltage now"), (Self.frequencyCappedNow, "frequency capped now"),
            (Self.throttledNow, "throttled now"), (Self.softTemperatureLimitNow, "soft temperature limit now"),
            (Self.underVoltageOccurred, "under-voltage has occurred since boot"),
            (1 << 17, "frequency capping has occurred since boot"),
            (Self.throttlingOccurred, "throttling has occurred since boot"),
            (1 << 19, "soft temperature limit has occurred since boot"),
        ]
        return words.filter { flags & $0.0 != 0 }.map(\.1)
    }
}

extension String {
    /// The text without leading and trailing spaces, tabs and newlines.
    fileprivate var trimmingSpace: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
