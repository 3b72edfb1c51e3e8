// ScriptInput: plays a `SimulationScript` as button and knob input, timed by the loop.
import BoothCore
import BoothTime

/// Plays a `SimulationScript` as button and knob input, timed by the loop. Commands run one after
/// another: each takes its time (a press 80 ms, a long press the long-press time plus 100 ms, a knob
/// turn 20 ms a detent, a knob hold the long-press time) before the next begins, and waits are absolute
/// deadlines chained from the script's start, so a script's timing does not drift.
package final class ScriptInput: InputDevice {
    package let name = "script"
    private let script: SimulationScript
    private let longPress: Duration
    private let loop: EventLoop
    private let report: DeviceReport
    private let reportFrom: (BoothEvent, Instant, String) -> Void
    private let remoteKeys: [KeyCode: RemoteKeyRole]
    private var index = 0
    /// How long a scripted press is held.
    static let pressLength: Duration = .milliseconds(80)
    /// The time between two scripted detents.
    static let detentInterval: Duration = .milliseconds(20)

    /// Plays `script` on `context`'s loop from the loop's first turn; its `key` lines do what `remoteKeys` says.
    package init(
        _ context: DeviceContext, script: SimulationScript, longPress: Duration,
        remoteKeys: [KeyCode: RemoteKeyRole] = [:]
    ) {
        self.script = script
        self.longPress = longPress
        self.remoteKeys = remoteKeys
        loop = context.loop
        report = context.report
        reportFrom = context.reportFrom
        let start = loop.now()
        loop.schedule(at: start) { [unowned self] in self.run(from: start) }
    }

    /// Runs commands from `index` until one that takes time (which schedules the rest) or the end.
    private func run(from start: Instant) {
        let report = self.report
        var time = start
        while index < script.commands.count {
            let command = script.commands[index]
            index += 1
            let now = max(time, loop.now())
            let next: Instant
            switch command {
            case .press:
                report(.buttonPressed, now)
                next = now.advanced(by: Self.pressLength)
                at(next) { report(.buttonReleased, $0) }
            case .longPress:
                report(.buttonPressed, now)
                at(now.advanced(by: longPress)) { report(.buttonLongPressed, $0) }
                next = now.advanced(by: longPress + .milliseconds(100))
                at(next) { report(.buttonReleased, $0) }
            case .knob(let steps):
                for i in 0..<abs(steps) {
                    at(now.advanced(by: Self.detentInterval * i)) {
                        report(.knobTurned(steps: steps > 0 ? 1 : -1), $0)
                    }
                }
                next = now.advanced(by: Self.detentInterval * abs(steps))
            case .knobPress:
                report(.knobPressed, now)
                next = now
            case .knobLongPress:
                next = now.advanced(by: longPress)
                at(next) { report(.knobLongPressed, $0) }
            case .cancel:
                report(.cancelPressed, now)
                next = now
            case .print:
                report(.printPressed, now)
                next = now
            case .key(let key):
                // A key no role lists does nothing, as on a real remote.
                let role = remoteKeys[key]
                let reportFrom = self.reportFrom
                for event in role?.events(.down) ?? [] { reportFrom(event, now, "script remote") }
                next = now.advanced(by: Self.pressLength)
                at(next) { time in
                    for event in role?.events(.up) ?? [] { reportFrom(event, time, "script remote") }
                }
            case .wait(let duration):
                next = time.advanced(by: duration)
            case .quit:
                report(.shutdownRequested(.finishSequence), now)
                return
            }
            // What this command scheduled (a release, the last detent) comes first: the loop runs
            // timers of one deadline in the order they were set.
            if next > loop.now() {
                loop.schedule(at: next) { [unowned self] in self.run(from: next) }
                return
            }
            time = next
        }
        // The end of a script without `quit` quits the same way.
        report(.shutdownRequested(.finishSequence), max(time, loop.now()))
    }

    private func at(_ deadline: Instant, _ body: @escaping (Instant) -> Void) {
        if deadline <= loop.now() {
            body(deadline)
        } else {
            loop.schedule(at: deadline) { body(deadline) }
        }
    }
}
