// KeyCode: a key a remote, keypad or pedal sends, by the kernel's name for it.
/// A key a remote, keypad or pedal sends (a Linux input device's `EV_KEY` code), named as the kernel names it:
/// `KEY_VOLUMEUP`, `KEY_ENTER`, `BTN_LEFT`. The config lists keys by these names.
public struct KeyCode: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The kernel's code (linux/input-event-codes.h).
    public var code: UInt16

    /// The key with this code.
    public init(code: UInt16) {
        self.code = code
    }

    /// The key the kernel calls `name` ("KEY_VOLUMEUP"; upper or lower case, the `KEY_` may be left out); nil for a
    /// name the kernel does not define.
    public init?(name: String) {
        let upper = name.uppercased()
        let full = upper.hasPrefix("KEY_") || upper.hasPrefix("BTN_") ? upper : "KEY_" + upper
        guard let code = Self.codes[full] else { return nil }
        self.code = code
    }

    /// The kernel's first name for the code ("KEY_VOLUMEUP"), or "key N" for a code without one.
    public var name: String { Self.names[code] ?? "key \(code)" }

    public var description: String { name }

    public static func < (a: KeyCode, b: KeyCode) -> Bool { a.code < b.code }

    /// Names at most two letters away from `name` (a typo's "did you mean"), closest first, at most three.
    public static func suggestions(for name: String) -> [String] {
        let upper = name.uppercased()
        let typed = Array(upper.hasPrefix("KEY_") || upper.hasPrefix("BTN_") ? upper : "KEY_" + upper)
        let close = table.map(\.name).compactMap { candidate -> (Int, String)? in
            let distance = editDistance(typed, Array(candidate), limit: 2)
            return distance.map { ($0, candidate) }
        }
        return close.sorted { $0 < $1 }.prefix(3).map(\.1)
    }

    /// The Levenshtein distance between `a` and `b`, nil when above `limit`.
    private static func editDistance(_ a: [Character], _ b: [Character], limit: Int) -> Int? {
        guard abs(a.count - b.count) <= limit else { return nil }
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = Swift.min(previous[j] + (x == y ? 0 : 1), previous[j + 1] + 1, current[j] + 1)
            }
            previous = current
        }
        return previous[b.count] <= limit ? previous[b.count] : nil
    }

    private static let codes: [String: UInt16] = Dictionary(table.map { ($0.name, $0.code) }) { first, _ in first }
    private static let names: [UInt16: String] = Dictionary(table.map { ($0.code, $0.name) }) { first, _ in first }
}
