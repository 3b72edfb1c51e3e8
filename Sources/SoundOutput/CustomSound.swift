// CustomSound: a sound loaded from the user's sounds folder.

/// A sound decoded from a WAV file in the sounds folder; `name` is the file name without ".wav".
public struct CustomSound: Sendable, Equatable {
    /// The file stem, shown to the user.
    public var name: String
    /// The decoded samples, in the file's own rate and channel count.
    public var buffer: PCMBuffer

    /// A custom sound called `name`.
    public init(name: String, buffer: PCMBuffer) {
        self.name = name
        self.buffer = buffer
    }
}
