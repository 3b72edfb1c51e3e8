// ThreadSleep: the calling thread paused a while, between polls of another process.
import BoothTime
import Glibc

/// A pause of the calling thread: the waits of a command that polls another process (NetworkManager calling the
/// hotspot up), or of a worker trying a busy unmount again. Never on the event loop's thread, which waits on its
/// descriptors instead.
public enum ThreadSleep {
    /// Pauses the calling thread for `duration`, to the microsecond (less when a signal arrives). The corresponding
    /// C function is `usleep`.
    public static func pause(for duration: Duration) {
        usleep(UInt32(clamping: max(duration.inMicroseconds, 0)))
    }
}
