// RemoteKeyRole: what a remote's key does at the booth.
/// What a remote's key does at the booth: each is one of the booth's own controls.
public enum RemoteKeyRole: String, Hashable, Sendable, CaseIterable {
    /// The big button.
    case press
    /// The big button held past the long-press time (a retake during review).
    case retake
    /// The print button.
    case print
    /// The knob turned one detent anticlockwise.
    case knobLeft
    /// The knob turned one detent clockwise.
    case knobRight
    /// The knob's switch pressed.
    case knobPress

    /// The config key that lists this role's keys.
    public var configKey: String {
        switch self {
        case .press: "press_keys"
        case .retake: "retake_keys"
        case .print: "print_keys"
        case .knobLeft: "knob_left_keys"
        case .knobRight: "knob_right_keys"
        case .knobPress: "knob_press_keys"
        }
    }

    /// What a key did.
    public enum Change: Hashable, Sendable {
        /// Went down.
        case down
        /// Came up.
        case up
        /// Is held (autorepeat).
        case repeating
    }

    /// The booth's events for this role's key doing `change`: a remote's key is the booth's own control in every
    /// respect. The button's and the retake's go down and up as the key does (a retake is a press held past the
    /// long-press time, at once); the knob's turns repeat while the key is held.
    public func events(_ change: Change) -> [BoothEvent] {
        switch (self, change) {
        case (.press, .down): [.buttonPressed]
        case (.retake, .down): [.buttonPressed, .buttonLongPressed]
        case (.press, .up), (.retake, .up): [.buttonReleased]
        case (.print, .down): [.printPressed]
        case (.knobLeft, .down), (.knobLeft, .repeating): [.knobTurned(steps: -1)]
        case (.knobRight, .down), (.knobRight, .repeating): [.knobTurned(steps: 1)]
        case (.knobPress, .down): [.knobPressed]
        default: []
        }
    }
}
