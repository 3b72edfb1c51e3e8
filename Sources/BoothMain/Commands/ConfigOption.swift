// ConfigOption: the `--config FILE` option every command shares, and the settings it names.
import ArgumentParser
import BoothCore
import BoothRuntime
import BoothSystem

/// The `--config FILE` option every command shares, and the settings it names.
struct ConfigOption: ParsableArguments {
    @Option(
        help:
            "The config file (default: /etc/heylook/booth.toml if it exists, else built-in defaults, and photos, export, stats and gallery read the simulator's store)."
    )
    var config: String?

    /// The settings from the chosen file (see `ConfigLoader.settings(path:)`).
    func settings() throws -> BoothSettings {
        try ConfigLoader.settings(path: config)
    }

    /// The settings for a command that reads the photo store or the events (`photos`, `export`, `stats`). With no
    /// config file at all (neither `--config` nor /etc/heylook/booth.toml: no booth is installed here) that is the
    /// simulator's store, and standard error says so; `photosGiven` (the command's `--photos`) leaves the
    /// settings as they are.
    func storeSettings(photosGiven: Bool = false) throws -> BoothSettings {
        let (settings, note) = Self.store(
            try settings(), configGiven: config != nil || photosGiven,
            installed: FileAccess.exists(ConfigLoader.defaultPath), simulatorFolder: SimulatorStore.folder)
        if let note { Log.info(note) }
        return settings
    }

    /// The store's settings and what to say about them: the simulator's folder when neither a config (or photos
    /// folder) was given nor a booth is installed, else `settings` as they are.
    static func store(
        _ settings: BoothSettings, configGiven: Bool, installed: Bool, simulatorFolder: String
    ) -> (BoothSettings, note: String?) {
        guard !configGiven, !installed else { return (settings, nil) }
        return (
            SimulatorStore.applied(to: settings, folder: simulatorFolder),
            "no booth is installed here (no \(ConfigLoader.defaultPath)): using the simulator's store in "
                + "\(simulatorFolder) (--config FILE for another)"
        )
    }

    /// Where the settings come from, for messages.
    var source: String {
        config ?? (FileAccess.isReadable(ConfigLoader.defaultPath) ? ConfigLoader.defaultPath : "built-in defaults")
    }
}
