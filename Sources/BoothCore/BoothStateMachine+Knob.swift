// BoothStateMachine+Knob: the knob's handlers (sound, delay and volume modes, the visual countdown), sounds added.
import BoothTime
import LEDCountdown

extension BoothStateMachine {
    // MARK: - Knob

    mutating func knobTurned(_ steps: Int, at now: Instant, _ actions: inout [BoothAction]) {
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

    mutating func knobPressed(at now: Instant, _ actions: inout [BoothAction]) {
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

    mutating func knobLongPressed(at now: Instant, _ actions: inout [BoothAction]) {
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
    mutating func soundsAdded(_ durations: [String: Duration], _ actions: inout [BoothAction]) {
        let cycle = BoothSettings.soundCycle(configuration.favourites, adding: durations.keys)
        let grew = cycle.count > configuration.favourites.count
        configuration.favourites = cycle
        configuration.soundDurations.merge(durations) { _, new in new }
        guard grew else { return }
        actions.append(.reportSetting(name: "sounds", value: configuration.favourites.joined(separator: ", ")))
    }

    /// Back to the knob choosing the sound (from the delay or the volume).
    mutating func leaveKnobMode(_ actions: inout [BoothAction]) {
        guard knobMode != .sound else { return }
        updateIdle { $0.knobMode = .sound }
        actions.append(.cancelTimer(.knobModeEnded))
        actions.append(.reportSetting(name: "knobMode", value: knobMode.rawValue))
    }
}
