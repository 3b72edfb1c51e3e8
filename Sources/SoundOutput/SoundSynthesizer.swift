// SoundSynthesizer: renders every BuiltInSound from code (additive voices, filtered seeded noise).

import BoothTime
import Glibc

/// Renders the built-in sounds from code, deterministically, at any sample rate.
///
/// Every sound is mono, starts at its first sample (2 ms fade-in against clicks), ends while still
/// audible (5 ms fade-out, no trailing silence) and peaks at -3 dBFS.
public enum SoundSynthesizer {
    /// The peak level every built-in sound is normalized to, in dBFS.
    public static let peakDecibels: Double = -3

    /// Renders `sound` as mono 16-bit PCM at `sampleRate` frames per second (8000...192000).
    public static func render(_ sound: BuiltInSound, sampleRate: Int = 48_000) -> PCMBuffer {
        precondition((8_000...192_000).contains(sampleRate), "unsupported sample rate \(sampleRate)")
        var canvas = Canvas(sampleRate: Double(sampleRate), seconds: duration(of: sound).inSeconds)
        switch sound {
        case .duck: drawDuck(on: &canvas)
        case .cow: drawCow(on: &canvas)
        case .dog: drawDog(on: &canvas)
        case .boing: drawBoing(on: &canvas)
        case .whistle: drawWhistle(on: &canvas)
        case .pop: drawPop(on: &canvas)
        case .bell: drawBell(on: &canvas)
        case .chime: drawChime(on: &canvas)
        case .shutter: drawShutter(on: &canvas)
        }
        return canvas.finished()
    }

    /// The length of `sound`, independent of the sample rate.
    public static func duration(of sound: BuiltInSound) -> Duration {
        switch sound {
        case .duck: .milliseconds(560)
        case .cow: .milliseconds(1300)
        case .dog: .milliseconds(480)
        case .boing: .milliseconds(900)
        case .whistle: .milliseconds(900)
        case .pop: .milliseconds(300)
        case .bell: .milliseconds(1400)
        case .chime: .milliseconds(1300)
        case .shutter: .milliseconds(300)
        }
    }

    // MARK: - The sounds

    /// Two quacks: a buzzy voice with nasal formants whose pitch drops.
    private static func drawDuck(on canvas: inout Canvas) {
        for (start, length, fromHz, toHz) in [(0.0, 0.22, 560.0, 400.0), (0.30, 0.26, 520.0, 360.0)] {
            canvas.addVoice(
                from: start, length: length, spectralTilt: 0.9,
                pitch: { t in fromHz * pow(toHz / fromHz, t / length) },
                amplitude: { t in
                    attack(t, 0.01) * (1 - 0.45 * smoothstep(t, length - 0.08, length))
                },
                formants: { t in
                    let open = smoothstep(t, 0, 0.04)
                    return [
                        Formant(hertz: 700 + 400 * open, bandwidth: 220, gain: 1),
                        Formant(hertz: 1600 - 100 * open, bandwidth: 300, gain: 0.7),
                        Formant(hertz: 2700, bandwidth: 400, gain: 0.35),
                    ]
                })
        }
    }

    /// One long moo: a low voice that opens from "mmm" to "ooo" and settles.
    private static func drawCow(on canvas: inout Canvas) {
        let length = 1.3
        canvas.addVoice(
            from: 0, length: length, spectralTilt: 0.8,
            pitch: { t in
                let contour = 130 + 25 * sin(Double.pi * t / length) - 12 * smoothstep(t, 0.9, length)
                return contour * (1 + 0.012 * sin(2 * .pi * 5 * t))
            },
            amplitude: { t in
                attack(t, 0.004) * (0.5 + 0.5 * smoothstep(t, 0, 0.3)) * (1 - 0.45 * smoothstep(t, 0.9, length))
            },
            formants: { t in
                let open = smoothstep(t, 0.05, 0.35) * (1 - 0.4 * smoothstep(t, 0.8, length))
                return [
                    Formant(hertz: 250 + 300 * open, bandwidth: 120, gain: 1),
                    Formant(hertz: 800 + 150 * open, bandwidth: 180, gain: 0.3 + 0.4 * open),
                    Formant(hertz: 2400, bandwidth: 300, gain: 0.1 * open),
                ]
            })
    }

