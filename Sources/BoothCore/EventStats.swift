// EventStats: what `booth stats` says about a booth's events.
import PhotoModel

/// What `booth stats` says about a booth's events, fed one record at a time in the order they were
/// written: photos per day, retakes and prints, sounds used, aborts by reason, the press→sound and shutter-lag
/// distributions and the temperature range. Pure: the command reads the files.
public struct EventStats: Sendable {
    /// Records read.
    public private(set) var records = 0
    /// Lines that were not records (a line cut by a power failure, a foreign line).
    public private(set) var unreadable = 0
    /// Starts of the booth (`ready`).
    public private(set) var starts = 0
    /// Photos saved, by the day in their names ("undated" for a name without one).
    public private(set) var photosPerDay: [String: Int] = [:]
    /// Retakes moved aside.
    public private(set) var discarded = 0
    /// Photos CUPS took to print (`printSent`), printed (`printed`) and not printed (`printFailed`).
    public private(set) var prints = (sent: 0, printed: 0, failed: 0)
    /// Attention sounds played, by name.
    public private(set) var soundsUsed: [String: Int] = [:]
    /// Presses of the big button, by the input they came from: `the button` (its GPIO line), or a remote's name.
    public private(set) var pressesByInput: [String: Int] = [:]
    /// Aborted sequences, by the error reported just before.
    public private(set) var aborts: [String: Int] = [:]
    /// From the button's edge to the attention sound's first samples, microseconds.
    public private(set) var pressToSound: [Int64] = []
    /// From the capture's trigger to the exposure start of the frame taken, microseconds.
    public private(set) var shutterLag: [Int64] = []
    /// SoC temperatures read, in millidegrees Celsius.
    public private(set) var temperatures: [Int64] = []

    /// The last button press not yet answered by an attention sound, in this run.
    private var pendingPress: Int64?
    /// The last error reported, which names the reason of an abort that follows it.
    private var lastError: String?

    /// Empty statistics.
    public init() {}

    /// Adds one line of an events file (without its newline); an empty line is skipped.
    public mutating func add(line: Substring) {
        guard !line.isEmpty else { return }
        guard let record = EventRecord(line: line) else {
            unreadable += 1
            return
        }
        add(record)
    }

    /// Adds one record.
    public mutating func add(_ record: EventRecord) {
        records += 1
        switch record.type {
        case "ready":
            // A new process: its presses and errors are its own (and after a reboot, so is its clock).
            starts += 1
            pendingPress = nil
            lastError = nil
        case "input" where record.string("input") == "buttonPressed":
            pendingPress = record.time
            pressesByInput[record.string("from") ?? Self.button, default: 0] += 1
        case "soundStarted" where record.string("purpose") == "attention":
            soundsUsed[record.string("sound") ?? "?", default: 0] += 1
            if let press = pendingPress, let time = record.time, let latency = Self.difference(time, press),
                latency >= 0
            {
                pressToSound.append(latency)
            }
            pendingPress = nil
        case "capture":
            if let sensor = record.int("sensor_us"), let trigger = record.int("trigger_us"), trigger > 0,
                let lag = Self.difference(sensor, trigger)
            {
                shutterLag.append(lag)
            }
        case "photoSaved":
            let name = record.string("path")?.split(separator: "/").last.map(String.init) ?? ""
            photosPerDay[PhotoName(fileName: name)?.folder ?? PhotoName.undated, default: 0] += 1
        case "photoDiscarded":
            discarded += 1
        case "printSent":
            prints.sent += 1
        case "printed":
            prints.printed += 1
        case "printFailed":
            prints.failed += 1
        case "error":
            lastError = record.string("message")
        case "state" where record.string("to") == "aborted":
            aborts[lastError ?? "no reason reported", default: 0] += 1
            lastError = nil
        case "temperature":
            if let value = record.int("millidegrees") { temperatures.append(value) }
        default:
            break
        }
    }

    /// What a press without a `from` came from: the big button's GPIO line.
    static let button = "the button"

