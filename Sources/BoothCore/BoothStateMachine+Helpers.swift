// BoothStateMachine+Helpers: the idle LEDs and acknowledgements, phase changes, kept photos, the state's accessors.
import BoothTime
import LEDCountdown

extension BoothStateMachine {
    // MARK: - Helpers

    /// 75 (EX_TEMPFAIL) when stopping to be restarted, else 0.
    var exitStatus: Int32 { shutdown == .restart ? 75 : 0 }

    /// What the LEDs show in idle, most urgent first: the stick (it needs a hand now), a full store, heat
    /// or power, another device warning, else dark.
    var idlePattern: LEDPattern {
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
    mutating func showIdlePattern(at now: Instant, _ actions: inout [BoothAction]) {
        updateIdle { $0.acknowledging = false }
        actions.append(.cancelTimer(.acknowledgeEnded))
        actions.append(.showLEDs(idlePattern, since: now))
    }

    /// Shows a pattern that ends (an acknowledgement, a readout), then the idle pattern in force.
    mutating func showAcknowledgement(
        _ pattern: LEDPattern, at now: Instant, _ actions: inout [BoothAction]
    ) {
        updateIdle { $0.acknowledging = true }
        actions.append(.showLEDs(pattern, since: now))
        let duration = pattern.duration(ledCount: configuration.ledCount) ?? .zero
        actions.append(.startTimer(.acknowledgeEnded, deadline: now.advanced(by: duration)))
    }

    /// Shows the idle pattern if the LEDs are the idle pattern's now (idle, the knob not showing the delay).
    mutating func refreshIdleLEDs(at now: Instant, _ actions: inout [BoothAction]) {
        guard case .idle = state, knobMode == .sound else { return }
        showIdlePattern(at: now, &actions)
    }

    mutating func enter(_ next: State, at now: Instant, _ actions: inout [BoothAction]) {
        let from = phase
        // A sequence that ends (done or aborted) while the previous photos were still under review: no press can
        // discard them any more.
        if let leaving = sequence, !next.holdsSequence { keep(leaving.reviewed, &actions) }
        state = next
        actions.append(.enterPhase(phase, from: from))
    }

    /// Photos no retake can discard any more: the print button's, and printed when each photo is
    /// (`print.mode = "each"`).
    mutating func keep(_ photos: [String], _ actions: inout [BoothAction]) {
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
    var idle: Idle? {
        if case .idle(let idle) = state { idle } else { nil }
    }

    /// Changes the idle state's values; does nothing when not idle.
    mutating func updateIdle(_ body: (inout Idle) -> Void) {
        guard case .idle(var idle) = state else { return }
        body(&idle)
        state = .idle(idle)
    }

    mutating func updateSequence(_ body: (inout PhotoSequence) -> Void) {
        switch state {
        case .playingSound(var s): body(&s); state = .playingSound(s)
        case .countingDown(var s): body(&s); state = .countingDown(s)
        case .capturing(var s): body(&s); state = .capturing(s)
        case .processing(var s): body(&s); state = .processing(s)
        case .idle, .aborted: break
        }
    }
}
