// GPIOHardware: the booth's buttons, knob and lights on GPIO lines through libgpiod.
import BoothCore
import BoothTime
import GPIOInput
import LEDCountdown

/// The booth's buttons, knob and lights on GPIO lines through libgpiod. Every line is requested on
/// its own, so a line another program holds disables only itself (with a message naming chip, line,
/// errno and fix) and the booth keeps running what it can. Edges carry kernel timestamps into the
/// same debouncer and encoder decoder the tests check; every descriptor is in the event loop, whose clock
/// is then the kernel's, so edges, level reads and timers share one time line.
package final class GPIOHardware: InputDevice, LightsDevice {
    package let name: String
    package let ledCount: Int
    /// One message per line that could not be requested.
    package private(set) var problems: [String] = []

    private let settings: BoothSettings.GPIO
    private let chip: ChipSelector
    private let loop: EventLoop
    private let report: DeviceReport

    private var button: Input?
    private var knobSwitch: Input?
    private var cancel: Input?
    private var print: Input?
    private var knobA: GPIOLine?
    private var knobB: GPIOLine?
    private var knob: KnobEdgeMerger
    private var knobFlush: EventLoop.TimerToken?
    private var rowLines: [GPIOLine?] = []
    private var buttonLEDLine: GPIOLine?
    private var flashLine: GPIOLine?
    private var hapticLine: GPIOLine?
    private var rowShown: UInt8 = 0

    /// A debounced push button on one line.
    private final class Input {
        let line: GPIOLine
        var tracker: ButtonTracker
        var deadline: EventLoop.TimerToken?
        init(line: GPIOLine, tracker: ButtonTracker) {
            self.line = line
            self.tracker = tracker
        }
    }

    /// Requests every configured line and watches the inputs on `context`'s loop; lines that fail are listed in
    /// `problems` and reported as the `gpioUnavailable` warning (`buttonUnavailable` too without the big button).
    package init(settings: BoothSettings.GPIO, context: DeviceContext) throws {
        precondition(
            !context.loop.clock.isVirtual,
            "GPIO edges carry the kernel's time: a virtual loop clock cannot judge them")
        loop = context.loop
        report = context.report
        self.settings = settings
        chip = ChipSelector(configValue: settings.chip)
        name = "gpio:\(settings.chip)"
        ledCount = settings.leds.count
        let mode: RotaryDecoder.Mode = settings.encoder == .halfStep ? .halfStep : .fullStep
        knob = KnobEdgeMerger(mode: mode, a: false, b: false)
        defer {
            if !problems.isEmpty { context.reportNow(.deviceWarning(.gpioUnavailable, active: true)) }
            if button == nil { context.reportNow(.deviceWarning(.buttonUnavailable, active: true)) }
        }
        do {
            _ = try GPIOInventory.lines(of: chip)
        } catch {
            // No chip: one message, not one per line.
            problems.append("\(error)")
            return
        }
        button = requestButton("button", settings.button)
        knobSwitch = requestButton("knob switch", settings.knobSwitch)
        cancel = settings.cancel.flatMap { requestButton("cancel", $0) }
        print = settings.print.flatMap { requestButton("print", $0) }
        knobA = requestInput("knob A", settings.knobA, activeLow: false)
        knobB = requestInput("knob B", settings.knobB, activeLow: false)
        if let a = try? knobA?.level(), let b = try? knobB?.level() {
            knob = KnobEdgeMerger(mode: mode, a: a, b: b)
        }
        rowLines = settings.leds.enumerated().map { requestOutput("LED \($0.offset + 1)", $0.element) }
        buttonLEDLine = requestOutput("button LED", settings.buttonLED)
        flashLine = settings.flash.flatMap { requestOutput("flash", $0) }
        hapticLine = settings.haptic.flatMap { requestOutput("haptic", $0) }
        for (input, role) in [(button, Role.button), (knobSwitch, .knobSwitch), (cancel, .cancel), (print, .print)] {
            guard let input else { continue }
            guard let fd = input.line.fileDescriptor else { continue }
            try loop.register(readable: fd) { [unowned self] in self.readButton(input, role) }
        }
        for fd in [knobA, knobB].compactMap({ $0?.fileDescriptor }) {
            try loop.register(readable: fd) { [unowned self] in self.readKnob() }
        }
    }

    /// Whether the big button could be requested (without it the booth cannot be used).
    package var hasButton: Bool { button != nil }

    // MARK: Inputs

    private enum Role { case button, knobSwitch, cancel, print }

    private func readButton(_ input: Input, _ role: Role) {
        takeEdges(input, role)
        rearm(input, role)
    }

    /// Feeds the tracker every edge the kernel holds for `input`, then the line's level (a bounce that
    /// overflowed the kernel's edge buffer lost edges: see ButtonTracker).
    private func takeEdges(_ input: Input, _ role: Role) {
        let edges: [GPIOEdge]
        do {
            edges = try input.line.readEdges()
        } catch {
            Log.error("\(error)")
            return
        }
        for edge in edges {
            emit(input.tracker.edge(level: edge.level, at: edge.time), role)
        }
        if !edges.isEmpty, let level = try? input.line.level() {
            emit(input.tracker.levelRead(level, at: loop.now()), role)
        }
    }

    private func rearm(_ input: Input, _ role: Role) {
        if let token = input.deadline { loop.cancel(token) }
        input.deadline = nil
        guard let deadline = input.tracker.nextDeadline else { return }
        input.deadline = loop.schedule(at: deadline) { [unowned self] in
            input.deadline = nil
            // Edges waiting in the kernel happened before this deadline is judged (a busy loop can run
            // the timer before the descriptor's callback): they count first, in their own time order.
            // Then the line's level now: edges a busy kernel has not queued yet are in it.
            self.takeEdges(input, role)
            let now = max(loop.now(), deadline)
            if let level = try? input.line.level() {
                self.emit(input.tracker.levelRead(level, at: loop.now()), role)
            }
            self.emit(input.tracker.advance(to: now), role)
            self.rearm(input, role)
        }
    }

    private func emit(_ signals: [ButtonSignal], _ role: Role) {
        for signal in signals {
            switch (role, signal) {
            case (.button, .pressed(let t)): report(.buttonPressed, t)
            case (.button, .released(let t, _)): report(.buttonReleased, t)
            case (.button, .longPressed(let t)): report(.buttonLongPressed, t)
            case (.knobSwitch, .released(let t, let held)) where held < settings.longPress:
                report(.knobPressed, t)
            case (.knobSwitch, .longPressed(let t)): report(.knobLongPressed, t)
            case (.cancel, .pressed(let t)): report(.cancelPressed, t)
            case (.print, .pressed(let t)): report(.printPressed, t)
            default: break
            }
        }
    }

    private func readKnob() {
        // Two lines, two descriptors: KnobEdgeMerger puts their edges in kernel time order.
        let readingBegan = loop.now()
        var edges: [KnobEdgeMerger.Edge] = []
        for (line, role) in [(knobA, KnobEdgeMerger.Line.a), (knobB, .b)] {
            do {
                edges += try (line?.readEdges() ?? []).map {
                    KnobEdgeMerger.Edge(line: role, level: $0.level, time: $0.time)
                }
            } catch {
                Log.error("\(error)")
            }
        }
        for step in knob.read(edges, readBegan: readingBegan) {
            report(.knobTurned(steps: step.steps), step.time)
        }
        if knob.hasPending, knobFlush == nil {
            knobFlush = loop.schedule(at: loop.now().advanced(by: .milliseconds(2))) { [unowned self] in
                self.knobFlush = nil
                self.readKnob()
            }
        }
    }

    // MARK: Outputs

    package func showRow(_ frame: LEDFrame) {
        for (index, line) in rowLines.enumerated() where frame.isLit(index) != (rowShown & (1 << UInt8(index)) != 0) {
            set(line, frame.isLit(index))
        }
        rowShown = frame.bits
    }

    package func setButtonLED(_ on: Bool) { set(buttonLEDLine, on) }

    package func setFlash(_ on: Bool) { set(flashLine, on) }

    package func setHaptic(_ on: Bool) { set(hapticLine, on) }

    private func set(_ line: GPIOLine?, _ value: Bool) {
        guard let line else { return }
        do {
            try line.set(value)
        } catch {
            Log.error("\(error)")
        }
    }

    // MARK: Requests

    private func requestButton(_ role: String, _ line: BoothSettings.Line) -> Input? {
        guard let requested = requestInput(role, line, activeLow: true) else { return nil }
        let tracker = ButtonTracker(
            debounce: settings.debounce, longPress: settings.longPress)
        return Input(line: requested, tracker: tracker)
    }

    private func requestInput(_ role: String, _ line: BoothSettings.Line, activeLow: Bool) -> GPIOLine? {
        let spec = InputLineSpec(
            role: role, line: selector(line), bias: .pullUp, activeLow: activeLow,
            kernelDebounce: .zero)
        return request(role) { () throws(GPIOError) in try GPIOLine(chip: chip, input: spec) }
    }

    private func requestOutput(_ role: String, _ line: BoothSettings.Line) -> GPIOLine? {
        let spec = OutputLineSpec(role: role, line: selector(line), activeLow: false)
        return request(role) { () throws(GPIOError) in try GPIOLine(chip: chip, output: spec) }
    }

    private func request(_ role: String, _ body: () throws(GPIOError) -> GPIOLine) -> GPIOLine? {
        do {
            return try body()
        } catch {
            problems.append("\(role): \(error)")
            return nil
        }
    }

    private func selector(_ line: BoothSettings.Line) -> LineSelector {
        switch line {
        case .offset(let n): .offset(n)
        case .name(let s): .name(s)
        }
    }
}
