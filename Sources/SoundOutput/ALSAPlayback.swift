// ALSAPlayback: non-blocking ALSA PCM output driven by someone else's poll/epoll loop.

import BoothSystem
import BoothTime
import CALSA

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Plays one `PreparedSound` at a time on an ALSA PCM device without ever blocking.
///
/// Single-threaded: call everything from the thread that runs the event loop. The loop registers
/// `pollDescriptors` while `isPlaying` is true, passes their readiness to `handlePoll(revents:)`, and
/// removes them when `handlePoll` returns an event or after `stop()`. While idle the stream is stopped
/// and its descriptors must not be polled (a stopped ALSA stream reports POLLERR continuously).
///
/// Completion: after the last real sample is written, the stream is kept running with silence and
/// `snd_pcm_delay` is compared with the silence queued behind the sound. When the delay (frames
/// written but not yet played) is no more than that silence, the last real sample has left the
/// device and `.finished` is reported; an underrun while padding means the same. The check runs on
/// every period wake-up, so `.finished` comes at most one period (5.3 ms at 256 frames, 48 kHz) late.
public final class ALSAPlayback {
    /// The ALSA device name this playback opened.
    public let device: String
    /// The rate the device accepted, in frames per second.
    public let sampleRate: Int
    /// The channel count the device plays.
    public let channels: Int
    /// Frames per period, as the device accepted them; ALSA wakes the loop once per period.
    public let periodFrames: Int
    /// Frames in the device buffer (about `bufferPeriods` periods).
    public let bufferFrames: Int
    /// Just after the current sound's first write (a buffer, or the whole sound if shorter; the stream started
    /// with it) was handed to ALSA by `play`.
    public private(set) var startedAt: Instant?
    /// The first `handlePoll` that saw the device consume frames.
    public private(set) var firstProgressAt: Instant?
    /// Underruns recovered from since this playback was opened.
    public private(set) var underrunCount = 0
    /// Frames the first write of the current (or latest) sound handed to ALSA: the stream starts only at
    /// the end of that write, with all of them queued (a buffer, or the whole sound if shorter).
    public private(set) var firstWriteFrames = 0
    /// Underruns recovered from during the current (or latest) sound: each is a gap in what was heard.
    public private(set) var soundUnderruns = 0
    /// The longest time between two wake-ups (`play`, then each `handlePoll`) during the
    /// current (or latest) sound. Past the buffer's length (`bufferFrames` at `sampleRate`) the device ran dry.
    public private(set) var longestWait: Duration = .zero

    private let pcm: OpaquePointer
    /// The sound being played and how far it got; nil when idle.
    private var current: (sound: PreparedSound, progress: PlaybackProgress)?
    private let silence: [Int16]
    /// The share of each sample's amplitude played (the booth's volume); 1 writes the sound as prepared.
    private var volume = 1.0
    /// One buffer of scaled samples, written when `volume` is below 1.
    private var scaled: [Int16]
    private var cachedDeviceStart: Instant?
    /// When `play` or `handlePoll` last ran for the current sound.
    private var lastWake: Instant?
    /// The caller's clock: the kernel's (ALSA's timestamps are on it), or a test's.
    private let clock: any MonotonicClock

    /// Opens `device` (e.g. "plughw:CARD=Headphones") non-blocking for 16-bit interleaved playback
    /// at `sampleRate` with `channels` channels, a buffer of `bufferPeriods` `periodFrames` periods,
    /// starting as soon as one period is written. The start threshold and wake-ups are one period
    /// whatever the buffer, so a long buffer costs no latency (`stop` drops it at once) and lets the
    /// loop be late by that much without an underrun (32 × 256 frames: 170 ms at 48 kHz). `clock` gives
    /// the start and progress times: the kernel's clock (`KernelClock`), which ALSA's timestamps are on.
    public init(
        device: String, sampleRate: Int, channels: Int, periodFrames: Int = 256, bufferPeriods: Int = 32,
        clock: any MonotonicClock
    ) throws(SoundDeviceError) {
        precondition(
            sampleRate > 0 && channels > 0 && periodFrames > 0 && bufferPeriods >= 2, "invalid playback format")
        booth_alsa_quiet()  // Failures come back as SoundDeviceError, with the fix; alsa-lib's lines are noise.
        self.device = device
        self.clock = clock
        var handle: OpaquePointer?
        try Self.check(
            snd_pcm_open(&handle, device, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK), "snd_pcm_open", device)
        guard let handle else { throw SoundDeviceError(operation: "snd_pcm_open", device: device, errno: EINVAL) }
        do {
            let format = try Self.configure(
                handle, device: device, sampleRate: sampleRate, channels: channels, periodFrames: periodFrames,
                bufferPeriods: bufferPeriods)
            self.pcm = handle
            self.sampleRate = format.rate
            self.channels = channels
            self.periodFrames = format.period
            self.bufferFrames = format.buffer
            self.silence = [Int16](repeating: 0, count: format.period * channels)
            self.scaled = [Int16](repeating: 0, count: format.buffer * channels)
        } catch {
            snd_pcm_close(handle)
            throw error
        }
    }

