// PCMBuffer: interleaved signed 16-bit samples plus the format needed to play them.

/// Interleaved signed 16-bit PCM audio with its sample rate and channel count.
public struct PCMBuffer: Sendable, Equatable {
    /// Interleaved samples: frame 0 channel 0, frame 0 channel 1, ..., frame 1 channel 0, ...
    public var samples: [Int16]
    /// Frames per second, for example 48000.
    public var sampleRate: Int
    /// Samples per frame: 1 for mono, 2 for stereo.
    public var channels: Int

    /// Wraps `samples`; their count must be a multiple of `channels`.
    public init(samples: [Int16], sampleRate: Int, channels: Int) {
        precondition(sampleRate > 0, "sample rate must be positive, got \(sampleRate)")
        precondition(channels > 0, "channel count must be positive, got \(channels)")
        precondition(samples.count % channels == 0, "\(samples.count) samples do not fill \(channels)-channel frames")
        self.samples = samples
        self.sampleRate = sampleRate
        self.channels = channels
    }

    /// Number of frames (one sample per channel each).
    public var frameCount: Int { samples.count / channels }

    /// Playing time at `sampleRate`, to the nanosecond (toward zero).
    public var duration: Duration { Self.duration(frames: frameCount, sampleRate: sampleRate) }

    /// How long `frames` frames play at `sampleRate`, to the nanosecond (toward zero).
    public static func duration(frames: Int, sampleRate: Int) -> Duration {
        .nanoseconds(Int64(frames) * 1_000_000_000 / Int64(sampleRate))
    }
}
