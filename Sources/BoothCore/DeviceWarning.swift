// DeviceWarning: conditions in which the booth still works but a person should look.
/// Conditions in which the booth still works but a person should look: shown by the warning pattern.
public enum DeviceWarning: String, Hashable, Sendable, CaseIterable {
    /// The sound device is missing or busy: sounds are timed but silent.
    case soundDeviceUnavailable
    /// The mixer's playback control is muted or at zero.
    case volumeMuted
    /// The camera is missing or gone: presses are refused until it returns.
    case cameraUnavailable
    /// A configured GPIO line could not be opened.
    case gpioUnavailable
    /// The big button's line could not be opened: no press can come, so the button's LED stays dark.
    case buttonUnavailable
}
