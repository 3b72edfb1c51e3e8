// ConfigLoader: reads the config file and the choices file, with errors a person can act on.
import BoothConfig
import BoothCore
import BoothSystem
import PhotoStore

/// Reads the config file and the choices file, with errors a person can act on.
package enum ConfigLoader {
    /// The config file used when `--config` is not given (if it exists).
    package static let defaultPath = "/etc/heylook/booth.toml"

    /// The settings in `path` (or the default file, or the defaults when neither exists).
    package static func settings(path: String?) throws -> BoothSettings {
        let chosen = path ?? (FileAccess.isReadable(defaultPath) ? defaultPath : nil)
        guard let chosen else { return BoothSettings() }
        guard let text = try readText(chosen) else {
            throw BoothFailure(
                "config file \(chosen) does not exist; copy deploy/booth.toml there or pass --config FILE")
        }
        do {
            return try ConfigFile.parse(text, customSounds: customSoundNames(configText: text))
        } catch {
            throw BoothFailure("\(chosen): \(error)")
        }
    }

    /// The custom sounds' names (WAV file stems) in the sounds folder the config names, so they
    /// can be favourites. Whether each file is usable is checked when the sounds load.
    package static func customSoundNames(configText: String) -> [String] {
        var folder = BoothSettings().soundsDirectory
        if let document = try? TOMLDocument(parsing: configText),
            let entry = document.entries.first(where: { $0.path == "sound.sounds_dir" }),
            case .string(let path) = entry.value
        {
            folder = path
        }
        guard let names = try? PhotoStore.fileNames(in: folder) else { return [] }
        return names.filter { $0.lowercased().hasSuffix(".wav") && !$0.hasPrefix(".") }.map { String($0.dropLast(4)) }
    }

    /// The knob's choices from the state file, checked against `settings`. Never throws: a state file
    /// that cannot be read (a folder, no permission, larger than the limit) gives the defaults and a
    /// warning, like a corrupt one, so the booth still starts (systemd gives up after a few quick
    /// restarts). The config file, by contrast, is a start error.
    package static func choices(settings: BoothSettings) -> (RuntimeChoices, warning: String?) {
        let text: String?
        do {
            text = try readText(settings.stateFile)
        } catch {
            return (
                settings.defaultChoices,
                "state file: \(error); using the defaults (delete \(settings.stateFile) or fix its permissions; the booth writes it anew when a choice changes)"
            )
        }
        return ChoicesFile.decode(text, settings: settings)
    }

    /// The whole file as text, or nil when it does not exist.
    package static func readText(_ path: String) throws -> String? {
        do {
            return try FileReading.contents(of: path, limit: 4 << 20).map { String(decoding: $0, as: UTF8.self) }
        } catch .tooLarge {
            throw BoothFailure("\(path) is larger than 4 MiB")
        } catch {
            throw BoothFailure("cannot read \(path): \(error)")
        }
    }
}
