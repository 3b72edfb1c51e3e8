// ProcessEnvironment: the process's environment variables, read.
import Glibc

/// The process's environment variables (what systemd passes a service: `NOTIFY_SOCKET`, `WATCHDOG_USEC`,
/// `JOURNAL_STREAM`).
public enum ProcessEnvironment {
    /// The value of the variable `name`; nil when it is not set. The corresponding C function is `getenv`.
    public static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
