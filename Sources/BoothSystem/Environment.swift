// Environment: the process's environment variables, read here (getenv) and nowhere else.
import Glibc

/// The environment the process was started with (systemd's `CACHE_DIRECTORY`, a shell's `HOME`).
public enum Environment {
    /// The value of the variable `name`, or nil when it is not set. The corresponding C function is `getenv`.
    public static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