    /// `a - b`, nil where it does not fit (a crafted line, not a time).
    private static func difference(_ a: Int64, _ b: Int64) -> Int64? {
        let (result, overflow) = a.subtractingReportingOverflow(b)
        return overflow ? nil : result
    }

    /// The `p`th percentile (0...100) of `values` by the nearest-rank method, nil when there are none.
    public static func percentile(_ p: Int, of values: [Int64]) -> Int64? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let rank = max(1, (p * sorted.count + 99) / 100)
        return sorted[min(rank, sorted.count) - 1]
    }

    /// The report `booth stats` prints.
    public var report: String {
        var lines = [
            "\(records) events from \(starts) start(s)"
                + (unreadable > 0 ? "; \(unreadable) unreadable line(s) skipped (cut by a power failure?)" : "")
        ]
        lines.append("")
        lines.append("Photos per day")
        if photosPerDay.isEmpty { lines.append("  none") }
        for (day, count) in photosPerDay.sorted(by: { $0.key < $1.key }) {
            lines.append("  \(day)  \(Self.padLeft(String(count), 5))")
        }
        lines.append("  retakes discarded: \(discarded)")
        if prints != (0, 0, 0) {
            lines.append("  prints: \(prints.sent) sent to CUPS, \(prints.printed) printed, \(prints.failed) failed")
        }
        lines.append("")
        lines.append("Sounds used")
        if soundsUsed.isEmpty { lines.append("  none") }
        for (sound, count) in soundsUsed.sorted(by: { ($1.value, $0.key) < ($0.value, $1.key) }) {
            lines.append("  \(Self.padLeft(String(count), 5))  \(sound)")
        }
        if pressesByInput.keys.contains(where: { $0 != Self.button }) {
            // With a remote: which input took the photos.
            lines.append("")
            lines.append("Presses by input")
            for (input, count) in pressesByInput.sorted(by: { ($1.value, $0.key) < ($0.value, $1.key) }) {
                lines.append("  \(Self.padLeft(String(count), 5))  \(input)")
            }
        }
        lines.append("")
        lines.append("Aborts by reason")
        if aborts.isEmpty { lines.append("  none") }
        for (reason, count) in aborts.sorted(by: { ($1.value, $0.key) < ($0.value, $1.key) }) {
            lines.append("  \(Self.padLeft(String(count), 5))  \(reason)")
        }
        lines.append("")
        lines.append("Timing            count     p50     p90     p99     max")
        lines.append(Self.timingRow("press → sound", pressToSound))
        lines.append(Self.timingRow("shutter lag", shutterLag))
        lines.append("")
        if let low = temperatures.min(), let high = temperatures.max() {
            lines.append("Temperature: \(Self.celsius(low)) to \(Self.celsius(high)) (\(temperatures.count) readings)")
        } else {
            lines.append("Temperature: no readings")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func timingRow(_ name: String, _ values: [Int64]) -> String {
        func ms(_ p: Int) -> String { percentile(p, of: values).map(milliseconds) ?? "-" }
        let cells = [ms(50), ms(90), ms(99), ms(100)].map { padLeft($0, 8) }.joined()
        return pad(name, 16) + padLeft(String(values.count), 7) + cells
    }

    /// Microseconds as milliseconds with one decimal ("12.3 ms" without the unit).
    private static func milliseconds(_ microseconds: Int64) -> String {
        let tenths = (microseconds.magnitude + 50) / 100
        return "\(microseconds < 0 ? "-" : "")\(tenths / 10).\(tenths % 10)"
    }

    private static func celsius(_ millidegrees: Int64) -> String {
        let tenths = millidegrees.magnitude / 100
        return "\(millidegrees < 0 ? "-" : "")\(tenths / 10).\(tenths % 10) °C"
    }

    private static func pad(_ s: String, _ n: Int) -> String { s + String(repeating: " ", count: max(0, n - s.count)) }
    private static func padLeft(_ s: String, _ n: Int) -> String {
        String(repeating: " ", count: max(0, n - s.count)) + s
    }
}
