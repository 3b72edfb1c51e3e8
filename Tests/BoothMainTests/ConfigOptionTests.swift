// ConfigOptionTests: which store `booth photos`, `export` and `stats` read.
import BoothCore
import Testing

@testable import BoothMain

@Suite struct ConfigOptionTests {
    /// No config given and no booth installed: the simulator's store, its photos, choices and events, said so.
    @Test func withNoBoothInstalledTheSimulatorsStoreIsRead() throws {
        let (settings, note) = ConfigOption.store(
            BoothSettings(), configGiven: false, installed: false, simulatorFolder: "/home/p/.local/share/heylook-sim")
        #expect(settings.photosDirectory == "/home/p/.local/share/heylook-sim/photos")
        #expect(settings.stateFile == "/home/p/.local/share/heylook-sim/state.toml")
        #expect(settings.eventsFile == "/home/p/.local/share/heylook-sim/events.jsonl")
        let said = try #require(note)
        #expect(said.contains("simulator's store in /home/p/.local/share/heylook-sim"))
        #expect(said.contains("--config FILE"))
    }

    /// An installed booth (its /etc/heylook/booth.toml) or a config or photos folder given: read as configured.
    @Test(arguments: [(true, false), (false, true), (true, true)])
    func anInstalledBoothOrAGivenConfigIsReadAsConfigured(installed: Bool, configGiven: Bool) {
        let (settings, note) = ConfigOption.store(
            BoothSettings(), configGiven: configGiven, installed: installed, simulatorFolder: "/tmp/sim")
        #expect(settings == BoothSettings())
        #expect(note == nil)
    }

    /// The simulator writes where the reading commands look.
    @Test func theSimulatorsFolderIsTheOneTheCommandsRead() {
        let simulated = SimulatorStore.applied(to: BoothSettings())
        let (read, _) = ConfigOption.store(
            BoothSettings(), configGiven: false, installed: false, simulatorFolder: SimulatorStore.folder)
        #expect(read.photosDirectory == simulated.photosDirectory)
        #expect(read.eventsFile == simulated.eventsFile)
    }
}
