// BoothStateMachine: the booth's whole behaviour as a value.
import BoothTime
import LEDCountdown

/// The booth's whole behaviour as a value: events in, actions out, no I/O and no clock.
///
/// The transition graph, all in this file:
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
    /// What the machine needs from the settings.
    public struct Configuration: Hashable, Sendable {
        /// The sounds the knob cycles through, in order: the configured favourites (1...5), then the
        /// custom sounds in the sounds folder, then sounds imported from a stick since the start.
        public var favourites: [String]
        /// How long after a photo a long press still discards it.
        public var reviewWindow: Int64
        /// How long the camera may take to deliver a frame.
        public var captureTimeout: Int64
        /// How long the error pattern shows after an abort.
        public var abortPatternDuration: Int64
        /// How long the knob stays in delay or volume mode without a touch.
        public var delayModeTimeout: Int64
        /// Photos per sequence (1...10).
        public var burstCount: Int
        /// When the flash / fill light is switched on around the exposure.
        public var flash: BoothSettings.FlashMode
        /// With `flash` auto: the light level (lux, measured as the countdown starts) below which the
        /// flash is used. A camera that reports no light level gets the flash.
        public var flashAutoLux: Double
        /// Each sound's length. Every state that waits on a device has a deadline: an attention sound
        /// whose end has not come by its length plus `soundMargin` counts as played.
        public var soundDurations: [String: Int64]
        /// How long past its length a sound may take to report its end (a busy loop, a slow device).
        public var soundMargin: Int64
        /// How often free space is measured again while the store is full.
        public var storageRecheck: Int64
        /// The SoC temperature (millidegrees Celsius) from which the booth warns that it is too hot.
        public var hotLimit: Int64
        /// How long the photographer's haptic cue pulses as the countdown starts.
        public var hapticPulse: Int64
        /// The LEDs in the row (`gpio.leds`): a readout of a place past two rows lasts longer on fewer.
        public var ledCount: Int
        /// When photos are printed. `each`: each photo kept, when its review window closes, or when the press that
        /// started the next sequence is let go before it became a long press (a retake prints nothing). With
        /// printing on, the print button prints the last photos kept (again).
        public var printMode: PrintMode

        /// A configuration with the booth's defaults for everything not given.
        public init(
            favourites: [String] = BoothSettings.defaultFavourites,
            reviewWindow: Int64 = .seconds(5),
            captureTimeout: Int64 = .seconds(5),
            abortPatternDuration: Int64 = .seconds(2),
            delayModeTimeout: Int64 = .seconds(5),
            burstCount: Int = 1,
            flash: BoothSettings.FlashMode = .off,
            flashAutoLux: Double = 50,
            soundDurations: [String: Int64] = [:],
            soundMargin: Int64 = .seconds(2),
            storageRecheck: Int64 = .seconds(30),
            hotLimit: Int64 = 80_000,
            hapticPulse: Int64 = .milliseconds(150),
            ledCount: Int = 4,
            printMode: PrintMode = .off
        ) {
            precondition(!favourites.isEmpty, "at least one favourite sound")
            self.favourites = favourites
            self.reviewWindow = reviewWindow
            self.captureTimeout = captureTimeout
            self.abortPatternDuration = abortPatternDuration
            self.delayModeTimeout = delayModeTimeout
            self.burstCount = max(1, burstCount)
            self.flash = flash
            self.flashAutoLux = flashAutoLux
            self.soundDurations = soundDurations
            self.soundMargin = soundMargin
            self.storageRecheck = storageRecheck
            self.hotLimit = hotLimit
            self.hapticPulse = hapticPulse
            self.ledCount = ledCount
            self.printMode = printMode
        }

        /// How long `sound` may take to report its end: its length (the longest known for one whose
        /// length is not known) plus the margin.
        func soundDeadline(for sound: String) -> Int64 {
            (soundDurations[sound] ?? soundDurations.values.max() ?? 0) + soundMargin
        }
    }

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

    private enum State: Hashable, Sendable {
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

    public private(set) var configuration: Configuration
    /// The knob's current choices (persisted through `persistChoices`).
    public private(set) var choices: RuntimeChoices
    /// Which setting the knob changes now (sound whenever the booth is not idle).
    public var knobMode: KnobMode { idle?.knobMode ?? .sound }
    private var state: State = .idle(Idle())
    private var lastSequenceID: UInt64 = 0
    private var shutdown: ShutdownKind?
    private var hasRoom = true
    private var warnings: Set<DeviceWarning> = []
    private var buttonLED: Bool?
    private var export: ExportStatus = .none
    /// The photos kept last (no retake can discard them): what the print button prints.
    private var lastKept: [String] = []

    /// What the LEDs say about a USB stick while idle.
    private enum ExportStatus: Hashable, Sendable {
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
        case .soundFailed(let purpose, let reason): soundFailed(purpose, reason, at: now, &actions)
        case .timerFired(let timer): timerFired(timer, at: now, &actions)
        case .captureCompleted(let id): captureCompleted(id, at: now, &actions)
        case .captureFailed(let id, let reason): captureFailed(id, reason, at: now, &actions)
        case .photoSaved(let id, let path): photoSaved(id, path: path, at: now, &actions)
        case .photoSaveFailed(let id, let reason): photoSaveFailed(id, reason, at: now, &actions)
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
        case .exportFailed(let reason):
            actions.append(.reportError("export: \(reason)"))
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

    // MARK: - Big button

    private mutating func buttonPressed(at now: Instant, _ actions: inout [BoothAction]) {
        guard case .idle = state else {
            actions.append(.reportIgnored("button pressed while \(phase.rawValue)"))
            return
        }
        guard shutdown == nil else { return }
        guard hasRoom else {
            // Space may have been freed since the last measurement: measure, then decide (storageChecked).
            if idle?.pressAwaitingRoom == false {
                updateIdle { $0.pressAwaitingRoom = true }
                actions.append(.checkStorage)
            }
            return
        }
        startSequence(at: now, &actions)
    }

    private mutating func startSequence(at now: Instant, _ actions: inout [BoothAction]) {
        guard let reviewed = idle?.reviewed else { return }
        guard !warnings.contains(.cameraUnavailable) else {
            abort("no camera: photo refused", at: now, &actions)
            return
        }
        // The sound first: nothing the booth does stands between the press and its first sample. Then
        // the camera to full rate: the sound gives it at least half a second before the countdown.
        actions.append(.playSound(choices.sound, .attention))
        actions.append(.setCameraIdle(false))
        actions.append(.cancelTimer(.reviewEnded))
        leaveKnobMode(&actions)
        lastSequenceID += 1
        let sequence = PhotoSequence(id: lastSequenceID, reviewed: reviewed, buttonHeld: true)
        enter(.playingSound(sequence), at: now, &actions)
        actions.append(.showLEDs(.off, since: now))
        let deadline = configuration.soundDeadline(for: choices.sound)
        actions.append(.startTimer(.soundTimedOut, deadline: now.advanced(by: deadline)))
        // After the sound has started: whether the next sequence will have room.
        actions.append(.checkStorage)
    }

    private mutating func buttonReleased(_ actions: inout [BoothAction]) {
        // Let go before it became a long press: the previous photos are kept for good.
        var kept: [String] = []
        updateSequence { sequence in
            sequence.buttonHeld = false
            kept = sequence.reviewed
            sequence.reviewed = []
        }
        keep(kept, &actions)
    }

    private mutating func buttonLongPressed(_ actions: inout [BoothAction]) {
        updateSequence { sequence in
            guard sequence.buttonHeld, !sequence.reviewed.isEmpty else { return }
            for path in sequence.reviewed {
                actions.append(.discardPhoto(path: path))
            }
            sequence.reviewed = []
        }
    }

    // MARK: - Print button

    /// The print button, printing on: the last photos kept, printed (again). Photos still in their review window are
    /// kept by it (no retake discards a photo being printed), and printed once.
    private mutating func printPressed(_ actions: inout [BoothAction]) {
        guard configuration.printMode != .off else {
            actions.append(.reportIgnored("print button pressed with print.mode off"))
            return
        }
        guard case .idle = state, shutdown == nil else {
            actions.append(.reportIgnored("print button pressed while \(phase.rawValue)"))
            return
        }
        if let reviewed = idle?.reviewed, !reviewed.isEmpty {
            actions.append(.cancelTimer(.reviewEnded))
            updateIdle { $0.reviewed = [] }
            lastKept = reviewed
            actions.append(.printPhotos(reviewed))
            return
        }
        guard !lastKept.isEmpty else {
            actions.append(.reportIgnored("print button pressed before a photo was kept"))
            return
        }
        actions.append(.printPhotos(lastKept))
    }

    // MARK: - Knob

    private mutating func knobTurned(_ steps: Int, at now: Instant, _ actions: inout [BoothAction]) {
        guard case .idle = state, steps != 0, shutdown == nil else { return }
        switch knobMode {
        case .sound:
            let favourites = configuration.favourites
            let current = favourites.firstIndex(of: choices.sound) ?? 0
            let count = favourites.count
            choices.sound = favourites[((current + steps) % count + count) % count]
            actions.append(.playSound(choices.sound, .preview))
            actions.append(.reportSetting(name: "sound", value: choices.sound))
            // A readout of the sound chosen before would now lie.
            if idle?.acknowledging == true { showIdlePattern(at: now, &actions) }
        case .delay:
            let range = RuntimeChoices.delayRange
            let delay = min(max(choices.delayHalfSeconds + steps, range.lowerBound), range.upperBound)
            actions.append(.startTimer(.knobModeEnded, deadline: now.advanced(by: configuration.delayModeTimeout)))
            guard delay != choices.delayHalfSeconds else { return }
            choices.delayHalfSeconds = delay
            actions.append(.showLEDs(.delayDisplay(halfSeconds: delay), since: now))
            actions.append(.reportSetting(name: "delay", value: String(choices.delaySeconds)))
        case .volume:
            let range = RuntimeChoices.volumeRange
            let volume = min(
                max(choices.volumePercent + steps * RuntimeChoices.volumeStep, range.lowerBound), range.upperBound)
            actions.append(.startTimer(.knobModeEnded, deadline: now.advanced(by: configuration.delayModeTimeout)))
            guard volume != choices.volumePercent else { return }
            choices.volumePercent = volume
            actions.append(.setVolume(percent: volume))
            // Heard at once: the selected sound at the new volume.
            actions.append(.playSound(choices.sound, .preview))
            actions.append(.showLEDs(.volumeDisplay(percent: volume), since: now))
            actions.append(.reportSetting(name: "volume", value: String(volume)))
        }
        actions.append(.persistChoices(choices))
    }

    private mutating func knobPressed(at now: Instant, _ actions: inout [BoothAction]) {
        guard case .idle = state, shutdown == nil else { return }
        switch knobMode {
        case .sound:
            updateIdle {
                $0.knobMode = .delay
                $0.acknowledging = false
            }
            actions.append(.cancelTimer(.acknowledgeEnded))
            actions.append(.showLEDs(.delayDisplay(halfSeconds: choices.delayHalfSeconds), since: now))
            actions.append(.startTimer(.knobModeEnded, deadline: now.advanced(by: configuration.delayModeTimeout)))
            actions.append(.reportSetting(name: "knobMode", value: knobMode.rawValue))
        case .delay:
            updateIdle { $0.knobMode = .volume }
            actions.append(.showLEDs(.volumeDisplay(percent: choices.volumePercent), since: now))
            actions.append(.startTimer(.knobModeEnded, deadline: now.advanced(by: configuration.delayModeTimeout)))
            actions.append(.reportSetting(name: "knobMode", value: knobMode.rawValue))
        case .volume:
            leaveKnobMode(&actions)
            // The other choices, read out: the sound heard, its place and the visual countdown seen.
            let position = (configuration.favourites.firstIndex(of: choices.sound) ?? 0) + 1
            actions.append(.playSound(choices.sound, .preview))
            showAcknowledgement(
                .readout(position: position, visualCountdown: choices.visualCountdown), at: now, &actions)
        }
    }

    private mutating func knobLongPressed(at now: Instant, _ actions: inout [BoothAction]) {
        guard case .idle = state, shutdown == nil else { return }
        leaveKnobMode(&actions)
        // An unknown stick is in: the hold makes it the owner's (and the visual countdown stays as it is).
        if export == .unknownStick {
            export = .none
            actions.append(.claimStick)
            showAcknowledgement(.acknowledge(count: 3), at: now, &actions)
            return
        }
        choices.visualCountdown.toggle()
        showAcknowledgement(.acknowledge(count: choices.visualCountdown ? 2 : 1), at: now, &actions)
        actions.append(.reportSetting(name: "visualCountdown", value: String(choices.visualCountdown)))
        actions.append(.persistChoices(choices))
    }

    /// Sounds imported from a stick join the knob's cycle after the ones there (a name already there is
    /// only given its new length).
    private mutating func soundsAdded(_ durations: [String: Int64], _ actions: inout [BoothAction]) {
        let added = durations.keys.filter { !configuration.favourites.contains($0) }.sorted()
        configuration.favourites += added
        configuration.soundDurations.merge(durations) { _, new in new }
        guard !added.isEmpty else { return }
        actions.append(.reportSetting(name: "sounds", value: configuration.favourites.joined(separator: ", ")))
    }

    /// Back to the knob choosing the sound (from the delay or the volume).
    private mutating func leaveKnobMode(_ actions: inout [BoothAction]) {
        guard knobMode != .sound else { return }
        updateIdle { $0.knobMode = .sound }
        actions.append(.cancelTimer(.knobModeEnded))
        actions.append(.reportSetting(name: "knobMode", value: knobMode.rawValue))
    }

    // MARK: - Sound, countdown, capture, save

    private mutating func soundFinished(_ purpose: SoundPurpose, at now: Instant, _ actions: inout [BoothAction]) {
        guard purpose == .attention, case .playingSound(let sequence) = state else { return }
        actions.append(.cancelTimer(.soundTimedOut))
        enter(.countingDown(sequence), at: now, &actions)
        actions.append(.focusCamera)
        let delay = Int64(choices.delayHalfSeconds) * LEDPattern.halfSecond
        actions.append(.startTimer(.countdownEnded, deadline: now.advanced(by: delay)))
        let pattern: LEDPattern = choices.visualCountdown ? .countdown(halfSeconds: choices.delayHalfSeconds) : .off
        actions.append(.showLEDs(pattern, since: now))
        // One pulse for the photographer: the countdown has begun.
        actions.append(.setHaptic(true))
        actions.append(.startTimer(.hapticEnded, deadline: now.advanced(by: configuration.hapticPulse)))
        // The light is on through the countdown, so the camera's exposure has settled on it when the shutter
        // opens. Flash auto first measures the scene, with the light still off (`lightMeasured` decides).
        switch configuration.flash {
        case .off: break
        case .on: switchFlashOn(at: now, &actions)
        case .auto: actions.append(.measureLight)
        }
    }

    /// Flash auto: the scene's light level (measured with the light off) arrived; below the threshold, or
    /// from a camera that reports none, the light goes on for the rest of the countdown.
    private mutating func lightMeasured(_ lux: Double?, at now: Instant, _ actions: inout [BoothAction]) {
        updateSequence { $0.lux = lux }
        guard configuration.flash == .auto, case .countingDown = state, wantsFlash(lux: lux) else { return }
        switchFlashOn(at: now, &actions)
    }

    /// Whether flash auto uses the light for a scene of `lux` (nil: the camera reports no light level).
    private func wantsFlash(lux: Double?) -> Bool { lux.map { $0 < configuration.flashAutoLux } ?? true }

    /// The light on for the running sequence (once).
    private mutating func switchFlashOn(at now: Instant, _ actions: inout [BoothAction]) {
        var already = false
        updateSequence {
            already = $0.flashOn
            $0.flashOn = true
        }
        if !already { actions.append(.setFlash(true)) }
    }

    private mutating func soundFailed(
        _ purpose: SoundPurpose, _ reason: String, at now: Instant, _ actions: inout [BoothAction]
    ) {
        guard purpose == .attention, case .playingSound = state else {
            actions.append(.reportError("sound: \(reason)"))
            return
        }
        abortSequence("sound failed: \(reason)", at: now, &actions)
    }

    private mutating func countdownEnded(at now: Instant, _ actions: inout [BoothAction]) {
        guard case .countingDown(let sequence) = state else { return }
        enter(.capturing(sequence), at: now, &actions)
        // Flash auto whose light level has not arrived by now: decided as for a camera that reports none.
        if configuration.flash == .auto, sequence.lux == nil { switchFlashOn(at: now, &actions) }
        actions.append(.showLEDs(.allOn, since: now))
        actions.append(.playSound("Shutter", .shutter))
        actions.append(.capturePhoto(CaptureID(sequence: sequence.id, shot: 0), trigger: now))
        actions.append(.startTimer(.captureTimedOut, deadline: now.advanced(by: configuration.captureTimeout)))
    }

    private mutating func captureCompleted(_ id: CaptureID, at now: Instant, _ actions: inout [BoothAction]) {
        guard case .capturing(var sequence) = state, id.sequence == sequence.id, id.shot == sequence.captured else {
            actions.append(.releaseCapture(id))
            return
        }
        sequence.captured += 1
        actions.append(.savePhoto(id))
        if sequence.captured < configuration.burstCount {
            state = .capturing(sequence)
            let next = CaptureID(sequence: sequence.id, shot: sequence.captured)
            actions.append(.capturePhoto(next, trigger: now))
            actions.append(.startTimer(.captureTimedOut, deadline: now.advanced(by: configuration.captureTimeout)))
            return
        }
        actions.append(.cancelTimer(.captureTimedOut))
        if sequence.flashOn { actions.append(.setFlash(false)) }
        enter(.processing(sequence), at: now, &actions)
        actions.append(.showLEDs(.busy, since: now))
    }

    private mutating func captureFailed(
        _ id: CaptureID, _ reason: String, at now: Instant, _ actions: inout [BoothAction]
    ) {
        guard case .capturing(let sequence) = state, id.sequence == sequence.id else { return }
        abortSequence("camera: \(reason)", at: now, &actions)
    }

    private mutating func photoSaved(_ id: CaptureID, path: String, at now: Instant, _ actions: inout [BoothAction]) {
        switch state {
        case .capturing(var sequence) where sequence.id == id.sequence:
            sequence.saved.append(path)
            state = .capturing(sequence)
        case .processing(var sequence) where sequence.id == id.sequence:
            sequence.saved.append(path)
            finishProcessingIfDone(sequence, at: now, &actions)
        default:
            // A photo of a sequence aborted after its frame arrived: it is complete, so it is kept.
            break
        }
    }

    private mutating func photoSaveFailed(
        _ id: CaptureID, _ reason: String, at now: Instant, _ actions: inout [BoothAction]
    ) {
        actions.append(.reportError("photo \(id) not saved: \(reason)"))
        switch state {
        case .capturing(var sequence) where sequence.id == id.sequence:
            sequence.failedSaves += 1
            state = .capturing(sequence)
        case .processing(var sequence) where sequence.id == id.sequence:
            sequence.failedSaves += 1
            finishProcessingIfDone(sequence, at: now, &actions)
        default:
            break
        }
    }

    private mutating func finishProcessingIfDone(
        _ sequence: PhotoSequence, at now: Instant, _ actions: inout [BoothAction]
    ) {
        guard sequence.saved.count + sequence.failedSaves == sequence.captured else {
            state = .processing(sequence)
            return
        }
        if sequence.failedSaves > 0 {
            abort("\(sequence.failedSaves) photo(s) of sequence \(sequence.id) not saved", at: now, &actions)
            return
        }
        returnToIdle(reviewed: sequence.saved, at: now, &actions)
    }

    private mutating func returnToIdle(reviewed: [String], at now: Instant, _ actions: inout [BoothAction]) {
        if shutdown != nil {
            // No review window on the way out: these are kept for good.
            keep(reviewed, &actions)
            enter(.idle(Idle()), at: now, &actions)
            actions.append(.showLEDs(.off, since: now))
            actions.append(.exit(code: exitStatus))
            return
        }
        enter(.idle(Idle(reviewed: reviewed)), at: now, &actions)
        actions.append(.showLEDs(idlePattern, since: now))
        actions.append(.setCameraIdle(true))
        if !reviewed.isEmpty {
            actions.append(.startTimer(.reviewEnded, deadline: now.advanced(by: configuration.reviewWindow)))
        }
    }

    // MARK: - Timers

    private mutating func timerFired(_ timer: BoothTimer, at now: Instant, _ actions: inout [BoothAction]) {
        switch timer {
        case .soundTimedOut:
            guard case .playingSound = state else { return }
            let limit = configuration.soundDeadline(for: choices.sound) / 1_000_000
            actions.append(
                .reportError("sound: \(choices.sound) did not report its end within \(limit) ms; going on without it"))
            actions.append(.stopSound)
            soundFinished(.attention, at: now, &actions)
        case .countdownEnded:
            countdownEnded(at: now, &actions)
        case .captureTimedOut:
            guard case .capturing(let sequence) = state else { return }
            actions.append(.expireCapture(CaptureID(sequence: sequence.id, shot: sequence.captured)))
            abortSequence("camera: no frame within \(configuration.captureTimeout / 1_000_000) ms", at: now, &actions)
        case .reviewEnded:
            keep(idle?.reviewed ?? [], &actions)
            updateIdle { $0.reviewed = [] }
        case .knobModeEnded:
            guard knobMode != .sound, case .idle = state else { return }
            leaveKnobMode(&actions)
            showIdlePattern(at: now, &actions)
        case .abortEnded:
            guard case .aborted = state else { return }
            returnToIdle(reviewed: [], at: now, &actions)
        case .acknowledgeEnded:
            refreshIdleLEDs(at: now, &actions)
        case .hapticEnded:
            actions.append(.setHaptic(false))
        case .storageRecheck:
            guard !hasRoom else { return }
            actions.append(.checkStorage)
            actions.append(.startTimer(.storageRecheck, deadline: now.advanced(by: configuration.storageRecheck)))
        }
    }

    // MARK: - Conditions and shutdown

    private mutating func storageChecked(_ room: Bool, at now: Instant, _ actions: inout [BoothAction]) {
        if room != hasRoom {
            hasRoom = room
            actions.append(.reportSetting(name: "storageFull", value: String(!room)))
            if room {
                actions.append(.cancelTimer(.storageRecheck))
            } else {
                actions.append(
                    .reportError(
                        "storage below the free-space reserve: new photos are refused until space is freed "
                            + "(delete or export photos; with booth.cleanup_exported, exported ones go by themselves)"))
                actions.append(.startTimer(.storageRecheck, deadline: now.advanced(by: configuration.storageRecheck)))
            }
            refreshIdleLEDs(at: now, &actions)
        }
        guard idle?.pressAwaitingRoom == true else { return }
        updateIdle { $0.pressAwaitingRoom = false }
        guard case .idle = state, shutdown == nil else { return }
        if room {
            startSequence(at: now, &actions)
        } else {
            abort("storage below the free-space reserve: photo refused", at: now, &actions)
        }
    }

    private mutating func deviceWarning(
        _ warning: DeviceWarning, _ active: Bool, at now: Instant, _ actions: inout [BoothAction]
    ) {
        let changed = active ? warnings.insert(warning).inserted : warnings.remove(warning) != nil
        guard changed else { return }
        actions.append(.reportSetting(name: "warning.\(warning.rawValue)", value: String(active)))
        refreshIdleLEDs(at: now, &actions)
    }

    /// Export runs beside the booth; its LEDs show only while idle, so they never hide a countdown.
    private mutating func exportChanged(_ status: ExportStatus, at now: Instant, _ actions: inout [BoothAction]) {
        guard status != export else { return }
        export = status
        refreshIdleLEDs(at: now, &actions)
    }

    private mutating func shutdownRequested(_ kind: ShutdownKind, at now: Instant, _ actions: inout [BoothAction]) {
        shutdown = shutdown ?? kind
        switch state {
        case .idle:
            actions.append(.cancelTimer(.reviewEnded))
            // Stopped during the review window: no press can discard these any more.
            keep(idle?.reviewed ?? [], &actions)
            leaveKnobMode(&actions)
            actions.append(.showLEDs(.off, since: now))
            actions.append(.exit(code: exitStatus))
        case .aborted:
            actions.append(.cancelTimer(.abortEnded))
            actions.append(.showLEDs(.off, since: now))
            actions.append(.exit(code: exitStatus))
        case .playingSound, .countingDown, .capturing:
            if kind != .finishSequence {
                abortSequence("stopped by a signal", at: now, &actions)
                actions.append(.cancelTimer(.abortEnded))
                actions.append(.showLEDs(.off, since: now))
                actions.append(.exit(code: exitStatus))
            }
        case .processing:
            break  // Saving finishes first; returnToIdle exits.
        }
    }

    /// Aborts a running sequence (playing, counting down or capturing); does nothing otherwise.
    private mutating func abortSequence(_ reason: String, at now: Instant, _ actions: inout [BoothAction]) {
        switch state {
        case .playingSound, .countingDown, .capturing:
            abort(reason, at: now, &actions)
        case .idle, .processing, .aborted:
            break
        }
    }

    private mutating func abort(_ reason: String, at now: Instant, _ actions: inout [BoothAction]) {
        // Frames still on their way arrive as stale completions and are released then.
        switch state {
        case .countingDown(let sequence) where sequence.flashOn, .capturing(let sequence) where sequence.flashOn:
            actions.append(.setFlash(false))
        default: break
        }
        actions.append(.reportError(reason))
        for timer in [BoothTimer.soundTimedOut, .countdownEnded, .captureTimedOut, .reviewEnded] {
            actions.append(.cancelTimer(timer))
        }
        actions.append(.stopSound)
        enter(.aborted, at: now, &actions)
        actions.append(.showLEDs(.error, since: now))
        actions.append(.startTimer(.abortEnded, deadline: now.advanced(by: configuration.abortPatternDuration)))
    }

    // MARK: - Helpers

    /// 75 (EX_TEMPFAIL) when stopping to be restarted, else 0.
    private var exitStatus: Int32 { shutdown == .restart ? 75 : 0 }

    /// What the LEDs show in idle, most urgent first: the stick (it needs a hand now), a full store, heat
    /// or power, another device warning, else dark.
    private var idlePattern: LEDPattern {
        switch export {
        case .copying(let done, let total): .exportProgress(done: done, total: total)
        case .safeToRemove: .safeToRemove
        case .failed: .error
        case .unknownStick: .unknownStick
        case .none:
            if !hasRoom {
                .full
            } else if warnings.contains(where: \.isHealth) {
                .healthWarning(blinks: DeviceWarning.blinkCodes(warnings.filter(\.isHealth)))
            } else {
                warnings.isEmpty ? .off : .warning(blinks: DeviceWarning.blinkCodes(warnings))
            }
        }
    }

    /// Shows the idle pattern, ending any acknowledgement still blinking.
    private mutating func showIdlePattern(at now: Instant, _ actions: inout [BoothAction]) {
        updateIdle { $0.acknowledging = false }
        actions.append(.cancelTimer(.acknowledgeEnded))
        actions.append(.showLEDs(idlePattern, since: now))
    }

    /// Shows a pattern that ends (an acknowledgement, a readout), then the idle pattern in force.
    private mutating func showAcknowledgement(
        _ pattern: LEDPattern, at now: Instant, _ actions: inout [BoothAction]
    ) {
        updateIdle { $0.acknowledging = true }
        actions.append(.showLEDs(pattern, since: now))
        let duration = pattern.duration(ledCount: configuration.ledCount) ?? 0
        actions.append(.startTimer(.acknowledgeEnded, deadline: now.advanced(by: duration)))
    }

    /// Shows the idle pattern if the LEDs are the idle pattern's now (idle, the knob not showing the delay).
    private mutating func refreshIdleLEDs(at now: Instant, _ actions: inout [BoothAction]) {
        guard case .idle = state, knobMode == .sound else { return }
        showIdlePattern(at: now, &actions)
    }

    private mutating func enter(_ next: State, at now: Instant, _ actions: inout [BoothAction]) {
        let from = phase
        // A sequence that ends (done or aborted) while the previous photos were still under review: no press can
        // discard them any more.
        if let leaving = sequence, !next.holdsSequence { keep(leaving.reviewed, &actions) }
        state = next
        actions.append(.enterPhase(phase, from: from))
    }

    /// Photos no retake can discard any more: the print button's, and printed when each photo is
    /// (`print.mode = "each"`).
    private mutating func keep(_ photos: [String], _ actions: inout [BoothAction]) {
        guard !photos.isEmpty else { return }
        lastKept = photos
        guard configuration.printMode == .each else { return }
        actions.append(.printPhotos(photos))
    }

    /// The sequence under way, nil when idle or aborted.
    private var sequence: PhotoSequence? {
        switch state {
        case .playingSound(let s), .countingDown(let s), .capturing(let s), .processing(let s): s
        case .idle, .aborted: nil
        }
    }

    /// The idle state's values, nil when not idle.
    private var idle: Idle? {
        if case .idle(let idle) = state { idle } else { nil }
    }

    /// Changes the idle state's values; does nothing when not idle.
    private mutating func updateIdle(_ body: (inout Idle) -> Void) {
        guard case .idle(var idle) = state else { return }
        body(&idle)
        state = .idle(idle)
    }

    private mutating func updateSequence(_ body: (inout PhotoSequence) -> Void) {
        switch state {
        case .playingSound(var s): body(&s); state = .playingSound(s)
        case .countingDown(var s): body(&s); state = .countingDown(s)
        case .capturing(var s): body(&s); state = .capturing(s)
        case .processing(var s): body(&s); state = .processing(s)
        case .idle, .aborted: break
        }
    }

    private mutating func updateButtonLED(_ actions: inout [BoothAction]) {
        let lit = acceptsPress
        guard lit != buttonLED else { return }
        buttonLED = lit
        actions.append(.setButtonLED(lit))
    }
}
