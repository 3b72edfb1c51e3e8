// PlaybackEvent: what ALSAPlayback.handlePoll reports to the event loop.

/// Something the event loop must react to after `ALSAPlayback.handlePoll`.
public enum PlaybackEvent: Sendable, Equatable {
    /// The last sample of the sound has been played by the device (not merely written).
    case finished
    /// The device failed and the sound was abandoned (for example, the USB card was unplugged).
    case failed(SoundDeviceError)
}
