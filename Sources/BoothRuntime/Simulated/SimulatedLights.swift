// SimulatedLights: lights that only remember what they show.
import LEDCountdown

/// Lights that only remember what they show; the terminal view draws them.
package final class SimulatedLights: LightsDevice {
    package let ledCount: Int
    private(set) var row: LEDFrame = .dark
    private(set) var buttonLED = false
    private(set) var flash = false
    private(set) var haptic = false
    /// Called after every change.
    var onChange: (() -> Void)?

    package init(ledCount: Int) {
        self.ledCount = ledCount
    }

    package func showRow(_ frame: LEDFrame) {
        row = frame
        onChange?()
    }

    package func setButtonLED(_ on: Bool) {
        buttonLED = on
        onChange?()
    }

    package func setFlash(_ on: Bool) {
        flash = on
        onChange?()
    }

    package func setHaptic(_ on: Bool) {
        haptic = on
        onChange?()
    }
}
