// ALSASound: the booth's sounds on an ALSA device.
import BoothCore
import BoothSystem
import BoothTime
import SoundOutput

/// The booth's sounds on an ALSA device. Every sound is decoded and converted to the device format
/// at start; `play` hands the first period to ALSA before it returns, and the device's poll
/// descriptors sit in the event loop while a sound plays. A missing or busy device is reported once,
/// the booth carries on silent with every sound timed as if played, and the device is retried
/// every 10 s while nothing plays. A device whose descriptors the loop cannot watch (ALSA's null
/// plugins) is played silent and timed too, so a sound always ends.
package final class ALSASound: SoundDevice {
    package let name: String
    private let device: String
    private let sampleRate = 48_000
    private let channels = 2
    private let gain: Double
    private var sources: [String: PCMBuffer]
    private var playback: ALSAPlayback?
    private var prepared: [String: PreparedSound] = [:]
    private let silent: SilentSound
    private let context: DeviceContext
    private var loop: EventLoop { context.loop }
    private var registered: [FileDescriptor] = []
    /// The card's mixer while the device is open, watched for changes, and the problem last reported.
    private var mixer: Mixer?
    private var mixerDescriptors: [FileDescriptor] = []
    private var mixerProblem: MixerCheck.Problem?
    private var current: SoundPurpose?
    /// Whether the latest `play` went to the device (not the silent fallback).
    private var playedOnDevice = false
    /// The booth's volume (`setVolume`), as a share of the amplitude.
    private var volume = 1.0
    /// Missing, lost, retried every 10 s (never while a sound is timed), back; it holds why the device is not open.
    private let retry: DeviceRetryRunner
    /// Whether the loop refused the device's descriptors once (said once, not at every sound).
    private var warnedUnwatchable = false
    /// Why the device could not be opened, if it could not.
    var problem: String? { retry.problem }
    /// Sounds added while running, converted to the device's format off the loop's thread.
    private let converter: Worker<Converted>

    /// Sounds converted for a device format.
    private struct Converted: Sendable {
        var sounds: [String: PreparedSound]
        var sampleRate: Int
        var channels: Int
    }

    /// The built-in sounds plus `custom` ones, for `device` with `gainDecibels` applied, played on `context`'s loop;
    /// a device that does not open is reported (`soundDeviceUnavailable`) and retried.
    package init(
        _ context: DeviceContext, device: String, gainDecibels: Double, custom: [CustomSound]
    ) throws(SystemError) {
        self.context = context
        self.device = device
        name = "alsa:\(device)"
        gain = gainDecibels
        var sources: [String: PCMBuffer] = [:]
        for sound in BuiltInSound.allCases {
            sources[sound.rawValue] = SoundSynthesizer.render(sound, sampleRate: 48_000)
        }
        for sound in custom { sources[sound.name] = sound.buffer }
        self.sources = sources
        silent = SilentSound(context, name: "silent", durations: sources.mapValues(\.duration))
        converter = try Worker<Converted>(label: "heylook.sound-convert", loop: context.loop)
        retry = DeviceRetryRunner(
            DeviceRetry(name: "sound", interval: .seconds(10), meanwhile: "running silent"),
            warning: .soundDeviceUnavailable, loop: context.loop, report: context.report)
        retry.opened(problem: reopenForRetry(), of: self)
    }

    /// Why `device` does not open for playback, nil when it does (opened and closed at once).
    package static func problem(opening device: String) -> String? {
        do {
            _ = try ALSAPlayback(device: device, sampleRate: 48_000, channels: 2, clock: KernelClock())
            return nil
        } catch {
            return "\(error)"
        }
    }

    package var soundDurations: [String: Duration] { silent.soundDurations }

    package var playbackReport: PlaybackReport {
        guard let playback, playedOnDevice else { return .unknown }
        return PlaybackReport(
            handedOver: playback.startedAt, deviceStart: playback.deviceStartedAt,
            firstProgress: playback.firstProgressAt, underruns: playback.soundUnderruns,
            longestWait: playback.longestWait)
    }

    /// Opens the card's mixer and watches it from the loop, so muting or turning the volume down (or
    /// back up) warns (or clears) when it happens; judged at once.
    private func watchMixer() {
        guard mixer == nil else { return }
        guard let opened = Mixer(name: MixerCheck.mixerName(forCard: device)) else { return }
        mixer = opened
        for descriptor in opened.pollDescriptors {
            do {
                try loop.register(polled: descriptor) { [unowned self] _ in self.mixerChanged() }
                mixerDescriptors.append(descriptor.fileDescriptor)
            } catch {
                Log.warning("sound: the mixer of \(device) cannot be watched (\(error)): its volume is judged only now")
                break
            }
        }
        judgeMixer()
    }

    /// On the loop: the mixer changed (or its card went away).
    private func mixerChanged() {
        guard let mixer else { return }
        if mixer.handleEvents() { judgeMixer() } else { dropMixer() }
    }

    /// Reports the volume warnings the mixer's readings call for, when they change.
    private func judgeMixer() {
        guard let mixer else { return }
        let problem = MixerCheck.problem(for: mixer.readings())
        guard problem != mixerProblem else { return }
        let name = MixerCheck.mixerName(forCard: device)
        if let problem {
            Log.warning("sound: \(MixerCheck.warning(for: problem, card: name))")
        } else {
            Log.info("sound: the volume of \(name) is fine again")
        }
        setVolumeWarnings(problem)
    }

    /// Stops watching the mixer (its device was lost); its warnings end with it.
    private func dropMixer() {
        for fd in mixerDescriptors { loop.unregister(fd) }
        mixerDescriptors = []
        mixer = nil
        setVolumeWarnings(nil)
    }

    /// Reports `volumeMuted` and `volumeLow` as `problem` says, each only when it changes.
    private func setVolumeWarnings(_ problem: MixerCheck.Problem?) {
        func isSilent(_ p: MixerCheck.Problem?) -> Bool { if case .silent = p { true } else { false } }
        func isLow(_ p: MixerCheck.Problem?) -> Bool { if case .low = p { true } else { false } }
        if isSilent(problem) != isSilent(mixerProblem) {
            reportNow(.deviceWarning(.volumeMuted, active: isSilent(problem)))
        }
        if isLow(problem) != isLow(mixerProblem) { reportNow(.deviceWarning(.volumeLow, active: isLow(problem))) }
        mixerProblem = problem
    }

    /// Converting a few seconds of sound takes milliseconds a sound: it runs on a worker, never between
    /// a press and its sound. Until a sound is converted it plays silent, timed (a device that opens
    /// later converts every source then).
    package func add(_ sounds: [CustomSound]) {
        for sound in sounds { sources[sound.name] = sound.buffer }
        silent.add(sounds)
        guard let playback else { return }
        let (sampleRate, channels, gain) = (playback.sampleRate, playback.channels, gain)
        converter.run { post in
            var converted = Converted(sounds: [:], sampleRate: sampleRate, channels: channels)
            for sound in sounds {
                converted.sounds[sound.name] = PreparedSound(
                    sound.buffer, sampleRate: sampleRate, channels: channels, gainDecibels: gain)
            }
            post(converted)
        } then: { [unowned self] in
            take($0)
        }
    }

    /// The sounds converted for the open device (the others play silent, timed).
    var convertedSounds: Set<String> { Set(prepared.keys) }

    /// On the loop: sounds converted for the device still open take their place.
    private func take(_ converted: Converted) {
        guard let playback, playback.sampleRate == converted.sampleRate, playback.channels == converted.channels
        else { return }
        prepared.merge(converted.sounds) { _, new in new }
    }

    package func setVolume(percent: Int) {
        volume = Double(percent) / 100
        silent.setVolume(percent: percent)
    }

    package func play(_ sound: String, purpose: SoundPurpose) {
        // What plays stops: on the device, `playback.play` drops the stream itself, and its descriptors stay watched
        // for the new sound, so nothing but the new sound's own calls comes before its first samples.
        silent.stop()
        current = nil
        playedOnDevice = false
        guard let playback, let prepared = prepared[sound] else {
            stop()
            silent.play(sound, purpose: purpose)
            return
        }
        do {
            try playback.play(prepared, volume: volume)
        } catch {
            watch([])
            lose(error)
            silent.play(sound, purpose: purpose)
            return
        }
        current = purpose
        playedOnDevice = true
        if let refused = watch(playback.pollDescriptors) {
            // The device took the sound but its end could never be seen (ALSA's null plugins hand out
            // /dev/null, which epoll refuses): cut it and time it silently instead.
            if !warnedUnwatchable {
                Log.warning("sound: \(device) cannot be watched (\(refused)); its sounds are timed silently")
                warnedUnwatchable = true
            }
            stop()
            playedOnDevice = false
            silent.play(sound, purpose: purpose)
        }
    }

    package func stop() {
        silent.stop()
        playback?.stop()
        current = nil
        watch([])
    }

    /// On the loop: one of the playback's descriptors fired; ALSA writes more, or the sound ended or failed.
    private func ready(_ fired: Epoll.PollDescriptor) {
        guard let playback, let purpose = current else {
            watch([])
            return
        }
        // ALSA reads the descriptors' readiness as a set: the one that fired with what epoll saw, the
        // others (if the device has more) with none; each of them that fires calls back on its own.
        let fds = playback.pollDescriptors.map { descriptor in
            var ready = descriptor
            ready.revents = descriptor.fd == fired.fd ? fired.revents : 0
            return ready
        }
        switch playback.handlePoll(revents: fds) {
        case nil:
            if let refused = watch(playback.pollDescriptors) {
                current = nil
                playback.stop()
                let fault = DeviceFault(.sound, refused, message: "\(device) cannot be watched: \(refused)")
                reportNow(.soundFailed(purpose, fault))
            }
        case .finished:
            current = nil
            watch([])
            reportNow(.soundFinished(purpose))
        case .failed(let error):
            current = nil
            watch([])
            lose(error)
            reportNow(.soundFailed(purpose, DeviceFault(sound: error)))
        }
    }

    /// Registers exactly `descriptors` with the loop (ALSA's set can change between plays). When the
    /// loop refuses one, none stays registered and the error is returned.
    @discardableResult
    private func watch(_ descriptors: [Epoll.PollDescriptor]) -> SystemError? {
        let wanted = descriptors.map(\.fileDescriptor)
        for fd in registered where !wanted.contains(fd) { loop.unregister(fd) }
        registered = []
        for descriptor in descriptors {
            do {
                try loop.register(polled: descriptor) { [unowned self] fired in self.ready(fired) }
                registered.append(descriptor.fileDescriptor)
            } catch {
                for fd in registered { loop.unregister(fd) }
                registered = []
                return error
            }
        }
        return nil
    }

    /// Opens the device: nil when it opened, else why not.
    private func open() -> String? {
        do {
            let opened = try ALSAPlayback(
                device: device, sampleRate: sampleRate, channels: channels, clock: KernelClock())
            prepared = sources.mapValues { opened.prepare($0, gainDecibels: gain) }
            playback = opened
            return nil
        } catch {
            playback = nil
            return "\(error)"
        }
    }

    private func lose(_ error: SoundDeviceError) {
        guard playback != nil else { return }
        playback = nil
        dropMixer()
        retry.lost("\(error)", of: self)
    }

    /// Reports `event` as happening now, on the loop's clock.
    private func reportNow(_ event: BoothEvent) {
        context.reportNow(event)
    }
}

extension ALSASound: RetriedDevice {
    var retryLabel: String { device }
    /// A sound being timed is never cut short for a retry.
    var retryBusy: Bool { current != nil }

    func reopenForRetry() -> String? {
        let problem = open()
        if playback != nil { watchMixer() }
        return problem
    }
}
