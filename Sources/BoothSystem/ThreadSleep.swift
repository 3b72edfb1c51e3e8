// ThreadSleep: the calling thread paused a while, between polls of another process.
import Glibc

/// A pause of the calling thread: the waits of a command that polls another process (NetworkManager calling the
/// hotspot up), or of a worker trying a busy unmount again. Never on the event loop's thread, which waits on its
/// descriptors instead.
public enum ThreadSleep {
    /// Pauses the calling thread for `milliseconds` (less when a signal arrives). The corresponding C function is
    /// `usleep`.
    public static func pause(milliseconds: Int) {
        usleep(UInt32(clamping: milliseconds * 1000))
    }
}
