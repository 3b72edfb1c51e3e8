// BoothStateMachine+Conditions: timers, storage, device warnings, export, shutdown and abort.
import BoothTime
import LEDCountdown

extension BoothStateMachine {
    // MARK: - Timers

    mutating func timerFired(_ timer: BoothTimer, at now: Instant, _ actions: inout [BoothAction]) {
        switch timer {
        case .soundTimedOut:
            guard case .playingSound = state else { return }
            let limit = configuration.soundDeadline(for: choices.sound).inMilliseconds
            actions.append(
                .reportError("sound: \(choices.sound) did not report its end within \(limit) ms; going on without it"))
            actions.append(.stopSound)
            soundFinished(.attention, at: now, &actions)
        case .countdownEnded:
            countdownEnded(at: now, &actions)
        case .captureTimedOut:
            guard case .capturing(let sequence) = state else { return }
            actions.append(.expireCapture(CaptureID(sequence: sequence.id, shot: sequence.captured)))
            abortSequence(
                "camera: no frame within \(configuration.captureTimeout.inMilliseconds) ms", at: now, &actions)
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

    mutating func storageChecked(_ room: Bool, at now: Instant, _ actions: inout [BoothAction]) {
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

    mutating func deviceWarning(
        _ warning: DeviceWarning, _ active: Bool, at now: Instant, _ actions: inout [BoothAction]
    ) {
        let changed = active ? warnings.insert(warning).inserted : warnings.remove(warning) != nil
        guard changed else { return }
        actions.append(.reportSetting(name: "warning.\(warning.rawValue)", value: String(active)))
        refreshIdleLEDs(at: now, &actions)
    }

    /// Export runs beside the booth; its LEDs show only while idle, so they never hide a countdown.
    mutating func exportChanged(_ status: ExportStatus, at now: Instant, _ actions: inout [BoothAction]) {
        guard status != export else { return }
        export = status
        refreshIdleLEDs(at: now, &actions)
    }

    mutating func shutdownRequested(_ kind: ShutdownKind, at now: Instant, _ actions: inout [BoothAction]) {
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
    mutating func abortSequence(_ reason: String, at now: Instant, _ actions: inout [BoothAction]) {
        switch state {
        case .playingSound, .countingDown, .capturing:
            abort(reason, at: now, &actions)
        case .idle, .processing, .aborted:
            break
        }
    }

    mutating func abort(_ reason: String, at now: Instant, _ actions: inout [BoothAction]) {
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
}