    /// Two short barks: a rough voice with a quick pitch rise and fall, plus breath noise.
    private static func drawDog(on canvas: inout Canvas) {
        for (start, length) in [(0.0, 0.2), (0.26, 0.22)] {
            canvas.addVoice(
                from: start, length: length, spectralTilt: 0.7,
                pitch: { t in
                    t < 0.02 ? 220 + 110 * (t / 0.02) : 330 * pow(160.0 / 330.0, (t - 0.02) / (length - 0.02))
                },
                amplitude: { t in attack(t, 0.005) * exp(-t / 0.1) },
                formants: { _ in
                    [
                        Formant(hertz: 600, bandwidth: 300, gain: 1),
                        Formant(hertz: 1300, bandwidth: 350, gain: 0.6),
                        Formant(hertz: 2500, bandwidth: 500, gain: 0.25),
                    ]
                })
            canvas.addNoise(
                from: start, length: 0.05, seed: UInt64(start * 1000) + 7, centerHertz: 900, bandwidth: 1200,
                level: 0.5, amplitude: { t in attack(t, 0.003) * exp(-t / 0.015) })
        }
    }

    /// A spring: a bright tone whose pitch wobbles with a decaying depth while it rises.
    private static func drawBoing(on canvas: inout Canvas) {
        let length = 0.9
        canvas.addTone(
            from: 0, length: length, harmonics: [1, 0.45, 0.25, 0.12],
            pitch: { t in
                let center = 220 * pow(1.5, t / length)
                return center * (1 + 0.3 * exp(-t / 0.35) * sin(2 * .pi * 11 * t))
            },
            amplitude: { t in attack(t, 0.004) * exp(-t / 0.5) })
    }

    /// A slide whistle gliding up two octaves, with vibrato and a breath of noise.
    private static func drawWhistle(on canvas: inout Canvas) {
        let length = 0.9
        canvas.addTone(
            from: 0, length: length, harmonics: [1, 0.08],
            pitch: { t in
                let glide = smoothstep(t, 0, length)
                return 550 * pow(1900.0 / 550.0, glide) * (1 + 0.01 * sin(2 * .pi * 6 * t))
            },
            amplitude: { t in 0.8 + 0.2 * smoothstep(t, 0, 0.15) })
        canvas.addNoise(
            from: 0, length: length, seed: 11, centerHertz: 2500, bandwidth: 3000, level: 0.04,
            amplitude: { _ in 1 })
    }

    /// A bubble pop: a tick, then a sine whose pitch jumps up as it fades.
    private static func drawPop(on canvas: inout Canvas) {
        let length = 0.3
        canvas.addTone(
            from: 0, length: length, harmonics: [1, 0.2],
            pitch: { t in 350 + 750 * (1 - exp(-t / 0.03)) },
            amplitude: { t in attack(t, 0.001) * exp(-t / 0.13) })
        canvas.addNoise(
            from: 0, length: 0.01, seed: 3, centerHertz: 3000, bandwidth: 4000, level: 0.3,
            amplitude: { t in attack(t, 0.001) * exp(-t / 0.003) })
    }

    /// A struck bell: inharmonic partials, the higher ones dying sooner.
    private static func drawBell(on canvas: inout Canvas) {
        let partials: [(ratio: Double, gain: Double, decay: Double)] = [
            (0.5, 0.6, 1.2), (1.0, 1.0, 0.9), (1.19, 0.7, 0.7), (1.56, 0.5, 0.55), (2.0, 0.45, 0.45),
            (2.51, 0.3, 0.35), (2.66, 0.25, 0.3), (3.01, 0.2, 0.25), (4.1, 0.12, 0.18),
        ]
        for partial in partials {
            canvas.addTone(
                from: 0, length: 1.4, harmonics: [partial.gain],
                pitch: { _ in 660 * partial.ratio },
                amplitude: { t in attack(t, 0.002) * exp(-t / partial.decay) })
        }
        canvas.addNoise(
            from: 0, length: 0.02, seed: 5, centerHertz: 4000, bandwidth: 3000, level: 0.3,
            amplitude: { t in exp(-t / 0.004) })
    }

