// ChoicesFileTests: the state file that keeps the knob's choices.
import Testing

@testable import BoothCore

@Suite struct ChoicesFileTests {
    @Test func choicesRoundTrip() {
        let settings = BoothSettings()
        let choices = RuntimeChoices(sound: "Dog", delayHalfSeconds: 5, visualCountdown: false, volumePercent: 60)
        let (read, warning) = ChoicesFile.decode(ChoicesFile.encode(choices), settings: settings)
        #expect(read == choices)
        #expect(warning == nil)
    }

    @Test func aMissingFileGivesTheDefaultsSilently() {
        let (read, warning) = ChoicesFile.decode(nil, settings: BoothSettings())
        #expect(read == BoothSettings().defaultChoices)
        #expect(warning == nil)
    }

    @Test(arguments: ["sound = \"Du", "\u{0}\u{0}\u{0}", "sound = 42\ndelay = 9.5", "delay = \"long\""])
    func aCorruptFileFallsBackToDefaultsWithAWarning(text: String) {
        let (read, warning) = ChoicesFile.decode(text, settings: BoothSettings())
        #expect(read == BoothSettings().defaultChoices)
        #expect(warning != nil)
    }

    @Test func aTruncatedWriteKeepsTheValidPart() {
        let (read, warning) = ChoicesFile.decode("sound = \"Cow\"\ndelay = 9.5\n", settings: BoothSettings())
        #expect(read.sound == "Cow")
        #expect(read.delayHalfSeconds == 2)
        #expect(warning?.contains("delay") == true)
    }

    /// A delay past any integer (or the largest doubles) is ignored with a warning, never a trap.
    @Test(arguments: ["delay = 1.0e300", "delay = -1.0e300", "delay = 4.7e18", "delay = 1.7976931348623157e308"])
    func aDelayPastIntegerRangeIsIgnoredWithAWarning(text: String) {
        let (read, warning) = ChoicesFile.decode("sound = \"Cow\"\n" + text + "\n", settings: BoothSettings())
        #expect(read.sound == "Cow")
        #expect(read.delayHalfSeconds == BoothSettings().defaultChoices.delayHalfSeconds)
        #expect(warning?.contains("delay") == true)
    }

    /// A volume that is not a step of 10 in 10...100 is ignored with a warning (a file written before
    /// the volume existed has none: full volume, silently).
    @Test(arguments: ["volume = 0", "volume = 55", "volume = 110", "volume = -10", "volume = 9223372036854775807"])
    func aVolumeOutOfRangeIsIgnoredWithAWarning(text: String) {
        let (read, warning) = ChoicesFile.decode("sound = \"Cow\"\n" + text + "\n", settings: BoothSettings())
        #expect(read.sound == "Cow")
        #expect(read.volumePercent == 100)
        #expect(warning?.contains("volume") == true)
    }

    @Test func aFileWithoutAVolumeMeansFullVolume() {
        let (read, warning) = ChoicesFile.decode("sound = \"Cow\"\ndelay = 1.0\n", settings: BoothSettings())
        #expect(read.volumePercent == 100 && warning == nil)
        #expect(
            RuntimeChoices(sound: "Cow", delayHalfSeconds: 2, visualCountdown: true, volumePercent: 42).volumePercent
                == 100)
    }
}
