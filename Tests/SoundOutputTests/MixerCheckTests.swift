// Tests for MixerCheck: card name mapping, what counts as silent or quiet, the wording, and no failure without a mixer.

import Testing

@testable import SoundOutput

@Suite struct MixerCheckTests {
    typealias R = MixerCheck.Reading

    @Test func cardNamesMapToMixerDevices() {
        #expect(MixerCheck.mixerName(forCard: "0") == "hw:0")
        #expect(MixerCheck.mixerName(forCard: "Headphones") == "hw:CARD=Headphones")
        #expect(MixerCheck.mixerName(forCard: "hw:1") == "hw:1")
        #expect(MixerCheck.mixerName(forCard: "plughw:CARD=Device,DEV=0") == "hw:CARD=Device")
        #expect(MixerCheck.mixerName(forCard: "plughw:2,0") == "hw:2")
        #expect(MixerCheck.mixerName(forCard: "default") == "default")
    }

    @Test func silentComesFirstThenQuiet() {
        let fine = R(name: "Master", muted: false, level: 0.8)
        #expect(MixerCheck.problem(for: [fine]) == nil)
        #expect(MixerCheck.problem(for: []) == nil)
        #expect(MixerCheck.problem(for: [R(name: "Speaker", muted: false, level: nil)]) == nil)
        let half = R(name: "PCM", muted: false, level: 0.5)
        #expect(MixerCheck.problem(for: [fine, half]) == nil, "50 % is not below half")
        let low = R(name: "PCM", muted: false, level: 0.3)
        #expect(MixerCheck.problem(for: [fine, low]) == .low(control: "PCM", percent: 30))
        let zero = R(name: "Headphone", muted: false, level: 0)
        #expect(MixerCheck.problem(for: [low, zero]) == .silent(control: "Headphone", muted: false))
        let muted = R(name: "Speaker", muted: true, level: 0.9)
        #expect(MixerCheck.problem(for: [low, muted]) == .silent(control: "Speaker", muted: true))
    }

    @Test func theWarningNamesTheControlAndTheFix() {
        #expect(
            MixerCheck.warning(for: .silent(control: "PCM", muted: true), card: "hw:CARD=Headphones")
                == "Sound card 'hw:CARD=Headphones' control 'PCM' is muted, so the booth's sounds will be silent. "
                + "Fix: run `amixer -D hw:CARD=Headphones sset PCM 80% unmute` (or use alsamixer).")
        #expect(
            MixerCheck.warning(for: .silent(control: "Headphone", muted: false), card: "hw:0")
                .contains("'Headphone' is at volume 0"))
        #expect(
            MixerCheck.warning(for: .low(control: "Master", percent: 30), card: "default")
                == "Sound card 'default' control 'Master' is at 30 %, so the booth's sounds are quiet. "
                + "Fix: run `amixer sset Master 80%` (or use alsamixer).")
    }

    @Test func noMixerMeansNoWarning() {
        #expect(MixerCheck().playbackVolumeWarning(card: "NoSuchBoothCard") == nil)
        #expect(MixerCheck().playbackVolumeWarning(card: "7") == nil)
        #expect(Mixer(name: "hw:CARD=NoSuchBoothCard") == nil)
    }
}
