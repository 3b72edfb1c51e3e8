// SoundDevice: plays the booth's prepared sounds.
import BoothCore
import SoundOutput

/// Plays the booth's prepared sounds. Real: ALSA; simulated: the same durations, timed by the loop. Each is made
/// with its `DeviceContext` and reports `soundFinished` / `soundFailed` through it.
package protocol SoundDevice: AnyObject {
    /// A short name for logs and `booth doctor` ("alsa:default", "simulated").
    var name: String { get }
    /// Starts the named sound at once, cutting the one playing; the first samples are handed over
    /// before this returns.
    func play(_ sound: String, purpose: SoundPurpose)
    /// Stops any sound at once; no `soundFinished` follows for it.
    func stop()
    /// Plays every later sound at `percent` (10...100) of its amplitude: the booth's own volume.
    func setVolume(percent: Int)
    /// Makes `sounds` playable too (imported from a stick while the booth runs); a name it has is replaced.
    func add(_ sounds: [CustomSound])
    /// The sounds it can play with their lengths (the state machine's deadlines).
    var soundDurations: [String: Duration] { get }
    /// How the latest sound went: when its first samples were handed over, when the stream started and
    /// was first seen consuming frames, its underruns (`.unknown` when it does not know, e.g. silent or simulated).
    var playbackReport: PlaybackReport { get }
}

extension SoundDevice {
    package var playbackReport: PlaybackReport { .unknown }
}
