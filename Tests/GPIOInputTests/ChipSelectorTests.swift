// ChipSelectorTests: parsing the chip configuration value.
import Testing

@testable import GPIOInput

@Suite struct ChipSelectorTests {
    @Test("config values map to auto, path, name or label")
    func parse() {
        #expect(ChipSelector(configValue: "") == .auto)
        #expect(ChipSelector(configValue: " auto ") == .auto)
        #expect(ChipSelector(configValue: "/dev/gpiochip4") == .path("/dev/gpiochip4"))
        #expect(ChipSelector(configValue: "gpiochip0") == .name("gpiochip0"))
        #expect(ChipSelector(configValue: "gpiochip") == .label("gpiochip"))
        #expect(ChipSelector(configValue: "pinctrl-rp1") == .label("pinctrl-rp1"))
    }

    @Test("auto tries the Pi 5, Pi 4 and older pin controllers in that order")
    func autoLabels() {
        #expect(ChipSelector.autoLabels == ["pinctrl-rp1", "pinctrl-bcm2711", "pinctrl-bcm2835"])
    }
}
