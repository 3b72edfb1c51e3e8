// BoothAction: what the state machine asks the event loop to do.
import BoothTime
import LEDCountdown

/// What the state machine asks the event loop to do. Actions are imperative; the loop carries them
/// out in order and reports results back as events.
public enum BoothAction: Hashable, Sendable {
    /// The phase changed (written to the events output).
    case enterPhase(BoothPhase, from: BoothPhase)
    /// Play the named sound from its prepared buffer, cutting any sound already playing.
    case playSound(String, SoundPurpose)
    /// Play every later sound at `percent` of its amplitude (the knob's volume; 100: as rendered).
    case setVolume(percent: Int)
    /// Stop any sound at once.
    case stopSound
    /// Arm a timer for an absolute monotonic deadline.
    case startTimer(BoothTimer, deadline: Instant)
    /// Disarm a timer (no event will come for it).
    case cancelTimer(BoothTimer)
    /// Show an LED pattern on the countdown row, its time counted from `since`.
    case showLEDs(LEDPattern, since: Instant)
    /// Light or darken the big button's own LED.
    case setButtonLED(Bool)
    /// Switch the flash / fill light.
    case setFlash(Bool)
    /// Switch the photographer's haptic cue (a vibration motor on `gpio.haptic`).
    case setHaptic(Bool)
    /// Pace the camera: idle (a few frames a second, to save heat and power) or at full rate (from a
    /// press until the booth is idle again, so the shutter lag stays within a frame).
    case setCameraIdle(Bool)
    /// Find focus now (the countdown has begun), so the shutter fires at its end without hunting: a camera over USB
    /// with an autofocus drive does; others have nothing to do.
    case focusCamera
    /// Take the photo: the first frame whose exposure starts at or after `trigger`.
    case capturePhoto(CaptureID, trigger: Instant)
    /// Encode and save the captured frame durably; report `photoSaved` or `photoSaveFailed`.
    case savePhoto(CaptureID)
    /// Drop a captured frame that will not be saved (its sequence was aborted).
    case releaseCapture(CaptureID)
    /// Give up on a capture that got no frame within the capture timeout (the machine owns that
    /// timeout): the camera forgets the request and treats its stream as stalled.
    case expireCapture(CaptureID)
    /// Read the scene's light level from the camera's latest frame; report `lightMeasured`.
    case measureLight
    /// Measure free space (first deleting photos already verified on a stick when full and
    /// `cleanup_exported` allows it); report `storageChecked`.
    case checkStorage
    /// Make the unknown stick that is in one of the owner's, then export to it.
    case claimStick
    /// Remove a saved photo (a retake).
    case discardPhoto(path: String)
    /// Print these photos (kept: no retake can discard them), one job each, unless a print limit refuses them.
    case printPhotos([String])
    /// Store the runtime choices atomically so they survive a restart.
    case persistChoices(RuntimeChoices)
    /// A setting changed (written to the events output).
    case reportSetting(name: String, value: String)
    /// Something went wrong (written to the events output and the log).
    case reportError(String)
    /// A press was ignored on purpose (written to the events output at debug level).
    case reportIgnored(String)
    /// Leave the event loop and exit with `code`.
    case exit(code: Int32)
}
