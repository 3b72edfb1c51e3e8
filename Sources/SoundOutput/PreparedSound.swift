// PreparedSound: samples already converted to one playback device's format.

/// Samples converted to a playback device's rate, channel count and gain, ready to hand to ALSA.
public struct PreparedSound: Sendable, Equatable {
    /// The converted samples; `buffer.sampleRate` and `buffer.channels` match the device.
    public var buffer: PCMBuffer

    /// Converts `source` for a device playing `sampleRate` Hz with `channels` channels, applying
    /// `gainDecibels` with clipping. Do this ahead of time: it is too slow for the event loop.
    public init(_ source: PCMBuffer, sampleRate: Int, channels: Int, gainDecibels: Double = 0) {
        buffer = PCMConverter.convert(source, sampleRate: sampleRate, channels: channels, gainDecibels: gainDecibels)
    }
}
