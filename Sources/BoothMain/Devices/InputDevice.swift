// InputDevice: a source of button and knob events.
/// A source of button and knob events. Real: GPIO lines through the debouncer and encoder decoder;
/// simulated: a script or the terminal's keys.
protocol InputDevice: AnyObject {
    /// A short name for logs.
    var name: String { get }
    /// Registers descriptors and timers with the loop; reports events through `report`.
    func attach(to loop: EventLoop, report: @escaping DeviceReport) throws
}
