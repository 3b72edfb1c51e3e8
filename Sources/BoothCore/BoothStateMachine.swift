// BoothStateMachine: the booth's whole behaviour as a value.
import BoothTime
import LEDCountdown

/// The booth's whole behaviour as a value: events in, actions out, no I/O and no clock.
///
/// The transition graph (its handlers live in the BoothStateMachine+*.swift extensions beside this file):
///
///     idle ──press──▶ playingSound ──soundFinished / soundTimedOut──▶ countingDown ──countdownEnded──▶ capturing
///       ▲                                                                                 │
///       │                                                               captureCompleted (×burst)
///       │                                                                                 ▼
///       └──────── photoSaved (all shots; review window opens) ◀──────────────────── processing
///
///     playingSound, countingDown, capturing ──failure / timeout / cancel / signal──▶ aborted
///     idle ──press with no camera, or with the store still full once measured again (photo refused)──▶ aborted
///     processing ──a shot's save failed (once every shot is done)──▶ aborted
///     aborted ──abortEnded──▶ idle
///
/// While not idle, presses and knob input change nothing. In idle the knob selects the sound (with a
/// preview), a knob press switches it to choosing the delay (shown on the LEDs), a second to choosing
/// the volume (the sound played at each new level, the level shown), a third switches back and reads
/// out the other choices without changing them (the sound played, its place among the favourites and
/// the visual countdown's state on the LEDs), a long knob press toggles the visual
/// countdown. A press within the review window starts the next sequence at once; holding that press
/// for the long-press time discards the photo being reviewed (a retake).
///
/// Free space is measured at start, at every press, after every save and export, and every
/// `storageRecheck` while the store is full; a press while full waits for a fresh measurement, so
/// space freed since (by hand, or by `cleanup_exported` after an export) lets it through at once.
public struct BoothStateMachine: Sendable {
    /// One press of the big button and everything it causes.
    struct PhotoSequence: Hashable, Sendable {
        var id: UInt64
        /// Photos of the previous sequence still in their review window: a long press discards them.
        var reviewed: [String]
        /// Whether the press that started this sequence is still held.
        var buttonHeld: Bool
        /// Shots whose frames arrived.
        var captured: Int = 0
        /// Shots saved, with their paths.
        var saved: [String] = []
        /// Shots whose save failed.
        var failedSaves: Int = 0
        /// The scene's light level as the countdown started (flash auto), nil if the camera reports none.
        var lux: Double?
        /// Whether the flash was switched on for this sequence's exposures.
        var flashOn = false
    }

    /// What only means something while the booth is idle; it goes when a sequence starts.
    struct Idle: Hashable, Sendable {
        /// The last sequence's photos, until the review window closes.
        var reviewed: [String] = []
        /// Which setting the knob changes.
        var knobMode: KnobMode = .sound
        /// The LEDs show an acknowledgement or a readout (until `acknowledgeEnded`).
        var acknowledging = false
        /// A press came while the store was full; it starts a sequence if the measurement it asked for
        /// finds room.
        var pressAwaitingRoom = false
    }

    enum State: Hashable, Sendable {
        /// Ready.
        case idle(Idle)
        case playingSound(PhotoSequence)
        case countingDown(PhotoSequence)
        case capturing(PhotoSequence)
        case processing(PhotoSequence)
        case aborted

        /// Whether this state carries a sequence.
        var holdsSequence: Bool {
            switch self {
            case .playingSound, .countingDown, .capturing, .processing: true
            case .idle, .aborted: false
            }
        }
    }

    /// Which setting the knob changes.
    public enum KnobMode: String, Hashable, Sendable {
        /// Turning selects the attention sound.
        case sound
        /// Turning changes the countdown delay.
        case delay
        /// Turning changes the booth's volume.
        case volume
    }

    public internal(set) var configuration: Configuration
    /// The knob's current choices (persisted through `persistChoices`).
    public internal(set) var choices: RuntimeChoices
    /// Which setting the knob changes now (sound whenever the booth is not idle).
    public var knobMode: KnobMode { idle?.knobMode ?? .sound }
    var state: State = .idle(Idle())
    var lastSequenceID: UInt64 = 0
    var shutdown: ShutdownKind?
    var hasRoom = true
    var warnings: Set<DeviceWarning> = []
    private var buttonLED: Bool?
    var export: ExportStatus = .none
    /// The photos kept last (no retake can discard them): what the print button prints.
    var lastKept: [String] = []

    /// What the LEDs say about a USB stick while idle.
    enum ExportStatus: Hashable, Sendable {
        case none
        case copying(done: Int, total: Int)
        case safeToRemove
        case failed
        /// Not one of the owner's sticks: nothing copied until the knob's switch is held.
        case unknownStick
    }

