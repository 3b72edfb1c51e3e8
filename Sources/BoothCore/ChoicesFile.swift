// ChoicesFile: the small state file that keeps the knob's choices across restarts, as four TOML lines.
import BoothConfig
/// The small state file that keeps the knob's choices across restarts, as four TOML lines.
///
/// Reading never fails: a missing, corrupt or out-of-date file gives the defaults and a warning
/// that says what was wrong, so a power cut during a write can never stop the booth from starting.
public enum ChoicesFile {
    /// The file's text for `choices`.
    public static func encode(_ choices: RuntimeChoices) -> String {
        """
        # HeyLook Booth: the knob's choices, rewritten by the booth. Edit the config file instead.
        sound = "\(choices.sound)"
        delay = \(choices.delaySeconds)
        visual_countdown = \(choices.visualCountdown)
        volume = \(choices.volumePercent)

        """
    }

    /// The choices in `text` (nil for a missing file), checked against `settings`; falls back to the
    /// defaults, with a warning, for anything it cannot use.
    public static func decode(_ text: String?, settings: BoothSettings) -> (RuntimeChoices, warning: String?) {
        let defaults = settings.defaultChoices
        guard let text else { return (defaults, nil) }
        let document: TOMLDocument
        do {
            document = try TOMLDocument(parsing: text)
        } catch {
            return (defaults, "state file is corrupt (\(error)); using the defaults")
        }
        var choices = defaults
        var problems: [String] = []
        for entry in document.entries {
            switch (entry.key, entry.value) {
            case ("sound", .string(let name)) where settings.favourites.contains(name):
                choices.sound = name
            case ("delay", .float(let d)) where RuntimeChoices.delayHalfSeconds(seconds: d) != nil:
                choices.delayHalfSeconds = RuntimeChoices.delayHalfSeconds(seconds: d) ?? defaults.delayHalfSeconds
            case ("visual_countdown", .boolean(let b)):
                choices.visualCountdown = b
            case ("volume", .integer(let v)) where RuntimeChoices.volumePercent(v) != nil:
                choices.volumePercent = v
            default:
                problems.append("\(entry.key) = \(entry.value)")
            }
        }
        guard problems.isEmpty else {
            return (choices, "state file: ignored \(problems.joined(separator: ", ")); using the defaults for those")
        }
        return (choices, nil)
    }
}
