// LineSelector: which line on the chip a role uses, as written in the configuration.

/// Which line on a chip to use.
public enum LineSelector: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// A line offset on the chip; on a Raspberry Pi the BCM GPIO number (GPIO17 is offset 17).
    case offset(Int)
    /// A line name from the device tree, e.g. `GPIO17`.
    case name(String)

    /// Parses a configuration value: all digits is an offset, anything else a line name.
    public init(configValue: String) {
        let value = configValue.trimmingSpaces()
        if !value.isEmpty, value.allSatisfy(\.isASCIIDigit), let offset = Int(value) {
            self = .offset(offset)
        } else {
            self = .name(value)
        }
    }

    /// How the selector reads in messages, e.g. `offset 17` or `name 'GPIO17'`.
    public var description: String {
        switch self {
        case .offset(let offset): "offset \(offset)"
        case .name(let name): "name '\(name)'"
        }
    }
}