    deinit {
        snd_pcm_drop(pcm)
        snd_pcm_close(pcm)
    }

    /// True from `play` until `.finished`, `.failed` or `stop()`.
    public var isPlaying: Bool {
        current != nil
    }

    /// `source` converted for this device (rate, channels, gain). Do it ahead of time, not in the loop.
    public func prepare(_ source: PCMBuffer, gainDecibels: Double = 0) -> PreparedSound {
        PreparedSound(source, sampleRate: sampleRate, channels: channels, gainDecibels: gainDecibels)
    }

    /// Cuts any current sound and starts `sound` at `volume` (0...1 of its amplitude): a whole buffer
    /// (the whole sound, if shorter) goes to ALSA in one write, and the stream starts at the end of that
    /// write, so a loop paused right after the start (a busy machine) still has the buffer's length before
    /// the device runs dry. Re-read `pollDescriptors` afterwards.
    public func play(_ sound: PreparedSound, volume: Double = 1) throws(SoundDeviceError) {
        precondition(
            sound.buffer.sampleRate == sampleRate && sound.buffer.channels == channels,
            "sound prepared for \(sound.buffer.sampleRate) Hz × \(sound.buffer.channels), device plays \(sampleRate) Hz × \(channels)"
        )
        snd_pcm_drop(pcm)
        current = nil
        self.volume = min(max(volume, 0), 1)
        startedAt = nil
        firstProgressAt = nil
        cachedDeviceStart = nil
        firstWriteFrames = 0
        soundUnderruns = 0
        longestWait = .zero
        lastWake = nil
        try Self.check(snd_pcm_prepare(pcm), "snd_pcm_prepare", device)
        current = (sound, PlaybackProgress(soundFrames: sound.buffer.frameCount))
        do {
            try fill()
            lastWake = clock.now()
        } catch {
            stop()
            throw error
        }
    }

    /// Silences the device at once and forgets the current sound. Harmless when idle.
    public func stop() {
        snd_pcm_drop(pcm)
        current = nil
    }

    /// The descriptors to poll while `isPlaying` (empty when idle). The corresponding C function is
    /// `snd_pcm_poll_descriptors`.
    public var pollDescriptors: [pollfd] {
        guard isPlaying else { return [] }
        let count = Int(snd_pcm_poll_descriptors_count(pcm))
        guard count > 0 else { return [] }
        var descriptors = [pollfd](repeating: pollfd(), count: count)
        let filled = snd_pcm_poll_descriptors(pcm, &descriptors, UInt32(count))
        return Array(descriptors.prefix(max(0, Int(filled))))
    }

    /// Handles readiness of `pollDescriptors` (with `revents` filled in by poll/epoll): writes more
    /// samples or silence, recovers from underruns, and reports when the sound has been played.
    public func handlePoll(revents: [pollfd]) -> PlaybackEvent? {
        guard isPlaying else { return nil }
        noteWake()
        var descriptors = revents
        var events: UInt16 = 0
        if !descriptors.isEmpty {
            let result = snd_pcm_poll_descriptors_revents(pcm, &descriptors, UInt32(descriptors.count), &events)
            if result < 0 { return fail("snd_pcm_poll_descriptors_revents", result) }
            guard events & UInt16(POLLOUT | POLLERR) != 0 else { return nil }
        }
        if events & UInt16(POLLERR) != 0 || isStreamBroken() {
            // An underrun after every real frame was written means the sound has been played.
            if current?.progress.isDraining == true { return finish() }
            let result = snd_pcm_recover(pcm, -EPIPE, 1)
            if result < 0 { return fail("snd_pcm_recover", result) }
            noteUnderrun()
        }
        if let progress = current?.progress, progress.isDraining {
            var delay: snd_pcm_sframes_t = 0
            let result = snd_pcm_delay(pcm, &delay)
            if result == -EPIPE { return finish() }
            if result < 0 { return fail("snd_pcm_delay", result) }
            noteProgress(queued: Int(delay), written: progress.framesWritten)
            if progress.hasPlayedLastFrame(delay: Int(delay)) { return finish() }
        }
        do {
            try fill()
        } catch {
            stop()
            return .failed(error)
        }
        if firstProgressAt == nil, let written = current?.progress.framesWritten {
            var delay: snd_pcm_sframes_t = 0
            if snd_pcm_delay(pcm, &delay) == 0 { noteProgress(queued: Int(delay), written: written) }
        }
        return nil
    }

