// SimulatedLights: lights that only remember what they show.
import LEDCountdown

/// Lights that only remember what they show; the terminal view draws them.
final class SimulatedLights: LightsDevice {
    let ledCount: Int
    private(set) var row: LEDFrame = .dark
    private(set) var buttonLED = false
    private(set) var flash = false
    private(set) var haptic = false
    /// Called after every change.
    var onChange: (() -> Void)?

    init(ledCount: Int) {
        self.ledCount = ledCount
    }

    func showRow(_ frame: LEDFrame) {
        row = frame
        onChange?()
    }

    func setButtonLED(_ on: Bool) {
        buttonLED = on
        onChange?()
    }

    func setFlash(_ on: Bool) {
        flash = on
        onChange?()
    }

    func setHaptic(_ on: Bool) {
        haptic = on
        onChange?()
    }
}