    /// Ding-dong: E5 then C5, each with a few soft harmonics.
    private static func drawChime(on canvas: inout Canvas) {
        for (start, hertz) in [(0.0, 659.25), (0.45, 523.25)] {
            let length = 1.3 - start
            canvas.addTone(
                from: start, length: length, harmonics: [1],
                pitch: { _ in hertz }, amplitude: { t in attack(t, 0.002) * exp(-t / 0.6) })
            canvas.addTone(
                from: start, length: length, harmonics: [0, 0.3, 0.1],
                pitch: { _ in hertz }, amplitude: { t in attack(t, 0.002) * exp(-t / 0.25) })
            canvas.addTone(
                from: start, length: length, harmonics: [0.08],
                pitch: { _ in hertz * 2.76 }, amplitude: { t in attack(t, 0.002) * exp(-t / 0.12) })
        }
    }

    /// A shutter: a click (mirror up), a louder clack, then a short film-wind whirr.
    private static func drawShutter(on canvas: inout Canvas) {
        let strikes: [(start: Double, hertz: Double, decay: Double, level: Double, seed: UInt64)] = [
            (0.0, 3200, 0.012, 0.6, 21), (0.12, 2200, 0.03, 1.0, 22),
        ]
        for strike in strikes {
            canvas.addNoise(
                from: strike.start, length: 0.1, seed: strike.seed, centerHertz: strike.hertz, bandwidth: 1500,
                level: strike.level, amplitude: { t in attack(t, 0.001) * exp(-t / strike.decay) })
            canvas.addTone(
                from: strike.start, length: 0.1, harmonics: [0.4 * strike.level],
                pitch: { _ in 180 }, amplitude: { t in attack(t, 0.001) * exp(-t / 0.02) })
        }
        canvas.addNoise(
            from: 0.15, length: 0.15, seed: 23, centerHertz: 1200, bandwidth: 900, level: 0.5,
            amplitude: { t in smoothstep(t, 0, 0.03) * (0.6 + 0.4 * sin(2 * .pi * 60 * t)) })
    }

    // MARK: - Envelopes

    /// 0 at `t = 0` rising smoothly to 1 at `t = seconds`.
    private static func attack(_ t: Double, _ seconds: Double) -> Double {
        smoothstep(t, 0, seconds)
    }

    /// Hermite step from 0 (at or before `from`) to 1 (at or after `to`).
    private static func smoothstep(_ t: Double, _ from: Double, _ to: Double) -> Double {
        let x = min(max((t - from) / (to - from), 0), 1)
        return x * x * (3 - 2 * x)
    }
}

/// A spectral peak of a voice: centre frequency, bandwidth (both in hertz) and linear gain.
struct Formant {
    var hertz: Double
    var bandwidth: Double
    var gain: Double

    /// Gain of this resonance at `frequency` (a Lorentzian bump, 1 at the centre).
    func response(at frequency: Double) -> Double {
        let x = (frequency - hertz) / (bandwidth / 2)
        return gain / (1 + x * x).squareRoot()
    }
}

/// A mono mix in floating point that sound generators add into.
struct Canvas {
    let sampleRate: Double
    var mix: [Double]

    init(sampleRate: Double, seconds: Double) {
        self.sampleRate = sampleRate
        self.mix = [Double](repeating: 0, count: Int((seconds * sampleRate).rounded()))
    }

    /// Frame range covering `length` seconds from `start`, clipped to the canvas.
    private func frames(from start: Double, length: Double) -> Range<Int> {
        let first = min(Int((start * sampleRate).rounded()), mix.count)
        let last = min(Int(((start + length) * sampleRate).rounded()), mix.count)
        return first..<last
    }

    /// Adds a band-limited tone: `harmonics[k]` is the level of harmonic k+1 of `pitch(t)`.
    mutating func addTone(
        from start: Double, length: Double, harmonics: [Double],
        pitch: (Double) -> Double, amplitude: (Double) -> Double
    ) {
        let range = frames(from: start, length: length)
        let nyquistGuard = 0.45 * sampleRate
        var phase = 0.0
        for index in range {
            let t = Double(index - range.lowerBound) / sampleRate
            let f0 = pitch(t)
            var sample = 0.0
            for (k, level) in harmonics.enumerated() where level != 0 && Double(k + 1) * f0 < nyquistGuard {
                sample += level * sin(Double(k + 1) * phase)
            }
            mix[index] += amplitude(t) * sample
            phase = (phase + 2 * .pi * f0 / sampleRate).truncatingRemainder(dividingBy: 2 * .pi * 1_000)
        }
    }

