// PlaybackReport: what a sound device knows about how its latest sound went (timing, underruns, late wake-ups).
import BoothTime

/// How the latest sound went on a real device: each field is nil when the device does not know (silent or
/// simulated). The controller writes it into `soundStarted` / `soundFinished` events.
package struct PlaybackReport: Equatable {
    /// When the sound's first samples were handed to the device.
    var handedOver: Instant?
    /// When the device reported its stream started.
    var deviceStart: Instant?
    /// When the loop first saw the device consume frames.
    var firstProgress: Instant?
    /// Underruns (the device ran out of samples) recovered from during the sound.
    var underruns: Int?
    /// The longest time between two wake-ups of the loop for the sound: past the device's
    /// buffer length, an underrun is to be expected.
    var longestWait: Duration?

    /// Nothing known.
    static let unknown = PlaybackReport()
}
