// Tests for SoundSynthesizer: length, edges, level and determinism of every built-in sound.

import Foundation
import Testing

@testable import SoundOutput

/// RMS of `samples` relative to full scale, in dBFS.
func rmsDecibels<C: Collection>(_ samples: C) -> Double where C.Element == Int16 {
    let sum = samples.reduce(0.0) { $0 + Double($1) * Double($1) }
    let rms = (sum / Double(max(samples.count, 1))).squareRoot() / 32_767
    return 20 * log10(max(rms, 1e-12))
}

/// Peak of `samples` relative to full scale, in dBFS.
func peakDecibels(_ samples: [Int16]) -> Double {
    let peak = samples.reduce(0) { max($0, abs(Int($1))) }
    return 20 * log10(max(Double(peak), 1e-12) / 32_767)
}

@Suite struct SoundSynthesizerTests {
    @Test(arguments: BuiltInSound.allCases, [48_000, 44_100])
    func soundIsShortLoudAndHasNoSilentEdges(sound: BuiltInSound, sampleRate: Int) {
        let buffer = SoundSynthesizer.render(sound, sampleRate: sampleRate)
        #expect(buffer.channels == 1)
        #expect(buffer.sampleRate == sampleRate)
        #expect((0.3...1.5).contains(buffer.duration.inSeconds), "\(sound) lasts \(buffer.duration.inSeconds) s")
        let edge = sampleRate / 100
        let head = rmsDecibels(buffer.samples.prefix(edge))
        let tail = rmsDecibels(buffer.samples.suffix(edge))
        #expect(head > -40, "\(sound) starts with silence: first 10 ms at \(head) dBFS")
        #expect(tail > -40, "\(sound) ends with silence: last 10 ms at \(tail) dBFS")
        let peak = peakDecibels(buffer.samples)
        #expect((-6...0).contains(peak), "\(sound) peaks at \(peak) dBFS")
    }

    @Test(arguments: BuiltInSound.allCases)
    func renderingIsDeterministic(sound: BuiltInSound) {
        #expect(
            SoundSynthesizer.render(sound, sampleRate: 48_000) == SoundSynthesizer.render(sound, sampleRate: 48_000))
    }

    @Test func durationDoesNotDependOnSampleRate() {
        for sound in BuiltInSound.allCases {
            let a = SoundSynthesizer.render(sound, sampleRate: 48_000).duration.inSeconds
            let b = SoundSynthesizer.render(sound, sampleRate: 22_050).duration.inSeconds
            #expect(abs(a - b) < 0.001)
        }
    }

    @Test func rawValuesAreUserFacingNames() {
        #expect(
            BuiltInSound.allCases.map(\.rawValue) == [
                "Duck", "Cow", "Dog", "Boing", "Whistle", "Pop", "Bell", "Chime", "Shutter",
            ])
    }

    @Test func firstSampleIsAlreadyMoving() {
        for sound in BuiltInSound.allCases {
            let buffer = SoundSynthesizer.render(sound, sampleRate: 48_000)
            // Within 3 ms (2 ms fade-in) the signal must be clearly audible.
            let early = buffer.samples.prefix(144).reduce(0) { max($0, abs(Int($1))) }
            #expect(early > 300, "\(sound) is still near-silent after 3 ms (peak \(early))")
        }
    }
}
