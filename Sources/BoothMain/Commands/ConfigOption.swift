// ConfigOption: the `--config FILE` option every command shares, and the settings it names.
import ArgumentParser
import BoothCore
import Glibc

/// The `--config FILE` option every command shares, and the settings it names.
struct ConfigOption: ParsableArguments {
    @Option(help: "The config file (default: /etc/heylook/booth.toml if it exists, else built-in defaults).")
    var config: String?

    /// The settings from the chosen file (see `ConfigLoader.settings(path:)`).
    func settings() throws -> BoothSettings {
        try ConfigLoader.settings(path: config)
    }

    /// Where the settings come from, for messages.
    var source: String {
        config ?? (access(ConfigLoader.defaultPath, R_OK) == 0 ? ConfigLoader.defaultPath : "built-in defaults")
    }
}
