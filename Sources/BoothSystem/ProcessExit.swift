// ProcessExit: ends the process at once, past the exit handlers of the libraries it loaded.
import Glibc

/// The end of a process whose own shutdown is done: what `print` holds is written out, then the process ends with
/// `code` without the `atexit` handlers and C++ static destructors of the libraries it loaded (their teardown writes
/// nothing that lasts, and its time is not the process's to bound). The corresponding C function is `_exit`.
public enum ProcessExit {
    /// Flushes the standard streams and ends the process with `code`.
    public static func now(_ code: Int32) -> Never {
        StandardStream.flushAll()
        _exit(code)
    }
}
