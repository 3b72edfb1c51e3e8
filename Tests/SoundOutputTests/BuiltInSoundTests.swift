// BuiltInSoundTests: the sounds SoundOutput makes are the ones the settings offer.
import BoothCore
import SoundOutput
import Testing

@Suite struct BuiltInSoundTests {
    /// The settings (which validate the config's sound names) and the synthesizer name the same
    /// sounds in the same order; the shutter is played by the booth, never chosen.
    @Test func theSynthesizedSoundsAreTheSettingsBuiltIns() {
        let chosen = BuiltInSound.allCases.filter { $0 != .shutter }.map(\.rawValue)
        #expect(chosen == BoothSettings.builtInSounds)
        #expect(BoothSettings.defaultFavourites == Array(chosen.prefix(5)))
    }
}
