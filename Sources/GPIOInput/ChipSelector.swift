// ChipSelector: which GPIO chip the booth uses, as written in its configuration.

/// Which GPIO chip to open.
public enum ChipSelector: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Try the Raspberry Pi pin controllers in `autoLabels` order (Pi 5, Pi 4, older Pis).
    case auto
    /// The first chip whose driver label matches, e.g. `pinctrl-rp1`.
    case label(String)
    /// A device path, e.g. `/dev/gpiochip0`.
    case path(String)
    /// A device name under /dev, e.g. `gpiochip0`.
    case name(String)

    /// Labels `.auto` tries, in order: Pi 5 (RP1), Pi 4 (BCM2711), Pi 1-3 and Zero (BCM2835).
    public static let autoLabels = ["pinctrl-rp1", "pinctrl-bcm2711", "pinctrl-bcm2835"]

    /// Parses a configuration value: empty or `auto`, a path starting with `/`, a `gpiochipN`
    /// name, or else a label.
    public init(configValue: String) {
        let value = configValue.trimmingSpaces()
        if value.isEmpty || value == "auto" {
            self = .auto
        } else if value.hasPrefix("/") {
            self = .path(value)
        } else if value.hasPrefix("gpiochip"), !value.dropFirst(8).isEmpty,
            value.dropFirst(8).allSatisfy(\.isASCIIDigit)
        {
            self = .name(value)
        } else {
            self = .label(value)
        }
    }

    /// How the selector reads in messages, e.g. `label 'pinctrl-rp1'`.
    public var description: String {
        switch self {
        case .auto: "auto (labels \(Self.autoLabels.joined(separator: ", ")))"
        case .label(let label): "label '\(label)'"
        case .path(let path): "path \(path)"
        case .name(let name): "name \(name)"
        }
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}

extension Character {
    /// True for the ASCII digits 0-9.
    var isASCIIDigit: Bool { isASCII && isNumber }
}
