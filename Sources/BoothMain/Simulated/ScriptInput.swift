// ScriptInput: plays a `SimulationScript` as button and knob input, timed by the loop.
import BoothCore

/// Plays a `SimulationScript` as button and knob input, timed by the loop: waits are absolute
/// deadlines chained from the script's start, so a script's timing does not drift.
final class ScriptInput: InputDevice {
    let name = "script"
    private let script: SimulationScript
    private let longPress: Int64
    private var loop: EventLoop?
    private var report: DeviceReport?
    private var index = 0

    init(script: SimulationScript, longPress: Int64) {
        self.script = script
        self.longPress = longPress
    }

    func attach(to loop: EventLoop, report: @escaping DeviceReport) throws {
        self.loop = loop
        self.report = report
        let start = loop.now()
        loop.schedule(at: start) { [unowned self] in self.run(from: start) }
    }

    /// Runs commands from `index` until a wait (which schedules the rest) or the end.
    private func run(from time: Instant) {
        guard let loop, let report else { return }
        while index < script.commands.count {
            let command = script.commands[index]
            index += 1
            let now = max(time, loop.now())
            switch command {
            case .press:
                report(.buttonPressed, now)
                at(now.advanced(by: .milliseconds(80))) { report(.buttonReleased, $0) }
            case .longPress:
                report(.buttonPressed, now)
                at(now.advanced(by: longPress)) { report(.buttonLongPressed, $0) }
                at(now.advanced(by: longPress + .milliseconds(100))) { report(.buttonReleased, $0) }
            case .knob(let steps):
                for i in 0..<abs(steps) {
                    at(now.advanced(by: Int64(i) * .milliseconds(20))) {
                        report(.knobTurned(steps: steps > 0 ? 1 : -1), $0)
                    }
                }
            case .knobPress:
                report(.knobPressed, now)
            case .knobLongPress:
                at(now.advanced(by: longPress)) { report(.knobLongPressed, $0) }
            case .cancel:
                report(.cancelPressed, now)
            case .wait(let duration):
                let deadline = time.advanced(by: duration)
                loop.schedule(at: deadline) { [unowned self] in self.run(from: deadline) }
                return
            case .quit:
                report(.shutdownRequested(.finishSequence), now)
                return
            }
        }
        // The end of a script without `quit` quits the same way.
        report(.shutdownRequested(.finishSequence), max(time, loop.now()))
    }

    private func at(_ deadline: Instant, _ body: @escaping (Instant) -> Void) {
        guard let loop else { return }
        if deadline <= loop.now() {
            body(deadline)
        } else {
            loop.schedule(at: deadline) { body(deadline) }
        }
    }
}
