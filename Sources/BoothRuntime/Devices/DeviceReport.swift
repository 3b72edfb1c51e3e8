// DeviceReport: how a device tells the booth what happened.
import BoothCore
import BoothTime

/// How a device tells the booth what happened: an event and the monotonic instant it happened at
/// (a kernel timestamp where the device has one).
typealias DeviceReport = (BoothEvent, Instant) -> Void
