// GPIOInventory: what GPIO hardware this machine has, for `booth doctor`.

/// Read-only queries about the machine's GPIO chips and lines.
public enum GPIOInventory {
    /// The libgpiod version the booth was built against, e.g. `1.6.3`.
    public static var libgpiodVersion: String { LibGPIOD.version }

    /// True if `InputLineSpec.kernelDebounce` is applied (libgpiod v2).
    public static var hasKernelDebounce: Bool { LibGPIOD.hasKernelDebounce }

    /// The chips under /dev in numeric order; empty if there are none. Chips that cannot be
    /// opened are listed with `openErrno` set.
    public static func chips() throws(GPIOError) -> [GPIOChipInfo] {
        do throws(LibGPIOD.Failure) {
            return try LibGPIOD.listChips()
        } catch {
            throw GPIOChip.deviceError(.listChips, device: "/dev", line: nil, error.code)
        }
    }

    /// Every line of the selected chip, in offset order.
    public static func lines(of selector: ChipSelector) throws(GPIOError) -> (chip: GPIOChipInfo, lines: [GPIOLineInfo])
    {
        let chip = try GPIOChip(selector)
        var lines: [GPIOLineInfo] = []
        for offset in 0..<chip.info.lineCount {
            lines.append(try chip.lineInfo(offset: offset))
        }
        return (chip.info, lines)
    }
}
