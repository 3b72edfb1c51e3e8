// SimulateCommandSoundTests: the interactive simulator's sound, ALSA where it opens, else timed silence and a note.
import BoothCore
import Testing

@testable import BoothMain
@testable import BoothRuntime

@Suite(.timeLimit(.minutes(3))) struct SimulateCommandSoundTests {
    /// The interactive simulator plays through the default device where it opens, and otherwise is
    /// silent with a note (never an error): ALSA's `null` device always opens, a missing card never does.
    @Test func theInteractiveSimulatorPlaysWhereItCanAndSaysSoWhereItCannot() throws {
        var reported: [BoothEvent] = []
        let context = DeviceContext(loop: try EventLoop()) { event, _ in reported.append(event) }
        let (playing, none) = try SimulateCommand.interactiveSound(context, gainDecibels: 0, device: "null")
        #expect(playing is ALSASound)
        #expect(none == nil)
        let (silent, note) = try SimulateCommand.interactiveSound(
            context, gainDecibels: 0, device: "hw:CARD=NoSuchCard")
        #expect(reported.isEmpty, "the card that does not open is not the booth's: nothing is warned")
        #expect(silent is SilentSound)
        #expect(
            note?.hasSuffix("the simulator is silent, each sound timed as if played (--sound DEVICE picks another)")
                == true)
    }
}