    /// When ALSA started the stream for the current sound (the trigger timestamp of `snd_pcm_status`, on
    /// the kernel's CLOCK_MONOTONIC), or nil before it started.
    public var deviceStartedAt: Instant? {
        if let cachedDeviceStart { return cachedDeviceStart }
        guard isPlaying else { return nil }
        var status: OpaquePointer?
        guard snd_pcm_status_malloc(&status) == 0, let status else { return nil }
        defer { snd_pcm_status_free(status) }
        guard snd_pcm_status(pcm, status) == 0 else { return nil }
        let streamState = snd_pcm_status_get_state(status)
        guard streamState == SND_PCM_STATE_RUNNING || streamState == SND_PCM_STATE_DRAINING else { return nil }
        var stamp = snd_htimestamp_t()
        snd_pcm_status_get_trigger_htstamp(status, &stamp)
        guard stamp.tv_sec != 0 || stamp.tv_nsec != 0 else { return nil }
        cachedDeviceStart = Instant(stamp)
        return cachedDeviceStart
    }

    // MARK: - Writing

    /// Writes real samples, then silence, until ALSA takes no more or one buffer's worth went in.
    /// The bound matters for devices that never fill (the `null` plugin). Real samples go in as few
    /// writes as the buffer allows: the first write of a sound is a whole buffer.
    private func fill() throws(SoundDeviceError) {
        var budget = bufferFrames
        while budget > 0, let (sound, progress) = current {
            let count: Int
            switch progress.nextWrite(budget: budget, period: periodFrames) {
            case .sound(let from, let frames) where volume == 1:
                count = try sound.buffer.samples.withUnsafeBufferPointer { samples throws(SoundDeviceError) in
                    try write(samples.baseAddress! + from * channels, frames: frames)
                }
            case .sound(let from, let frames):
                // Scaled on the way into a buffer of its own (a multiplication a sample).
                let taken = min(frames, scaled.count / channels)
                let range = from * channels..<(from + taken) * channels
                sound.buffer.samples.withUnsafeBufferPointer { samples in
                    scaled.withUnsafeMutableBufferPointer { out in
                        Self.scale(UnsafeBufferPointer(rebasing: samples[range]), by: volume, into: out)
                    }
                }
                count = try scaled.withUnsafeBufferPointer { samples throws(SoundDeviceError) in
                    try write(samples.baseAddress!, frames: taken)
                }
            case .silence(let frames):
                count = try silence.withUnsafeBufferPointer { zeros throws(SoundDeviceError) in
                    try write(zeros.baseAddress!, frames: frames)
                }
            }
            if count == 0 { return }
            if startedAt == nil {
                startedAt = clock.now()
                firstWriteFrames = count
            }
            current?.progress.accepted(count)
            budget -= count
        }
    }

    /// `samples` at `volume` of their amplitude, rounded, into the start of `output`.
    static func scale(
        _ samples: UnsafeBufferPointer<Int16>, by volume: Double, into output: UnsafeMutableBufferPointer<Int16>
    ) {
        for index in samples.indices {
            output[index] = Int16((Double(samples[index]) * volume).rounded())
        }
    }

    /// One non-blocking `snd_pcm_writei`; returns frames taken (0 when the buffer is full).
    /// An underrun is recovered (the stream restarts once a period is written again).
    private func write(_ samples: UnsafePointer<Int16>, frames: Int) throws(SoundDeviceError) -> Int {
        for _ in 0..<2 {
            let result = snd_pcm_writei(pcm, samples, snd_pcm_uframes_t(frames))
            if result >= 0 { return Int(result) }
            let code = Int32(result)
            if code == -EAGAIN { return 0 }
            guard code == -EPIPE || code == -ESTRPIPE || code == -EINTR else {
                throw SoundDeviceError(operation: "snd_pcm_writei", device: device, errno: code)
            }
            try Self.check(snd_pcm_recover(pcm, code, 1), "snd_pcm_recover", device)
            if code == -EPIPE { noteUnderrun() }
        }
        return 0
    }

    /// True when the stream is in XRUN or SUSPENDED and must be recovered.
    private func isStreamBroken() -> Bool {
        let current = snd_pcm_state(pcm)
        return current == SND_PCM_STATE_XRUN || current == SND_PCM_STATE_SUSPENDED
    }

