// GPIOChipInfo: one GPIO chip found on this machine (for `booth doctor` and error messages).
import BoothSystem

/// A GPIO chip under /dev.
public struct GPIOChipInfo: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Device name, e.g. `gpiochip0`.
    public var name: String
    /// Driver label, e.g. `pinctrl-rp1`; empty if the chip could not be opened.
    public var label: String
    /// Device path, e.g. `/dev/gpiochip0`.
    public var path: String
    /// Number of lines; 0 if the chip could not be opened.
    public var lineCount: Int
    /// The errno of a failed open (e.g. EACCES), nil if it opened.
    public var openErrno: Int32?

    /// Creates a chip description.
    public init(name: String, label: String, path: String, lineCount: Int, openErrno: Int32? = nil) {
        self.name = name
        self.label = label
        self.path = path
        self.lineCount = lineCount
        self.openErrno = openErrno
    }

    /// E.g. `gpiochip0 [pinctrl-rp1] (54 lines)` or `gpiochip1 (cannot open: EACCES)`.
    public var description: String {
        if let openErrno {
            return "\(name) (cannot open: \(ErrnoText.name(openErrno)))"
        }
        return "\(name) [\(label)] (\(lineCount) lines)"
    }
}
