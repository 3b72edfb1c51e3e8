// Tests for ALSAPlayback with the real alsa-lib: the `file` plugin (slave `null`) records what is played.
//
// The device name "file:'<path>',raw" uses the `pcm.file` definition of the system alsa.conf, so no
// sound card or asoundrc is needed. The `null` slave consumes instantly (its delay is always 0), so
// these tests check ordering and content, not real-time pacing.

import BoothSystem
import BoothTestSupport
import BoothTime
import Foundation
import Testing

@testable import SoundOutput

@Suite(.timeLimit(.minutes(3)), .serialized, .offCooperativePool) struct ALSAPlaybackTests {
    /// An ALSA device that writes raw s16le samples to `file` in `folder`.
    static func recordingDevice(_ folder: TemporaryFolder, _ file: String = "out.raw") -> String {
        "file:'\(folder.path)/\(file)',raw"
    }

    /// Raw little-endian bytes as Int16 samples.
    static func samples(_ bytes: [UInt8]) -> [Int16] {
        stride(from: 0, to: bytes.count - 1, by: 2).map {
            Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)
        }
    }

    /// Drives `playback` the way the event loop will: poll() on its descriptors, then handlePoll.
    /// Returns the events seen and how many wake-ups it took; gives up after `timeout` seconds.
    static func runUntilIdle(_ playback: ALSAPlayback, timeout: Double = 5) -> (events: [PlaybackEvent], wakeUps: Int) {
        let deadline = Date().addingTimeInterval(timeout)
        var events: [PlaybackEvent] = []
        var wakeUps = 0
        while playback.isPlaying && Date() < deadline {
            var descriptors = playback.pollDescriptors
            #expect(!descriptors.isEmpty)
            let ready = poll(&descriptors, nfds_t(descriptors.count), 100)
            if ready <= 0 { continue }
            wakeUps += 1
            if let event = playback.handlePoll(revents: descriptors) { events.append(event) }
        }
        return (events, wakeUps)
    }

    @Test func playsExactlyThePreparedSamplesThenFinishes() throws {
        let folder = try TemporaryFolder()
        let playback = try ALSAPlayback(
            device: Self.recordingDevice(folder), sampleRate: 48_000, channels: 1, clock: KernelClock())
        #expect(playback.sampleRate == 48_000)
        #expect(playback.periodFrames == 256)
        #expect(playback.bufferFrames == 32 * 256)
        let sound = playback.prepare(SoundSynthesizer.render(.duck, sampleRate: 48_000))
        #expect(sound.buffer == SoundSynthesizer.render(.duck, sampleRate: 48_000))

        try playback.play(sound)
        #expect(playback.isPlaying)
        #expect(playback.startedAt != nil)
        let (events, wakeUps) = Self.runUntilIdle(playback)

        #expect(events == [.finished])
        #expect(!playback.isPlaying)
        #expect(playback.pollDescriptors.isEmpty)
        // ALSA takes at most one buffer per wake-up, so finishing needs at least this many wake-ups.
        #expect(wakeUps >= sound.buffer.frameCount / playback.bufferFrames)
        let recorded = Self.samples(try folder.read("out.raw"))
        #expect(recorded.count >= sound.buffer.samples.count)
        #expect(Array(recorded.prefix(sound.buffer.samples.count)) == sound.buffer.samples)
        #expect(
            recorded.dropFirst(sound.buffer.samples.count).allSatisfy { $0 == 0 }, "padding after the sound is silence")
        #expect(playback.firstProgressAt.map { $0 >= playback.startedAt! } == true)
        // After finishing, the handle reports nothing more.
        #expect(playback.handlePoll(revents: []) == nil)
    }

    /// The booth's volume scales every sample on its way to the device (rounded), whole sound through;
    /// the next play at full volume is the prepared samples again.
    @Test func aVolumeBelowFullScalesEverySample() throws {
        let folder = try TemporaryFolder()
        let playback = try ALSAPlayback(
            device: Self.recordingDevice(folder), sampleRate: 48_000, channels: 2, clock: KernelClock())
        let sound = playback.prepare(SoundSynthesizer.render(.duck, sampleRate: 48_000))
        try playback.play(sound, volume: 0.3)
        #expect(Self.runUntilIdle(playback).events == [.finished])
        let recorded = Self.samples(try folder.read("out.raw"))
        let expected = sound.buffer.samples.map { Int16((Double($0) * 0.3).rounded()) }
        #expect(recorded.count >= expected.count)
        #expect(Array(recorded.prefix(expected.count)) == expected)
        #expect(expected.contains { $0 != 0 } && expected != sound.buffer.samples)
    }

    @Test func allWrittenBeforeFinishedIsReported() throws {
        let folder = try TemporaryFolder()
        let playback = try ALSAPlayback(
            device: Self.recordingDevice(folder), sampleRate: 48_000, channels: 1, clock: KernelClock())
        let sound = playback.prepare(SoundSynthesizer.render(.bell, sampleRate: 48_000))
        try playback.play(sound)
        var finishedAfterBytes: Int?
        let deadline = Date().addingTimeInterval(5)
        while playback.isPlaying && Date() < deadline {
            var descriptors = playback.pollDescriptors
            guard poll(&descriptors, nfds_t(descriptors.count), 100) > 0 else { continue }
            if playback.handlePoll(revents: descriptors) == .finished {
                finishedAfterBytes = try folder.read("out.raw").count
            }
        }
        let bytes = try #require(finishedAfterBytes)
        #expect(bytes >= sound.buffer.samples.count * 2)
    }

    @Test func secondPlayCutsTheFirst() throws {
        let folder = try TemporaryFolder()
        let playback = try ALSAPlayback(
            device: Self.recordingDevice(folder), sampleRate: 48_000, channels: 1, clock: KernelClock())
        let cow = playback.prepare(SoundSynthesizer.render(.cow, sampleRate: 48_000)).buffer.samples
        let pop = playback.prepare(SoundSynthesizer.render(.pop, sampleRate: 48_000))
        try playback.play(playback.prepare(SoundSynthesizer.render(.cow, sampleRate: 48_000)))
        var descriptors = playback.pollDescriptors
        _ = poll(&descriptors, nfds_t(descriptors.count), 100)
        #expect(playback.handlePoll(revents: descriptors) == nil)
        try playback.play(pop)
        let (events, _) = Self.runUntilIdle(playback)
        #expect(events == [.finished])

        let recorded = Self.samples(try folder.read("out.raw"))
        // The recording is: the start of the cow, cut, then the whole pop, then silence.
        let common = zip(recorded, cow).prefix { $0 == $1 }.count
        let popCount = pop.buffer.samples.count
        let cut = (0...common).first { k in
            k + popCount <= recorded.count && recorded[k] == pop.buffer.samples[0]
                && recorded[k..<(k + popCount)].elementsEqual(pop.buffer.samples)
        }
        let cutAt = try #require(cut, "the pop is not in the recording right after part of the cow")
        #expect(cutAt > 0 && cutAt < cow.count / 2, "cow cut after \(cutAt) of \(cow.count) frames")
        #expect(recorded[(cutAt + popCount)...].allSatisfy { $0 == 0 })
    }

    /// The stream starts with a whole buffer queued, at full volume and scaled alike: a loop paused right
    /// after the start (a busy machine) has the buffer's length, not one period, before the device runs dry.
    /// A sound shorter than the buffer goes in whole.
    @Test(arguments: [1.0, 0.3])
    func theFirstWriteIsAWholeBuffer(volume: Double) throws {
        let folder = try TemporaryFolder()
        let playback = try ALSAPlayback(
            device: Self.recordingDevice(folder), sampleRate: 48_000, channels: 2, clock: KernelClock())
        let cow = playback.prepare(SoundSynthesizer.render(.cow, sampleRate: 48_000))
        #expect(cow.buffer.frameCount > playback.bufferFrames)
        try playback.play(cow, volume: volume)
        #expect(playback.firstWriteFrames == playback.bufferFrames)
        #expect(Self.runUntilIdle(playback).events == [.finished])
        let pop = playback.prepare(SoundSynthesizer.render(.pop, sampleRate: 48_000))
        try playback.play(pop, volume: volume)
        #expect(playback.firstWriteFrames == min(pop.buffer.frameCount, playback.bufferFrames))
        #expect(Self.runUntilIdle(playback).events == [.finished])
    }

    /// The longest time the loop left the device alone during a sound is measured on the caller's clock
    /// from `play`, and starts again with the next sound.
    @Test func longestWaitBetweenWakeUpsIsKeptPerSound() throws {
        let folder = try TemporaryFolder()
        let clock = ManualClock(at: Instant(nanoseconds: 1_000_000_000))
        let playback = try ALSAPlayback(
            device: Self.recordingDevice(folder), sampleRate: 48_000, channels: 1, clock: clock)
        let long = playback.prepare(SoundSynthesizer.render(.cow, sampleRate: 48_000))
        try playback.play(long)
        var wakeUps = 0
        while playback.isPlaying && wakeUps < 10_000 {
            // 2 ms between wake-ups, but 250 ms before the third: a loop that was busy elsewhere.
            clock.advance(by: wakeUps == 2 ? .milliseconds(250) : .milliseconds(2))
            var descriptors = playback.pollDescriptors
            guard poll(&descriptors, nfds_t(descriptors.count), 100) > 0 else { continue }
            wakeUps += 1
            _ = playback.handlePoll(revents: descriptors)
        }
        #expect(!playback.isPlaying && wakeUps > 3)
        #expect(playback.longestWait == .milliseconds(250))
        #expect(playback.soundUnderruns == 0, "the null device never runs dry")

        try playback.play(playback.prepare(SoundSynthesizer.render(.pop, sampleRate: 48_000)))
        #expect(playback.longestWait == .zero)
        clock.advance(by: .milliseconds(7))
        #expect(Self.runUntilIdle(playback).events == [.finished])
        #expect(playback.longestWait == .milliseconds(7))
    }

    @Test func soundShorterThanAPeriodStillStartsAndFinishes() throws {
        let folder = try TemporaryFolder()
        let playback = try ALSAPlayback(
            device: Self.recordingDevice(folder), sampleRate: 48_000, channels: 1, clock: KernelClock())
        let blip = PreparedSound(
            PCMBuffer(samples: (1...100).map { Int16($0 * 100) }, sampleRate: 48_000, channels: 1), sampleRate: 48_000,
            channels: 1)
        try playback.play(blip)
        #expect(Self.runUntilIdle(playback).events == [.finished])
        let recorded = Self.samples(try folder.read("out.raw"))
        #expect(Array(recorded.prefix(100)) == blip.buffer.samples)
    }

    @Test func stereoDeviceGetsConvertedSamples() throws {
        let folder = try TemporaryFolder()
        let playback = try ALSAPlayback(
            device: Self.recordingDevice(folder), sampleRate: 44_100, channels: 2, clock: KernelClock())
        #expect(playback.sampleRate == 44_100)
        let source = SoundSynthesizer.render(.chime, sampleRate: 48_000)
        let sound = playback.prepare(source, gainDecibels: -6)
        #expect(sound.buffer.channels == 2 && sound.buffer.sampleRate == 44_100)
        #expect(abs(sound.buffer.duration.inSeconds - source.duration.inSeconds) < 1.0 / 44_100)
        try playback.play(sound)
        #expect(Self.runUntilIdle(playback).events == [.finished])
        let recorded = Self.samples(try folder.read("out.raw"))
        #expect(Array(recorded.prefix(sound.buffer.samples.count)) == sound.buffer.samples)
    }

    @Test func stopSilencesAndIdles() throws {
        let folder = try TemporaryFolder()
        let playback = try ALSAPlayback(
            device: Self.recordingDevice(folder), sampleRate: 48_000, channels: 1, clock: KernelClock())
        try playback.play(playback.prepare(SoundSynthesizer.render(.whistle, sampleRate: 48_000)))
        #expect(!playback.pollDescriptors.isEmpty)
        playback.stop()
        #expect(!playback.isPlaying)
        #expect(playback.pollDescriptors.isEmpty)
        #expect(playback.handlePoll(revents: []) == nil)
        // Playing again after stop works.
        try playback.play(playback.prepare(SoundSynthesizer.render(.pop, sampleRate: 48_000)))
        #expect(Self.runUntilIdle(playback).events == [.finished])
    }

    @Test func missingDeviceNamesOperationDeviceAndFix() {
        #expect {
            _ = try ALSAPlayback(
                device: "hw:CARD=NoSuchBoothCard", sampleRate: 48_000, channels: 1, clock: KernelClock())
        } throws: { error in
            guard let error = error as? SoundDeviceError else { return false }
            return error.kind == .missingDevice && error.operation == "snd_pcm_open"
                && error.description.contains("'hw:CARD=NoSuchBoothCard'")
                && error.description.contains("aplay -L")
        }
        #expect(throws: SoundDeviceError.self) {
            _ = try ALSAPlayback(
                device: "no_such_pcm_definition", sampleRate: 48_000, channels: 1, clock: KernelClock())
        }
    }

    @Test func errorTextsGiveTheFixPerKind() {
        let busy = SoundDeviceError(operation: "snd_pcm_open", device: "hw:CARD=Headphones", errno: -EBUSY)
        #expect(busy.kind == .busy)
        #expect(
            busy.description.hasPrefix(
                "snd_pcm_open on sound device 'hw:CARD=Headphones' failed: Device or resource busy (EBUSY)."))
        #expect(busy.description.contains("PipeWire/PulseAudio"))
        let denied = SoundDeviceError(operation: "snd_pcm_open", device: "hw:0", errno: EACCES)
        #expect(denied.kind == .permissionDenied)
        #expect(denied.description.contains("group 'audio'"))
        let format = SoundDeviceError(operation: "snd_pcm_hw_params_set_rate_near", device: "hw:0", errno: EINVAL)
        #expect(format.kind == .other)
        #expect(format.description.contains("plughw:CARD="))
    }
}
