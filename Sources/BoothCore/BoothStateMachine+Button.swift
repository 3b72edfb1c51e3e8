// BoothStateMachine+Button: the big button's and the print button's handlers (a sequence's start, retakes, prints).
import BoothTime
import LEDCountdown

extension BoothStateMachine {
    // MARK: - Big button

    mutating func buttonPressed(at now: Instant, _ actions: inout [BoothAction]) {
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

    mutating func startSequence(at now: Instant, _ actions: inout [BoothAction]) {
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

    mutating func buttonReleased(_ actions: inout [BoothAction]) {
        // Let go before it became a long press: the previous photos are kept for good.
        var kept: [String] = []
        updateSequence { sequence in
            sequence.buttonHeld = false
            kept = sequence.reviewed
            sequence.reviewed = []
        }
        keep(kept, &actions)
    }

    mutating func buttonLongPressed(_ actions: inout [BoothAction]) {
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
    mutating func printPressed(_ actions: inout [BoothAction]) {
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
}
