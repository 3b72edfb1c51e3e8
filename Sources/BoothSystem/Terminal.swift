// Terminal: a terminal's line settings (termios): read, made key by key, put back.
import CBoothSys
import Glibc

/// The line settings of the terminal on a standard stream (termios): the interactive simulator reads keys one by
/// one, unechoed, and puts the settings back when it ends.
public enum Terminal {
    /// A terminal's settings, kept to be put back.
    public struct Settings: @unchecked Sendable {
        fileprivate var attributes = termios()

        /// Empty settings (what a stream that is no terminal has).
        public init() {}
    }

    /// The settings of the terminal on `stream` now; empty settings when it is no terminal. The corresponding C
    /// function is `tcgetattr`.
    public static func settings(of stream: StandardStream) -> Settings {
        var settings = Settings()
        _ = tcgetattr(stream.descriptor, &settings.attributes)
        return settings
    }

    /// Gives the terminal on `stream` `settings` without line editing and echo, a read returning at once with
    /// whatever keys there are (VMIN 0, VTIME 0). The corresponding C function is `tcsetattr`.
    public static func readKeys(_ stream: StandardStream, from settings: Settings) {
        var raw = settings.attributes
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        _ = tcsetattr(stream.descriptor, TCSANOW, &raw)
    }

    /// Gives the terminal on `stream` `settings` (those `settings(of:)` read) back, at once. The corresponding C
    /// function is `tcsetattr`.
    public static func restore(_ stream: StandardStream, to settings: Settings) {
        var attributes = settings.attributes
        _ = tcsetattr(stream.descriptor, TCSANOW, &attributes)
    }

    /// The width in columns of the terminal on `stream` now (it may change as the window does); nil when it is no
    /// terminal. The corresponding C call is `ioctl` with TIOCGWINSZ.
    public static func columns(of stream: StandardStream) -> Int? {
        let columns = Int(booth_terminal_columns(stream.descriptor))
        return columns > 0 ? columns : nil
    }
}
