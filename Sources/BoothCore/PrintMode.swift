// PrintMode: when the booth prints a photo (`print.mode`).

/// When the booth prints a photo through CUPS.
public enum PrintMode: String, CaseIterable, Sendable {
    /// Never (the default): libcups is never loaded.
    case off
    /// Each photo kept: once its review window closes without a retake (a burst prints one page per shot). The print
    /// button prints the last photos again.
    case each
    /// When the print button is pressed (`gpio.print`): the last photos kept, again at each press.
    case onRequest = "on-request"
}
