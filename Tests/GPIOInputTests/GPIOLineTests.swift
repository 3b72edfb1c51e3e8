// GPIOLineTests: calls the real libgpiod on this machine (no GPIO hardware expected here;
// the QEMU gpio-sim rig covers real lines).
import Testing

@testable import GPIOInput

#if canImport(Glibc)
    import Glibc
#endif

/// True if /dev has any gpiochipN device.
private func machineHasGPIOChips() -> Bool {
    guard let dev = opendir("/dev") else { return false }
    defer { closedir(dev) }
    while let entry = readdir(dev) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name.hasPrefix("gpiochip") { return true }
    }
    return false
}

private let button = InputLineSpec(role: "shutter", line: .offset(17))

@Suite(.timeLimit(.minutes(3))) struct GPIOLineTests {
    @Test("libgpiod reports its version")
    func version() {
        #expect(!GPIOInventory.libgpiodVersion.isEmpty)
        #expect(GPIOInventory.hasKernelDebounce == GPIOInventory.libgpiodVersion.hasPrefix("2"))
    }

    @Test("listing chips matches /dev (empty without GPIO hardware) and does not crash")
    func listChips() throws {
        let chips = try GPIOInventory.chips()
        #expect(chips.isEmpty == !machineHasGPIOChips())
        for chip in chips {
            #expect(chip.path == "/dev/\(chip.name)")
        }
    }

    @Test(
        "opening /dev/gpiochip0 on a machine without it throws chip-not-found with a useful message",
        .enabled(if: !machineHasGPIOChips(), "needs a machine without GPIO chips, as CI is; the rig tests real ones"))
    func missingChip() {
        #expect {
            _ = try GPIOLine(chip: .path("/dev/gpiochip0"), input: button)
        } throws: { error in
            guard let error = error as? GPIOError,
                case .chipNotFound(.path("/dev/gpiochip0"), let available, ENOENT) = error
            else { return false }
            let text = error.description
            return available.isEmpty && text.contains("path /dev/gpiochip0") && text.contains("gpio.chip")
                && text.contains("Chips on this machine: none")
        }
    }

    @Test(
        "every selector kind of a missing chip throws chip-not-found",
        .enabled(if: !machineHasGPIOChips(), "needs a machine without GPIO chips, as CI is; the rig tests real ones"),
        arguments: [ChipSelector.auto, .name("gpiochip0"), .label("pinctrl-rp1"), .path("/dev/gpiochip0")])
    func missingChipSelectors(selector: ChipSelector) {
        #expect {
            _ = try GPIOInventory.lines(of: selector)
        } throws: { error in
            guard case .chipNotFound(selector, _, _) = error as? GPIOError else { return false }
            return true
        }
    }

    @Test("a file that is not a GPIO chip is reported as chip-not-found")
    func notAChip() {
        #expect {
            _ = try GPIOLine(chip: .path("/dev/null"), input: button)
        } throws: { error in
            guard case .chipNotFound(.path("/dev/null"), _, let code) = error as? GPIOError else { return false }
            return code == ENODEV || code == ENOTTY
        }
    }

    @Test("a name with a slash is rejected before touching /dev")
    func badName() {
        #expect {
            _ = try GPIOInventory.lines(of: .name("../null"))
        } throws: { error in
            guard case .system(.openChip, _, nil, EINVAL) = error as? GPIOError else { return false }
            return true
        }
    }

    @Test("a negative kernel debounce is a configuration error, found before any chip is opened")
    func negativeDebounce() {
        let bouncy = InputLineSpec(
            role: "shutter", line: .offset(17), bias: .pullUp, activeLow: true, kernelDebounce: .microseconds(-1))
        #expect(throws: GPIOError.invalidConfiguration("kernel debounce of 'shutter' is negative")) {
            _ = try GPIOLine(chip: .path("/dev/gpiochip0"), input: bouncy)
        }
    }
}