    /// A machine in idle with the given choices; a sound that is not a favourite becomes the first one.
    public init(configuration: Configuration, choices: RuntimeChoices) {
        self.configuration = configuration
        var choices = choices
        if !configuration.favourites.contains(choices.sound) {
            choices.sound = configuration.favourites[0]
        }
        self.choices = choices
    }

    /// The phase the booth is in.
    public var phase: BoothPhase {
        switch state {
        case .idle: .idle
        case .playingSound: .playingSound
        case .countingDown: .countingDown
        case .capturing: .capturing
        case .processing: .processing
        case .aborted: .aborted
        }
    }

    /// Whether a press of the big button would start a sequence now (the button LED shows this).
    public var acceptsPress: Bool {
        if case .idle = state {
            return shutdown == nil && hasRoom && warnings.isDisjoint(with: [.cameraUnavailable, .buttonUnavailable])
        }
        return false
    }

    /// The actions that put the devices in the idle state at start.
    public mutating func start(at now: Instant) -> [BoothAction] {
        var actions: [BoothAction] = [
            .showLEDs(idlePattern, since: now), .setVolume(percent: choices.volumePercent), .setCameraIdle(true),
            .checkStorage,
        ]
        updateButtonLED(&actions)
        return actions
    }

    /// Feeds one event; returns what the loop must do, in order.
    public mutating func handle(_ event: BoothEvent, at now: Instant) -> [BoothAction] {
        var actions: [BoothAction] = []
        switch event {
        case .buttonPressed: buttonPressed(at: now, &actions)
        case .buttonReleased: buttonReleased(&actions)
        case .buttonLongPressed: buttonLongPressed(&actions)
        case .knobTurned(let steps): knobTurned(steps, at: now, &actions)
        case .knobPressed: knobPressed(at: now, &actions)
        case .knobLongPressed: knobLongPressed(at: now, &actions)
        case .cancelPressed: abortSequence("cancelled with the cancel button", at: now, &actions)
        case .printPressed: printPressed(&actions)
        case .printRefused:
            // Shown only over the idle pattern: never over a countdown, a photo being taken, or the knob's display.
            guard case .idle = state, shutdown == nil, knobMode == .sound else { break }
            showAcknowledgement(.acknowledge(count: 4), at: now, &actions)
        case .soundFinished(let purpose): soundFinished(purpose, at: now, &actions)
        case .soundFailed(let purpose, let fault): soundFailed(purpose, fault, at: now, &actions)
        case .timerFired(let timer): timerFired(timer, at: now, &actions)
        case .captureCompleted(let id): captureCompleted(id, at: now, &actions)
        case .captureFailed(let id, let fault): captureFailed(id, fault, at: now, &actions)
        case .photoSaved(let id, let path): photoSaved(id, path: path, at: now, &actions)
        case .photoSaveFailed(let id, let fault): photoSaveFailed(id, fault, at: now, &actions)
        case .storageChecked(let room): storageChecked(room, at: now, &actions)
        case .lightMeasured(let lux): lightMeasured(lux, at: now, &actions)
        case .soundsAdded(let durations): soundsAdded(durations, &actions)
        case .healthMeasured(let reading):
            deviceWarning(.overheating, reading.overheating(limit: configuration.hotLimit), at: now, &actions)
            deviceWarning(.underVoltage, reading.underVoltage, at: now, &actions)
        case .deviceWarning(let warning, let active): deviceWarning(warning, active, at: now, &actions)
        case .exportProgressed(let done, let total):
            exportChanged(.copying(done: done, total: total), at: now, &actions)
        case .exportFinished(let safe):
            exportChanged(safe ? .safeToRemove : .failed, at: now, &actions)
            actions.append(.checkStorage)
        case .exportFailed(let fault):
            actions.append(.reportError("export: \(fault)"))
            exportChanged(.failed, at: now, &actions)
            actions.append(.checkStorage)
        case .stickUnknown: exportChanged(.unknownStick, at: now, &actions)
        case .stickRemoved: exportChanged(.none, at: now, &actions)
        case .hotspotStarted:
            // Shown only while the booth waits for a press with the idle pattern up: never over a countdown, a
            // photo being taken or saved, or the knob's display.
            guard case .idle = state, shutdown == nil, knobMode == .sound else { break }
            showAcknowledgement(.hotspotOn, at: now, &actions)
        case .shutdownRequested(let kind): shutdownRequested(kind, at: now, &actions)
        }
        updateButtonLED(&actions)
        return actions
    }

    private mutating func updateButtonLED(_ actions: inout [BoothAction]) {
        let lit = acceptsPress
        guard lit != buttonLED else { return }
        buttonLED = lit
        actions.append(.setButtonLED(lit))
    }
}
