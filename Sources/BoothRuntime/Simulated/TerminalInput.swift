// TerminalInput: the interactive simulator.
import BoothCore
import BoothSystem
import BoothTime
import LEDCountdown

/// The interactive simulator: keys on a terminal become button and knob input, and one status line
/// shows the LEDs, the button's LED, the state, the sound and the delay.
///
/// Keys: space = press, l = long press, ←/→ or a/d = knob, k = knob press, K = knob long press,
/// c = cancel, p = print, q = quit.
package final class TerminalInput: InputDevice {
    package let name = "terminal"
    private let longPress: Duration
    private let lights: SimulatedLights
    private var saved = Terminal.Settings()
    private let loop: EventLoop
    private let report: DeviceReport
    private var pending: [UInt8] = []
    /// The status fields the view draws.
    var state = "idle"
    var sound = ""
    var delay = ""
    var volume = "100"
    var visual = true
    var lastPhoto = ""
    var message = ""

    /// Puts the terminal in raw mode and reads its keys on `context`'s loop; `restore()` puts it back.
    package init(_ context: DeviceContext, longPress: Duration, lights: SimulatedLights) throws {
        self.longPress = longPress
        self.lights = lights
        loop = context.loop
        report = context.report
        saved = Terminal.settings(of: .input)
        Terminal.readKeys(.input, from: saved)
        StandardStream.input.makeNonBlocking()
        try loop.register(readable: StandardStream.input.fileDescriptor) { [unowned self] in self.readKeys() }
        lights.onChange = { [unowned self] in self.draw() }
        Log.statusLine = ({ [unowned self] in self.clear() }, { [unowned self] in self.draw() })
        print(
            "HeyLook Booth simulator — space: press  l: long press  ←/→ a/d: knob  k: knob press  K: knob long press  c: cancel  p: print  q: quit"
        )
        draw()
    }

    package static var isTerminal: Bool { StandardStream.input.isTerminal }

    /// Puts the terminal back.
    package func restore() {
        Log.statusLine = nil
        Terminal.restore(.input, to: saved)
        print("")
    }

    private func readKeys() {
        let keys = StandardStream.input.read(upTo: 64)
        guard !keys.isEmpty else { return }
        let report = self.report
        pending += keys
        let now = loop.now()
        while !pending.isEmpty {
            let key = pending.removeFirst()
            switch key {
            case UInt8(ascii: " "):
                report(.buttonPressed, now)
                loop.schedule(at: now.advanced(by: .milliseconds(80))) {
                    report(.buttonReleased, now.advanced(by: .milliseconds(80)))
                }
            case UInt8(ascii: "l"):
                report(.buttonPressed, now)
                let held = now.advanced(by: longPress)
                loop.schedule(at: held) { report(.buttonLongPressed, held) }
                loop.schedule(at: held.advanced(by: .milliseconds(100))) {
                    report(.buttonReleased, held.advanced(by: .milliseconds(100)))
                }
            case UInt8(ascii: "a"): report(.knobTurned(steps: -1), now)
            case UInt8(ascii: "d"): report(.knobTurned(steps: 1), now)
            case UInt8(ascii: "k"): report(.knobPressed, now)
            case UInt8(ascii: "K"): report(.knobLongPressed, now)
            case UInt8(ascii: "c"): report(.cancelPressed, now)
            case UInt8(ascii: "p"): report(.printPressed, now)
            case UInt8(ascii: "q"): report(.shutdownRequested(.finishSequence), now)
            case 0x1B:
                // Arrow keys: ESC [ C (right) / ESC [ D (left).
                guard pending.count >= 2, pending[0] == UInt8(ascii: "[") else { continue }
                let code = pending[1]
                pending.removeFirst(2)
                if code == UInt8(ascii: "C") { report(.knobTurned(steps: 1), now) }
                if code == UInt8(ascii: "D") { report(.knobTurned(steps: -1), now) }
            default:
                break
            }
        }
    }

    /// Redraws the status line.
    func draw() {
        let button = lights.buttonLED ? "(●) ready" : "( ) busy "
        let flash = lights.flash ? " ⚡" : ""
        let visualText = visual ? "on" : "off"
        var line = " LEDs \(lights.row.rendered(count: lights.ledCount))  button \(button)\(flash)  "
        line += "state \(state)  sound \(sound)  delay \(delay)s  volume \(volume)%  countdown \(visualText)"
        if !lastPhoto.isEmpty { line += "  photo \(lastPhoto)" }
        if !message.isEmpty { line += "  \(message)" }
        let columns = Terminal.columns(of: .output) ?? 80
        StandardStream.output.write("\r\u{1B}[2K" + Self.fitted(line, columns: columns))
    }

    /// `line` cut to fit `columns` with a "…" at its end, never wrapped: a wrapped status line would scroll a new line
    /// with every redraw. The last column stays free (some terminals wrap on writing it).
    static func fitted(_ line: String, columns: Int) -> String {
        let room = max(columns - 1, 1)
        guard line.count > room else { return line }
        return String(line.prefix(room - 1)) + "…"
    }

    /// Clears the status line (before a log line on standard error takes its place).
    func clear() {
        StandardStream.output.write("\r\u{1B}[2K")
    }

    /// Follows the events log to keep the status fields current.
    package func observe(_ type: String, _ fields: [(String, EventsLog.Value)]) {
        func string(_ key: String) -> String? {
            for (k, v) in fields where k == key {
                if case .string(let s) = v { return s }
                if case .bool(let b) = v { return String(b) }
                if case .int(let i) = v { return String(i) }
            }
            return nil
        }
        switch type {
        case "state": state = string("to") ?? state
        case "setting":
            switch string("name") {
            case "sound": sound = string("value") ?? sound
            case "delay": delay = string("value") ?? delay
            case "volume": volume = string("value") ?? volume
            case "visualCountdown": visual = string("value") == "true"
            default: break
            }
        case "ready":
            sound = string("sound") ?? ""
            delay = string("delay") ?? ""
            volume = string("volume") ?? ""
            visual = string("visualCountdown") == "true"
        case "photoSaved": lastPhoto = FilePath(string("path") ?? "").name
        case "photoDiscarded": lastPhoto = "(discarded)"
        case "error": message = string("message") ?? ""
        default: return
        }
        draw()
    }
}
