// Tests for MixerCheck: card name mapping, warning wording, and no failure without a mixer.

import Testing

@testable import SoundOutput

@Suite struct MixerCheckTests {
    @Test func cardNamesMapToMixerDevices() {
        #expect(MixerCheck.mixerName(forCard: "0") == "hw:0")
        #expect(MixerCheck.mixerName(forCard: "Headphones") == "hw:CARD=Headphones")
        #expect(MixerCheck.mixerName(forCard: "hw:1") == "hw:1")
        #expect(MixerCheck.mixerName(forCard: "plughw:CARD=Device,DEV=0") == "hw:CARD=Device")
        #expect(MixerCheck.mixerName(forCard: "plughw:2,0") == "hw:2")
        #expect(MixerCheck.mixerName(forCard: "default") == "default")
    }

    @Test func warnsForTheFirstSilentControl() {
        typealias R = MixerCheck.Reading
        let fine = [R(name: "Master", muted: false, atMinimum: false)]
        #expect(MixerCheck.warning(for: fine, card: "hw:0") == nil)
        #expect(MixerCheck.warning(for: [], card: "hw:0") == nil)
        let muted = [fine[0], R(name: "PCM", muted: true, atMinimum: false)]
        #expect(
            MixerCheck.warning(for: muted, card: "hw:CARD=Headphones")
                == "Sound card 'hw:CARD=Headphones' control 'PCM' is muted, so the booth's sounds will be silent. "
                + "Fix: run `amixer -D hw:CARD=Headphones sset PCM 80% unmute` (or use alsamixer).")
        let zero = [R(name: "Headphone", muted: false, atMinimum: true)]
        #expect(MixerCheck.warning(for: zero, card: "hw:0")?.contains("'Headphone' is at volume 0") == true)
    }

    @Test func noMixerMeansNoWarning() {
        #expect(MixerCheck().playbackVolumeWarning(card: "NoSuchBoothCard") == nil)
        #expect(MixerCheck().playbackVolumeWarning(card: "7") == nil)
    }
}
