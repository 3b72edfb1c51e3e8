// MachineHarness: a state machine driven on a virtual clock, its timers fired as the loop would.
import BoothTime
import LEDCountdown

@testable import BoothCore

/// Drives a `BoothStateMachine` on a virtual clock: keeps the timers its actions start and fires
/// them when time is advanced, like the event loop does, so a whole sequence plays in microseconds.
struct MachineHarness {
    var machine: BoothStateMachine
    var now = Instant(nanoseconds: 1_000_000_000)
    var timers: [BoothTimer: Instant] = [:]
    /// Every action so far, in order.
    var log: [BoothAction] = []

    init(configuration: BoothStateMachine.Configuration = .init(), choices: RuntimeChoices? = nil) {
        machine = BoothStateMachine(
            configuration: configuration,
            choices: choices ?? RuntimeChoices(sound: "Duck", delayHalfSeconds: 2, visualCountdown: true))
        record(machine.start(at: now))
    }

    var phase: BoothPhase { machine.phase }

    /// Sends an event now; returns its actions.
    @discardableResult
    mutating func send(_ event: BoothEvent) -> [BoothAction] {
        let actions = machine.handle(event, at: now)
        record(actions)
        return actions
    }

    /// Moves the clock forward, firing due timers in deadline order; returns the actions they caused.
    @discardableResult
    mutating func advance(by duration: Duration) -> [BoothAction] {
        let end = now.advanced(by: duration)
        var actions: [BoothAction] = []
        while let (timer, deadline) = timers.filter({ $0.value <= end }).min(by: { $0.value < $1.value }) {
            timers[timer] = nil
            now = deadline
            actions += send(.timerFired(timer))
        }
        now = end
        return actions
    }

    private mutating func record(_ actions: [BoothAction]) {
        log += actions
        for action in actions {
            switch action {
            case .startTimer(let timer, let deadline): timers[timer] = deadline
            case .cancelTimer(let timer): timers[timer] = nil
            default: break
            }
        }
    }

    /// Plays a press through to the capture request: press, sound finished, countdown.
    mutating func pressAndCountDown() {
        send(.buttonPressed)
        send(.buttonReleased)
        send(.soundFinished(.attention))
        advance(by: LEDPattern.halfSecond * machine.choices.delayHalfSeconds)
    }

    /// Carries the running sequence on from its attention sound to idle: the sound ends, the countdown passes, the
    /// frame comes and is saved at `path`.
    mutating func finishSequence(path: String) {
        send(.soundFinished(.attention))
        advance(by: LEDPattern.halfSecond * machine.choices.delayHalfSeconds)
        let id = lastCapture!
        send(.captureCompleted(id))
        send(.photoSaved(id, path: path))
    }

    /// Plays a whole sequence to idle; returns the saved path.
    @discardableResult
    mutating func takePhoto(path: String = "/p/1.jpg") -> CaptureID {
        pressAndCountDown()
        let id = lastCapture!
        send(.captureCompleted(id))
        send(.photoSaved(id, path: path))
        return id
    }

    /// The most recent capture requested.
    var lastCapture: CaptureID? {
        for action in log.reversed() { if case .capturePhoto(let id, _) = action { return id } }
        return nil
    }

    /// How many captures were requested so far.
    var captureCount: Int { log.filter { if case .capturePhoto = $0 { true } else { false } }.count }

    /// The phases entered so far.
    var phases: [BoothPhase] { log.compactMap { if case .enterPhase(let p, _) = $0 { p } else { nil } } }

    /// The last LED pattern shown.
    var lastPattern: LEDPattern? {
        for action in log.reversed() { if case .showLEDs(let p, _) = action { return p } }
        return nil
    }

    /// The last button LED state set.
    var buttonLED: Bool? {
        for action in log.reversed() { if case .setButtonLED(let on) = action { return on } }
        return nil
    }
}
