// BoothTimer: the timers the state machine starts.
/// The timers the state machine starts. Each has at most one deadline at a time; starting it again
/// replaces the deadline.
public enum BoothTimer: String, Hashable, Sendable, CaseIterable {
    /// The attention sound's end never came (a device that took it but reports nothing): go on as if
    /// it had played.
    case soundTimedOut
    /// The countdown's end: take the photo.
    case countdownEnded
    /// The camera took too long to deliver the frame.
    case captureTimedOut
    /// The review window after a photo closed: a long press no longer discards it.
    case reviewEnded
    /// The knob has been left in delay mode without a touch: back to choosing sounds.
    case knobModeEnded
    /// The error pattern after an abort has shown long enough: back to idle.
    case abortEnded
    /// A setting's acknowledgement blinks have ended: the idle pattern in force shows again.
    case acknowledgeEnded
    /// The photographer's haptic pulse has lasted long enough.
    case hapticEnded
    /// While the store is full, free space is measured again every so often (space freed by hand).
    case storageRecheck
}
