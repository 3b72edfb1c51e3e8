// InputDevice: a source of button and knob events.
/// A source of button and knob events. Real: GPIO lines through the debouncer and encoder decoder;
/// simulated: a script or the terminal's keys. Each is made with its `DeviceContext` and reports through it.
package protocol InputDevice: AnyObject {
    /// A short name for logs.
    var name: String { get }
}