    /// Adds a voice: every harmonic of `pitch(t)` up to 6 kHz, falling as 1/k^`spectralTilt`,
    /// shaped by the sum of `formants(t)`. Harmonic weights are refreshed every 32 frames (0.7 ms at
    /// 48 kHz) and harmonics come from the sine recurrence, which keeps rendering cheap on a Pi.
    mutating func addVoice(
        from start: Double, length: Double, spectralTilt: Double,
        pitch: (Double) -> Double, amplitude: (Double) -> Double, formants: (Double) -> [Formant]
    ) {
        let range = frames(from: start, length: length)
        let ceiling = min(6_000, 0.45 * sampleRate)
        var phase = 0.0
        var weights: [Double] = []
        for index in range {
            let t = Double(index - range.lowerBound) / sampleRate
            let f0 = pitch(t)
            if (index - range.lowerBound) % 32 == 0 {
                let shape = formants(t)
                weights = (1..<max(2, Int(ceiling / f0) + 1)).map { k in
                    let frequency = Double(k) * f0
                    return shape.reduce(0) { $0 + $1.response(at: frequency) } / pow(Double(k), spectralTilt)
                }
            }
            // sin(kφ) = 2 cos φ · sin((k-1)φ) − sin((k-2)φ)
            let twoCos = 2 * cos(phase)
            var previous = 0.0
            var current = sin(phase)
            var sample = 0.0
            for (k, weight) in weights.enumerated() where Double(k + 1) * f0 < ceiling {
                sample += weight * current
                (previous, current) = (current, twoCos * current - previous)
            }
            mix[index] += amplitude(t) * sample
            phase = (phase + 2 * .pi * f0 / sampleRate).truncatingRemainder(dividingBy: 2 * .pi)
        }
    }

    /// Adds seeded white noise through a two-pole band-pass at `centerHertz`.
    mutating func addNoise(
        from start: Double, length: Double, seed: UInt64, centerHertz: Double, bandwidth: Double,
        level: Double, amplitude: (Double) -> Double
    ) {
        let range = frames(from: start, length: length)
        var noise = SeededNoise(seed: seed)
        let center = min(centerHertz, 0.45 * sampleRate)
        let radius = exp(-Double.pi * bandwidth / sampleRate)
        let a1 = 2 * radius * cos(2 * .pi * center / sampleRate)
        let a2 = -radius * radius
        let inputGain = (1 - radius * radius) / 2
        var y1 = 0.0
        var y2 = 0.0
        var x2 = 0.0
        var x1 = 0.0
        for index in range {
            let t = Double(index - range.lowerBound) / sampleRate
            let x0 = noise.next()
            let y0 = inputGain * (x0 - x2) + a1 * y1 + a2 * y2
            (x2, x1) = (x1, x0)
            (y2, y1) = (y1, y0)
            mix[index] += level * 4 * amplitude(t) * y0
        }
    }

    /// Normalizes to the target peak, applies the anti-click fades and quantizes to Int16.
    func finished() -> PCMBuffer {
        let peak = mix.reduce(0) { max($0, abs($1)) }
        let scale = peak > 0 ? pow(10, SoundSynthesizer.peakDecibels / 20) / peak : 0
        let fadeIn = max(1, Int(0.002 * sampleRate))
        let fadeOut = max(1, Int(0.005 * sampleRate))
        var samples = [Int16](repeating: 0, count: mix.count)
        for index in mix.indices {
            var gain = scale
            if index < fadeIn { gain *= 0.5 - 0.5 * cos(Double.pi * Double(index + 1) / Double(fadeIn + 1)) }
            let fromEnd = mix.count - 1 - index
            if fromEnd < fadeOut { gain *= 0.5 - 0.5 * cos(Double.pi * Double(fromEnd + 1) / Double(fadeOut + 1)) }
            samples[index] = Int16((mix[index] * gain * 32_767).rounded())
        }
        return PCMBuffer(samples: samples, sampleRate: Int(sampleRate), channels: 1)
    }
}

/// Deterministic white noise in [-1, 1] (SplitMix64).
struct SeededNoise {
    private var state: UInt64

    init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 &+ 1 }

    mutating func next() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D4_9BB1_33B1_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(1 << 52) - 1
    }
}
