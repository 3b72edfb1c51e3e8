// Tests for PCMConverter: duration kept across rates, channel mapping, gain and clipping.

import Testing

@testable import SoundOutput

@Suite struct PCMConverterTests {
    @Test(arguments: [(44_100, 48_000), (48_000, 44_100), (22_050, 48_000), (48_000, 8_000), (96_000, 48_000)])
    func rateChangeKeepsDurationWithinOneFrame(from: Int, to: Int) {
        let source = SoundSynthesizer.render(.pop, sampleRate: from)
        let converted = PCMConverter.convert(source, sampleRate: to, channels: 1)
        #expect(converted.sampleRate == to)
        let expected = source.duration.inSeconds * Double(to)
        #expect(abs(Double(converted.frameCount) - expected) <= 1)
    }

    @Test func unchangedFormatIsBitExact() {
        let source = SoundSynthesizer.render(.chime, sampleRate: 48_000)
        #expect(PCMConverter.convert(source, sampleRate: 48_000, channels: 1) == source)
    }

    @Test func upsamplingInterpolatesLinearly() {
        let source = PCMBuffer(samples: [0, 1000, 2000, 3000], sampleRate: 24_000, channels: 1)
        let converted = PCMConverter.convert(source, sampleRate: 48_000, channels: 1)
        #expect(converted.samples == [0, 500, 1000, 1500, 2000, 2500, 3000, 3000])
    }

    @Test func monoToStereoDuplicatesAndStereoToMonoAverages() {
        let mono = PCMBuffer(samples: [10, -20], sampleRate: 48_000, channels: 1)
        #expect(PCMConverter.convert(mono, sampleRate: 48_000, channels: 2).samples == [10, 10, -20, -20])
        let stereo = PCMBuffer(samples: [100, 300, -100, -301], sampleRate: 48_000, channels: 2)
        #expect(PCMConverter.convert(stereo, sampleRate: 48_000, channels: 1).samples == [200, -201])
    }

    @Test func gainScalesAndClips() {
        let source = PCMBuffer(samples: [1000, -1000, 20_000, -20_000], sampleRate: 48_000, channels: 1)
        let louder = PCMConverter.convert(source, sampleRate: 48_000, channels: 1, gainDecibels: 6.0206)
        #expect(louder.samples == [2000, -2000, 32_767, -32_768])
        let quieter = PCMConverter.convert(source, sampleRate: 48_000, channels: 1, gainDecibels: -6.0206)
        #expect(quieter.samples == [500, -500, 10_000, -10_000])
    }
}
