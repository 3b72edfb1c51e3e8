// SilentSound: sounds with their real durations but no audio.
import BoothCore
import SoundOutput

/// Sounds with their real durations but no audio: the simulator's sound, and the real booth's
/// fallback when the sound device is missing or busy (sound steps stay timed as if played).
final class SilentSound: SoundDevice {
    let name: String
    private(set) var soundDurations: [String: Int64]
    private var loop: EventLoop?
    private var report: DeviceReport?
    private var playing: EventLoop.TimerToken?
    /// The volume the sounds would play at (nothing is heard; tests read it).
    private(set) var volumePercent = 100

    /// Sounds named in `durations` (nanoseconds each).
    init(name: String = "simulated", durations: [String: Int64]) {
        self.name = name
        soundDurations = durations
    }

    /// The built-in sounds at their synthesized lengths, plus `extra` (custom sounds).
    static func builtIn(name: String = "simulated", extra: [String: Int64] = [:]) -> SilentSound {
        var durations = extra
        for sound in BuiltInSound.allCases {
            durations[sound.rawValue] = Int64((SoundSynthesizer.duration(of: sound) * 1e9).rounded())
        }
        return SilentSound(name: name, durations: durations)
    }

    func add(_ sounds: [CustomSound]) {
        for sound in sounds { soundDurations[sound.name] = sound.buffer.durationNanoseconds }
    }

    func attach(to loop: EventLoop, report: @escaping DeviceReport) throws {
        self.loop = loop
        self.report = report
    }

    func play(_ sound: String, purpose: SoundPurpose) {
        guard let loop, let report else { return }
        stop()
        let now = loop.now()
        guard let duration = soundDurations[sound] else {
            report(.soundFailed(purpose, reason: "no sound named '\(sound)'"), now)
            return
        }
        let end = now.advanced(by: duration)
        playing = loop.schedule(at: end) { [unowned self] in
            self.playing = nil
            report(.soundFinished(purpose), end)
        }
    }

    func stop() {
        if let playing { loop?.cancel(playing) }
        playing = nil
    }

    func setVolume(percent: Int) {
        volumePercent = percent
    }
}
