// SilentSound: sounds with their real durations but no audio.
import BoothCore
import SoundOutput

/// Sounds with their real durations but no audio: the simulator's sound, and the real booth's
/// fallback when the sound device is missing or busy (sound steps stay timed as if played).
package final class SilentSound: SoundDevice {
    package let name: String
    package private(set) var soundDurations: [String: Duration]
    private let loop: EventLoop
    private let report: DeviceReport
    private var playing: EventLoop.TimerToken?
    /// The volume the sounds would play at (nothing is heard; tests read it).
    private(set) var volumePercent = 100

    /// Sounds named in `durations`, timed on `context`'s loop.
    init(_ context: DeviceContext, name: String = "simulated", durations: [String: Duration]) {
        self.name = name
        soundDurations = durations
        loop = context.loop
        report = context.report
    }

    /// The built-in sounds at their synthesized lengths, plus `extra` (custom sounds).
    package static func builtIn(_ context: DeviceContext, extra: [String: Duration] = [:]) -> SilentSound {
        var durations = extra
        for sound in BuiltInSound.allCases {
            durations[sound.rawValue] = SoundSynthesizer.duration(of: sound)
        }
        return SilentSound(context, durations: durations)
    }

    package func add(_ sounds: [CustomSound]) {
        for sound in sounds { soundDurations[sound.name] = sound.buffer.duration }
    }

    package func play(_ sound: String, purpose: SoundPurpose) {
        stop()
        let now = loop.now()
        guard let duration = soundDurations[sound] else {
            report(.soundFailed(purpose, DeviceFault(.sound, .missing, "no sound named '\(sound)'")), now)
            return
        }
        let end = now.advanced(by: duration)
        playing = loop.schedule(at: end) { [unowned self] in
            self.playing = nil
            report(.soundFinished(purpose), end)
        }
    }

    package func stop() {
        if let playing { loop.cancel(playing) }
        playing = nil
    }

    package func setVolume(percent: Int) {
        volumePercent = percent
    }
}
