// BoothStateMachine+Sequence: a sequence's handlers (sound, countdown, flash, capture, save) and the return to idle.
import BoothTime
import LEDCountdown

extension BoothStateMachine {
    // MARK: - Sound, countdown, capture, save

    mutating func soundFinished(_ purpose: SoundPurpose, at now: Instant, _ actions: inout [BoothAction]) {
        guard purpose == .attention, case .playingSound(let sequence) = state else { return }
        actions.append(.cancelTimer(.soundTimedOut))
        enter(.countingDown(sequence), at: now, &actions)
        actions.append(.focusCamera)
        let delay = LEDPattern.halfSecond * choices.delayHalfSeconds
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
    mutating func lightMeasured(_ lux: Double?, at now: Instant, _ actions: inout [BoothAction]) {
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

    mutating func soundFailed(
        _ purpose: SoundPurpose, _ fault: DeviceFault, at now: Instant, _ actions: inout [BoothAction]
    ) {
        guard purpose == .attention, case .playingSound = state else {
            actions.append(.reportError("sound: \(fault)"))
            return
        }
        abortSequence("sound failed: \(fault)", at: now, &actions)
    }

    mutating func countdownEnded(at now: Instant, _ actions: inout [BoothAction]) {
        guard case .countingDown(let sequence) = state else { return }
        enter(.capturing(sequence), at: now, &actions)
        // Flash auto whose light level has not arrived by now: decided as for a camera that reports none.
        if configuration.flash == .auto, sequence.lux == nil { switchFlashOn(at: now, &actions) }
        actions.append(.showLEDs(.allOn, since: now))
        actions.append(.playSound("Shutter", .shutter))
        actions.append(.capturePhoto(CaptureID(sequence: sequence.id, shot: 0), trigger: now))
        actions.append(.startTimer(.captureTimedOut, deadline: now.advanced(by: configuration.captureTimeout)))
    }

    mutating func captureCompleted(_ id: CaptureID, at now: Instant, _ actions: inout [BoothAction]) {
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

    mutating func captureFailed(
        _ id: CaptureID, _ fault: DeviceFault, at now: Instant, _ actions: inout [BoothAction]
    ) {
        guard case .capturing(let sequence) = state, id.sequence == sequence.id else { return }
        abortSequence("camera: \(fault)", at: now, &actions)
    }

    mutating func photoSaved(_ id: CaptureID, path: String, at now: Instant, _ actions: inout [BoothAction]) {
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

    mutating func photoSaveFailed(
        _ id: CaptureID, _ fault: DeviceFault, at now: Instant, _ actions: inout [BoothAction]
    ) {
        actions.append(.reportError("photo \(id) not saved: \(fault)"))
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

    mutating func returnToIdle(reviewed: [String], at now: Instant, _ actions: inout [BoothAction]) {
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
}
