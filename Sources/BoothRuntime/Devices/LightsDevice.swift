// LightsDevice: the booth's lights.
import LEDCountdown

/// The booth's lights: the countdown row, the big button's LED and the optional flash. Real: GPIO
/// output lines; simulated: remembered (and drawn by the terminal view).
package protocol LightsDevice: AnyObject {
    /// How many LEDs the countdown row has (1...8).
    var ledCount: Int { get }
    /// Shows `frame` on the row (called only when the frame changes).
    func showRow(_ frame: LEDFrame)
    /// Lights or darkens the button's LED.
    func setButtonLED(_ on: Bool)
    /// Switches the flash / fill light.
    func setFlash(_ on: Bool)
    /// Switches the photographer's haptic cue.
    func setHaptic(_ on: Bool)
}
