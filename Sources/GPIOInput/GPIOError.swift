// GPIOError: why a GPIO operation failed, naming the operation, chip, line, errno and the fix.

import BoothSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A failed GPIO operation. Its `description` names the operation, the chip, the line (role and
/// offset), the errno and tells the user what to do.
public enum GPIOError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What the GPIO layer was doing when it failed.
    public enum Operation: String, Equatable, Sendable {
        /// Listing the chips under /dev.
        case listChips = "list GPIO chips"
        /// Opening a chip.
        case openChip = "open GPIO chip"
        /// Looking a line up by name or offset.
        case findLine = "find GPIO line"
        /// Reading what the kernel reports about a line.
        case readLineInfo = "read GPIO line info"
        /// Requesting the booth's lines from the kernel.
        case requestLines = "request GPIO lines"
        /// Reading edge events.
        case readEdges = "read GPIO edge events"
        /// Reading an input's level.
        case readValue = "read GPIO input"
        /// Setting an output's level.
        case setValue = "set GPIO output"
    }

    /// A line as the configuration names it.
    public struct Line: Equatable, Sendable, CustomStringConvertible {
        /// The role, e.g. `shutter`.
        public var role: String
        /// How the configuration selects it.
        public var selector: LineSelector
        /// The resolved offset, if known.
        public var offset: Int?

        /// Creates a line description.
        public init(role: String, selector: LineSelector, offset: Int? = nil) {
            self.role = role
            self.selector = selector
            self.offset = offset
        }

        /// E.g. `line 'shutter' (offset 17)` or `line 'shutter' (name 'GPIO17', offset 17)`.
        public var description: String {
            switch (selector, offset) {
            case (.offset(let offset), _): "line '\(role)' (offset \(offset))"
            case (.name(let name), .some(let offset)): "line '\(role)' (name '\(name)', offset \(offset))"
            case (.name(let name), .none): "line '\(role)' (name '\(name)')"
            }
        }
    }

    /// No chip matched the selector; `available` lists the chips that exist.
    case chipNotFound(selector: ChipSelector, available: [GPIOChipInfo], errno: Int32)
    /// The chip or a line may not be opened by this user (EACCES or EPERM).
    case permissionDenied(operation: Operation, device: String, line: Line?, errno: Int32)
    /// A line is held by another consumer (EBUSY); `consumer` is who holds it, if the kernel says.
    case lineBusy(chip: String, line: Line?, consumer: String?)
    /// The chip has no line with that name, or the offset is past its last line.
    case lineNotFound(chip: String, line: Line, lineCount: Int)
    /// The specs contradict themselves (e.g. one line used for two roles, an output index out of range).
    case invalidConfiguration(String)
    /// Any other failure, with its errno.
    case system(operation: Operation, device: String, line: Line?, errno: Int32)

    /// The configuration key that selects the chip.
    public static let chipConfigKey = "gpio.chip"

    /// The message for the user: what failed, where, why, and the fix.
    public var description: String {
        switch self {
        case .chipNotFound(let selector, let available, let code):
            let chips =
                available.isEmpty
                ? "none (no /dev/gpiochip*: is this a Raspberry Pi with the GPIO driver loaded?)"
                : available.map(\.description).joined(separator: ", ")
            return """
                \(Operation.openChip.rawValue) by \(selector) failed: no such chip \
                (\(ErrnoText.describe(code))). Chips on this machine: \(chips). \
                Fix: set \(Self.chipConfigKey) in the booth configuration to one of them \
                (a label such as 'pinctrl-rp1', a name such as 'gpiochip0' or a path), \
                as listed by `gpiodetect` or `booth doctor`.
                """
        case .permissionDenied(let operation, let device, let line, let code):
            return """
                \(operation.rawValue) on \(device)\(Self.suffix(line)) failed: \(ErrnoText.describe(code)). \
                Fix: add user 'booth' to group 'gpio' (`sudo usermod -aG gpio booth`, then log in \
                again), and make sure a udev rule gives that group the chip, e.g. \
                /etc/udev/rules.d/60-gpiochip.rules with \
                SUBSYSTEM=="gpio", KERNEL=="gpiochip*", GROUP="gpio", MODE="0660" \
                (Raspberry Pi OS ships one; then `sudo udevadm trigger`).
                """
        case .lineBusy(let chip, let line, let consumer):
            let holder =
                if let consumer, !consumer.isEmpty { "consumer '\(consumer)'" } else {
                    "another consumer (unnamed; possibly a kernel driver or dtoverlay)"
                }
            let which = line.map { "\($0) is held by \(holder)" } ?? "a requested line is held by \(holder)"
            return """
                \(Operation.requestLines.rawValue) on \(chip) failed: \(ErrnoText.describe(EBUSY)): \
                \(which). Fix: stop the other program that holds it (see `gpioinfo \(Self.chipName(chip))`), \
                remove the dtoverlay that claims it, or choose another line in the booth configuration.
                """
        case .lineNotFound(let chip, let line, let lineCount):
            let reason =
                switch line.selector {
                case .name(let name): "the chip has no line named '\(name)'"
                case .offset(let offset): "offset \(offset) is out of range (the chip has \(lineCount) lines)"
                }
            return """
                \(Operation.findLine.rawValue) on \(chip) for \(line) failed: \(reason) \
                (\(ErrnoText.describe(line.selector.isName ? ENOENT : EINVAL))). Fix: use a line name or offset \
                listed by `gpioinfo \(Self.chipName(chip))` (or `booth doctor`) for '\(line.role)' in the \
                booth configuration, and check \(Self.chipConfigKey) selects the right chip.
                """
        case .invalidConfiguration(let reason):
            return
                "GPIO configuration is invalid: \(reason). Fix: correct the [gpio] section of the booth configuration."
        case .system(let operation, let device, let line, let code):
            return """
                \(operation.rawValue) on \(device)\(Self.suffix(line)) failed: \(ErrnoText.describe(code)). \
                Fix: run `booth doctor` and check the kernel log (`dmesg | grep -i gpio`).
                """
        }
    }

    private static func suffix(_ line: Line?) -> String {
        line.map { " for \($0)" } ?? ""
    }

    /// `gpiochip0` from `gpiochip0 [pinctrl-rp1]`.
    private static func chipName(_ chip: String) -> String {
        String(chip.prefix { $0 != " " })
    }
}

extension LineSelector {
    /// True for `.name`.
    var isName: Bool {
        if case .name = self { true } else { false }
    }
}