    private func noteUnderrun() {
        underrunCount += 1
        soundUnderruns += 1
    }

    /// Notes a wake-up for the current sound and how long the loop left the device alone before it.
    private func noteWake() {
        let now = clock.now()
        if let last = lastWake, now > last {
            longestWait = max(longestWait, now.since(last))
        }
        lastWake = now
    }

    private func noteProgress(queued: Int, written: Int) {
        if firstProgressAt == nil && queued < written {
            firstProgressAt = clock.now()
        }
    }

    private func finish() -> PlaybackEvent {
        if firstProgressAt == nil { firstProgressAt = clock.now() }
        _ = deviceStartedAt
        stop()
        return .finished
    }

    private func fail(_ operation: String, _ code: Int32) -> PlaybackEvent {
        stop()
        return .failed(SoundDeviceError(operation: operation, device: device, errno: code))
    }

    // MARK: - Setup

    /// Sets 16-bit interleaved hardware parameters and start/wake-up thresholds of one period.
    private static func configure(
        _ pcm: OpaquePointer, device: String, sampleRate: Int, channels: Int, periodFrames: Int, bufferPeriods: Int
    ) throws(SoundDeviceError) -> (rate: Int, period: Int, buffer: Int) {
        var hardware: OpaquePointer?
        try check(snd_pcm_hw_params_malloc(&hardware), "snd_pcm_hw_params_malloc", device)
        defer { snd_pcm_hw_params_free(hardware) }
        try check(snd_pcm_hw_params_any(pcm, hardware), "snd_pcm_hw_params_any", device)
        try check(
            snd_pcm_hw_params_set_access(pcm, hardware, SND_PCM_ACCESS_RW_INTERLEAVED),
            "snd_pcm_hw_params_set_access", device)
        try check(
            snd_pcm_hw_params_set_format(pcm, hardware, SND_PCM_FORMAT_S16_LE), "snd_pcm_hw_params_set_format",
            device)
        try check(
            snd_pcm_hw_params_set_channels(pcm, hardware, UInt32(channels)), "snd_pcm_hw_params_set_channels", device)
        var rate = UInt32(sampleRate)
        try check(
            snd_pcm_hw_params_set_rate_near(pcm, hardware, &rate, nil), "snd_pcm_hw_params_set_rate_near", device)
        var period = snd_pcm_uframes_t(periodFrames)
        try check(
            snd_pcm_hw_params_set_period_size_near(pcm, hardware, &period, nil),
            "snd_pcm_hw_params_set_period_size_near", device)
        var buffer = period * snd_pcm_uframes_t(bufferPeriods)
        try check(
            snd_pcm_hw_params_set_buffer_size_near(pcm, hardware, &buffer), "snd_pcm_hw_params_set_buffer_size_near",
            device)
        try check(snd_pcm_hw_params(pcm, hardware), "snd_pcm_hw_params", device)
        try check(
            snd_pcm_hw_params_get_period_size(hardware, &period, nil), "snd_pcm_hw_params_get_period_size", device)
        try check(snd_pcm_hw_params_get_buffer_size(hardware, &buffer), "snd_pcm_hw_params_get_buffer_size", device)

        var software: OpaquePointer?
        try check(snd_pcm_sw_params_malloc(&software), "snd_pcm_sw_params_malloc", device)
        defer { snd_pcm_sw_params_free(software) }
        try check(snd_pcm_sw_params_current(pcm, software), "snd_pcm_sw_params_current", device)
        try check(
            snd_pcm_sw_params_set_start_threshold(pcm, software, period), "snd_pcm_sw_params_set_start_threshold",
            device)
        try check(snd_pcm_sw_params_set_avail_min(pcm, software, period), "snd_pcm_sw_params_set_avail_min", device)
        try check(
            snd_pcm_sw_params_set_tstamp_mode(pcm, software, SND_PCM_TSTAMP_ENABLE),
            "snd_pcm_sw_params_set_tstamp_mode",
            device)
        try check(
            snd_pcm_sw_params_set_tstamp_type(pcm, software, SND_PCM_TSTAMP_TYPE_MONOTONIC),
            "snd_pcm_sw_params_set_tstamp_type", device)
        try check(snd_pcm_sw_params(pcm, software), "snd_pcm_sw_params", device)
        return (Int(rate), Int(period), Int(buffer))
    }

    /// Throws a `SoundDeviceError` for a negative alsa-lib result.
    private static func check(_ result: Int32, _ operation: String, _ device: String) throws(SoundDeviceError) {
        if result < 0 { throw SoundDeviceError(operation: operation, device: device, errno: result) }
    }
}
