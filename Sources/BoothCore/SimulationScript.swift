// SimulationScript: a `booth simulate --script` file.
import BoothConfig
import BoothTime

/// A `booth simulate --script` file: one command a line, `#` comments and blank lines ignored.
///
///     press              the big button: down, up 80 ms later
///     long-press         the big button held for the long-press time
///     knob +N / knob -N  N detents clockwise / anticlockwise
///     knob-press         the knob's switch, short
///     knob-long-press    the knob's switch held for the long-press time
///     cancel             the cancel button
///     print              the print button
///     key NAME           a remote's key (`remote.*_keys`, e.g. KEY_VOLUMEUP): down, up 80 ms later
///     wait SECONDS       let time pass (decimals allowed)
///     quit               finish the running sequence and its saving, then exit
public struct SimulationScript: Hashable, Sendable {
    /// One command.
    public enum Command: Hashable, Sendable {
        /// A short press of the big button.
        case press
        /// A long press of the big button.
        case longPress
        /// Knob detents, positive clockwise.
        case knob(Int)
        /// A short press of the knob.
        case knobPress
        /// A long press of the knob.
        case knobLongPress
        /// The cancel button.
        case cancel
        /// The print button.
        case print
        /// A remote's key, pressed and let go.
        case key(KeyCode)
        /// Let this much time pass.
        case wait(Duration)
        /// Finish and exit.
        case quit
    }

    /// What a bad line's error lists after what is wrong.
    static let commandList =
        "commands: press, long-press, knob +N, knob -N, knob-press, knob-long-press, cancel, print, key NAME, "
        + "wait SECONDS, quit"

    /// The commands in order.
    public var commands: [Command]

    /// Parses a script's text; throws the first bad line ("script: line 2: 'presss': unknown command …").
    public init(parsing text: String) throws(ParseError) {
        commands = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            guard let verb = words.first else { continue }
            func fail(_ message: String) -> ParseError {
                ParseError(
                    file: "script", line: index + 1, text: String(raw), message: "\(message); \(Self.commandList)")
            }
            let arguments = words.dropFirst()
            switch verb {
            case "press", "long-press", "knob-press", "knob-long-press", "cancel", "print", "quit":
                guard arguments.isEmpty else { throw fail("'\(verb)' takes no argument") }
                let map: [String: Command] = [
                    "press": .press, "long-press": .longPress, "knob-press": .knobPress,
                    "knob-long-press": .knobLongPress, "cancel": .cancel, "print": .print, "quit": .quit,
                ]
                commands.append(map[verb]!)
            case "knob":
                guard arguments.count == 1, let first = arguments.first, first.hasPrefix("+") || first.hasPrefix("-"),
                    let steps = Int(first.dropFirst()), steps > 0, steps <= 1000
                else { throw fail("expected knob +N or knob -N with N from 1 to 1000") }
                commands.append(.knob(first.hasPrefix("-") ? -steps : steps))
            case "key":
                guard arguments.count == 1, let key = KeyCode(name: arguments.first!) else {
                    throw fail("expected key NAME, NAME a key the kernel names (e.g. KEY_VOLUMEUP)")
                }
                commands.append(.key(key))
            case "wait":
                guard arguments.count == 1, let seconds = Double(arguments.first!), seconds >= 0, seconds <= 86_400
                else {
                    throw fail("expected wait SECONDS with SECONDS from 0 to 86400")
                }
                commands.append(.wait(.seconds(toTheNanosecond: seconds)))
            default:
                throw fail("unknown command '\(verb)'")
            }
        }
    }
}
