// SimulatorStore: the folder where `booth simulate` keeps its photos, the knob's choices and its events.
import BoothCore
import BoothRuntime
import BoothSystem

/// The folder where `booth simulate` keeps its photos, the knob's choices and its events
/// (`~/.local/share/heylook-sim`). On a machine with no installed booth, `booth photos`, `export` and `stats`
/// read it too (`ConfigOption.storeSettings`), so what the simulator just took is what they show.
enum SimulatorStore {
    /// `~/.local/share/heylook-sim` (`/tmp/.local/…` when HOME is not set).
    static var folder: String {
        let home = Environment.value("HOME") ?? "/tmp"
        return "\(home)/.local/share/heylook-sim"
    }

    /// `settings` with the photos folder and the state file (and so the events file beside it) in `folder`.
    static func applied(to settings: BoothSettings, folder: String = folder) -> BoothSettings {
        var settings = settings
        settings.photosDirectory = "\(folder)/photos"
        settings.stateFile = "\(folder)/state.toml"
        return settings
    }
}
