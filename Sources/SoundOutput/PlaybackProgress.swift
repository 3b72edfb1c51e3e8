// PlaybackProgress: which frames go to ALSA next, and whether the last real frame has been played.

/// The pure bookkeeping of one sound between `play` and `.finished`; no I/O.
///
/// Real frames are written first, then silence keeps the device running. The device reports its
/// delay (frames written but not yet played); since all silence sits behind the last real frame,
/// that frame has been played once the delay is no more than the silence written.
struct PlaybackProgress: Equatable {
    /// Where the sound is.
    enum State: Equatable {
        /// Real frames remain; `framesWritten` are with the device.
        case writing(framesWritten: Int)
        /// Every real frame is with the device, followed by `silenceFrames` of silence.
        case draining(silenceFrames: Int)
    }

    /// What to hand to the device next.
    enum Write: Equatable {
        /// Real frames `from..<from + count`.
        case sound(from: Int, count: Int)
        /// `count` frames of silence.
        case silence(count: Int)
    }

    /// Frames in the sound.
    let soundFrames: Int
    /// Current state.
    private(set) var state = State.writing(framesWritten: 0)

    /// Progress of a sound of `soundFrames` frames, nothing written yet.
    init(soundFrames: Int) {
        precondition(soundFrames >= 0, "negative frame count \(soundFrames)")
        self.soundFrames = soundFrames
        if soundFrames == 0 { state = .draining(silenceFrames: 0) }
    }

    /// The next write of at most `budget` frames; silence comes in pieces of at most `period`.
    func nextWrite(budget: Int, period: Int) -> Write {
        switch state {
        case .writing(let written): .sound(from: written, count: min(soundFrames - written, budget))
        case .draining: .silence(count: min(period, budget))
        }
    }

    /// Records that the device accepted `frames` frames of the last `nextWrite`.
    mutating func accepted(_ frames: Int) {
        switch state {
        case .writing(let written):
            precondition(written + frames <= soundFrames, "device accepted more frames than offered")
            state =
                written + frames == soundFrames
                ? .draining(silenceFrames: 0) : .writing(framesWritten: written + frames)
        case .draining(let silence):
            state = .draining(silenceFrames: silence + frames)
        }
    }

    /// Frames, real and silent, handed to the device so far.
    var framesWritten: Int {
        switch state {
        case .writing(let written): written
        case .draining(let silence): soundFrames + silence
        }
    }

    /// True when every real frame is with the device.
    var isDraining: Bool {
        if case .draining = state { return true }
        return false
    }

    /// True when a device still holding `delay` unplayed frames has played the last real frame.
    func hasPlayedLastFrame(delay: Int) -> Bool {
        guard case .draining(let silence) = state else { return false }
        return delay <= silence
    }
}
