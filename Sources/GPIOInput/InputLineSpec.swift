// InputLineSpec: one input line (a button or an encoder contact) the booth requests.

/// One input line to request, with both-edge events.
public struct InputLineSpec: Equatable, Hashable, Sendable {
    /// The internal resistor the line is biased with.
    public enum Bias: Equatable, Hashable, Sendable {
        /// Pull-up: for a button or encoder contact switching to ground.
        case pullUp
        /// Pull-down: for a button switching to 3.3 V.
        case pullDown
        /// No internal resistor: the circuit has its own (e.g. a KY-040 module's 10 kΩ pull-ups).
        case none
    }

    /// What the line is for, e.g. `shutter`, `encoderA`; named in error messages.
    public var role: String
    /// Which line on the chip.
    public var line: LineSelector
    /// The bias to apply.
    public var bias: Bias
    /// Invert the line so that a closed contact to ground reads `true` (pressed).
    public var activeLow: Bool
    /// Kernel debounce period (to the microsecond), zero for none. Applied with libgpiod v2 only;
    /// ignored with v1 (see `GPIOInventory.hasKernelDebounce`). `ButtonTracker` debounces anyway.
    public var kernelDebounce: Duration

    /// Creates a spec; the defaults suit a button to ground (pull-up, active-low, no kernel debounce).
    public init(
        role: String, line: LineSelector, bias: Bias = .pullUp, activeLow: Bool = true,
        kernelDebounce: Duration = .zero
    ) {
        self.role = role
        self.line = line
        self.bias = bias
        self.activeLow = activeLow
        self.kernelDebounce = kernelDebounce
    }
}
