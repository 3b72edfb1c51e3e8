// SoundPurpose: why a sound is played, which decides what its end means.
/// Why a sound is played, which decides what its end means.
public enum SoundPurpose: String, Hashable, Sendable {
    /// The attention sound of a sequence: the countdown starts when it ends.
    case attention
    /// A knob preview: cut off by the next turn; its end means nothing.
    case preview
    /// The shutter sound at capture.
    case shutter
}
