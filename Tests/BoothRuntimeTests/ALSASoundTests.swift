// ALSASoundTests: the ALSA sound device on a device whose end cannot be watched.
import BoothCore
import BoothTime
import Glibc
import SoundOutput
import Testing

@testable import BoothRuntime

/// The booth's ALSA sound device on ALSA's own `null` device, whose poll descriptor is /dev/null:
/// epoll refuses it (EPERM), so the sound must still end, timed, instead of never.
@Suite(.timeLimit(.minutes(3))) struct ALSASoundTests {
    @Test func aDeviceWhosePollDescriptorsEpollRefusesStillFinishesTheSound() throws {
        let loop = try EventLoop()
        var events: [(BoothEvent, Instant)] = []
        let context = DeviceContext(loop: loop) { event, time in
            events.append((event, time))
            if case .soundFinished = event { loop.stop() }
            if case .soundFailed = event { loop.stop() }
        }
        let sound = try ALSASound(context, device: "null", gainDecibels: 0, custom: [])
        try #require(sound.problem == nil, "ALSA's null device did not open: \(sound.problem ?? "")")
        let start = loop.now()
        sound.play("Duck", purpose: .attention)
        loop.schedule(at: start.advanced(by: .seconds(5))) { loop.stop() }
        try loop.run()
        let finished = events.first { if case .soundFinished(.attention) = $0.0 { true } else { false } }
        let end = try #require(finished?.1, "no end reported: \(events.map(\.0))")
        // Timed like the sound (the Duck is 0.56 s), not cut short.
        let duration = try #require(sound.soundDurations["Duck"])
        #expect(end - start >= duration)
    }

    /// A sound added while running (imported from a stick) is converted off the loop's thread and then
    /// plays on the device; the loop is never held up by the conversion.
    @Test func aSoundAddedWhileRunningIsConvertedOffTheLoop() throws {
        let loop = try EventLoop()
        let sound = try ALSASound(DeviceContext(loop: loop) { _, _ in }, device: "null", gainDecibels: 0, custom: [])
        try #require(sound.problem == nil, "ALSA's null device did not open: \(sound.problem ?? "")")
        let beep = PCMBuffer(samples: [Int16](repeating: 900, count: 44_100 * 2), sampleRate: 44_100, channels: 1)
        sound.add([CustomSound(name: "Beep", buffer: beep)])
        #expect(sound.soundDurations["Beep"] == .seconds(2), "timed at once")
        func poll() {
            if sound.convertedSounds.contains("Beep") {
                loop.stop()
            } else {
                loop.schedule(at: loop.now().advanced(by: .milliseconds(10))) { poll() }
            }
        }
        poll()
        loop.schedule(at: loop.now().advanced(by: .seconds(20))) { loop.stop() }
        try loop.run()
        #expect(sound.convertedSounds.contains("Beep"))
    }
}
