// BoothEvent: everything that can happen to the booth, as the event loop tells the state machine.
/// Everything that can happen to the booth, as the event loop reports it to the state machine.
public enum BoothEvent: Hashable, Sendable {
    /// The big button went down (after debouncing): starts a sequence in idle.
    case buttonPressed
    /// The big button came up.
    case buttonReleased
    /// The big button has been held for the long-press time: in a retake it discards the last photo.
    case buttonLongPressed
    /// The knob turned by `steps` detents (positive clockwise).
    case knobTurned(steps: Int)
    /// The knob's switch was pressed and released before the long-press time.
    case knobPressed
    /// The knob's switch has been held for the long-press time.
    case knobLongPressed
    /// The optional cancel button: aborts a running sequence.
    case cancelPressed
    /// The optional print button (`gpio.print`): prints the last photos kept (again), printing on.
    case printPressed
    /// A print was refused: a print limit is reached (the event's or the photo's).
    case printRefused
    /// A sound has played to its last sample.
    case soundFinished(SoundPurpose)
    /// A sound could not be played, and why.
    case soundFailed(SoundPurpose, DeviceFault)
    /// A timer's deadline passed.
    case timerFired(BoothTimer)
    /// The camera delivered the frame for a capture; it waits in the loop to be saved.
    case captureCompleted(CaptureID)
    /// The camera could not take the photo, and why.
    case captureFailed(CaptureID, DeviceFault)
    /// A photo is complete and durable at `path`.
    case photoSaved(CaptureID, path: String)
    /// A photo could not be saved, and why; nothing was left under its name.
    case photoSaveFailed(CaptureID, DeviceFault)
    /// Free space was measured: `hasRoom` is false below the configured reserve.
    case storageChecked(hasRoom: Bool)
    /// Sounds were added (imported from a stick), with their lengths: they join the knob's cycle.
    case soundsAdded([String: Duration])
    /// The scene's light level in lux from the camera's latest frame; nil when the camera reports none.
    case lightMeasured(lux: Double?)
    /// The SoC temperature and the firmware's power flags were read (every minute).
    case healthMeasured(HealthReading)
    /// A device condition began (`active`) or ended.
    case deviceWarning(DeviceWarning, active: Bool)
    /// An export to a USB stick copied `done` of `total` photos.
    case exportProgressed(done: Int, total: Int)
    /// An export ended: every kept photo is on the stick; `safeToRemove` once it is unmounted.
    case exportFinished(safeToRemove: Bool)
    /// An export stopped, and why; what was copied is valid and the next insert resumes.
    case exportFailed(DeviceFault)
    /// A stick that is not one of the owner's is in (`export.sticks = "owner"`): it got nothing and waits to be
    /// made the owner's (the knob's switch held) or pulled.
    case stickUnknown
    /// The stick went away (pulled, or unmounted by hand).
    case stickRemoved
    /// The booth's own Wi-Fi came on (`booth hotspot on` signals the running booth): the LEDs confirm it.
    case hotspotStarted
    /// Stop the booth (SIGTERM, SIGINT or a script's `quit`).
    case shutdownRequested(ShutdownKind)
}

/// How the booth should stop.
public enum ShutdownKind: String, Hashable, Sendable {
    /// A signal: abort a running sequence, but finish saving a photo already taken.
    case abortSequence
    /// A script's `quit`: finish the running sequence and its saving first.
    case finishSequence
    /// A device cannot recover inside this process (a camera libcamera lost track of): like a signal,
    /// but the exit status (75, EX_TEMPFAIL) asks systemd to start the booth again.
    case restart
}
