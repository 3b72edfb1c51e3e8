// PCMConverter: resample (linear interpolation), remap channels and apply gain with clipping.

import Glibc

/// Converts a `PCMBuffer` to a device's sample rate and channel count, applying gain with clipping.
public enum PCMConverter {
    /// `buffer` at `sampleRate` with `channels` channels, scaled by `gainDecibels` and clipped to 16 bits.
    ///
    /// Resampling interpolates linearly; the output has `round(frames × rate ratio)` frames, so the
    /// duration is kept within one frame. Mono is copied to every output channel; several channels
    /// going to mono are averaged; otherwise output channel c takes input channel min(c, last).
    /// When nothing changes the input is returned untouched (bit-exact).
    public static func convert(
        _ buffer: PCMBuffer, sampleRate: Int, channels: Int, gainDecibels: Double = 0
    ) -> PCMBuffer {
        precondition(sampleRate > 0 && channels > 0, "invalid target format \(sampleRate) Hz × \(channels)")
        if buffer.sampleRate == sampleRate && buffer.channels == channels && gainDecibels == 0 { return buffer }

        let gain = pow(10, gainDecibels / 20)
        let inFrames = buffer.frameCount
        let inChannels = buffer.channels
        let outFrames = Int((Double(inFrames) * Double(sampleRate) / Double(buffer.sampleRate)).rounded())
        let step = Double(buffer.sampleRate) / Double(sampleRate)
        var out = [Int16](repeating: 0, count: outFrames * channels)

        /// Input frame `frame` mixed down or picked for output channel `channel`, as a Double.
        func input(_ frame: Int, _ channel: Int) -> Double {
            let base = frame * inChannels
            if channels == 1 && inChannels > 1 {
                var sum = 0.0
                for c in 0..<inChannels { sum += Double(buffer.samples[base + c]) }
                return sum / Double(inChannels)
            }
            return Double(buffer.samples[base + min(channel, inChannels - 1)])
        }

        for frame in 0..<outFrames {
            let position = Double(frame) * step
            let left = min(Int(position), inFrames - 1)
            let right = min(left + 1, inFrames - 1)
            let fraction = position - Double(left)
            for channel in 0..<channels {
                let value = input(left, channel) * (1 - fraction) + input(right, channel) * fraction
                out[frame * channels + channel] = Int16((value * gain).rounded().clamped(to: -32_768...32_767))
            }
        }
        return PCMBuffer(samples: out, sampleRate: sampleRate, channels: channels)
    }
}

extension Double {
    fileprivate func clamped(to range: ClosedRange<Double>) -> Double {
        Swift.min(Swift.max(self, range.lowerBound), range.upperBound)
    }
}
