// BoothPhase: the booth's phase as the outside world sees it.
/// The booth's phase as the outside world sees it: the state names of the events output.
public enum BoothPhase: String, Sendable, CaseIterable {
    /// Waiting for the big button; the button's LED is lit.
    case idle
    /// The attention sound is playing; the countdown starts when it has played to its last sample.
    case playingSound
    /// The delay is running; the countdown LEDs flash every 0.5 s.
    case countingDown
    /// The shutter sound plays and the camera takes the photo.
    case capturing
    /// The photo is being encoded and saved durably.
    case processing
    /// Something failed or the booth was stopped: the error pattern shows briefly, then idle.
    case aborted
}
