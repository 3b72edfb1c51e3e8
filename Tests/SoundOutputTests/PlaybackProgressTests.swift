// Tests for PlaybackProgress against a simulated real-time device: `.finished` only once the last
// real frame has been played, and no more than one period later.

import Testing

@testable import SoundOutput

@Suite struct PlaybackProgressTests {
    /// A device with a `buffer`-frame ring that plays `period` frames per tick once started.
    struct PacedDevice {
        let buffer: Int
        let period: Int
        var written = 0
        var played = 0
        var running = false
        var delay: Int { written - played }
        var avail: Int { buffer - delay }

        mutating func write(_ frames: Int) -> Int {
            let taken = min(frames, avail)
            written += taken
            if written >= period { running = true }  // start threshold: one period
            return taken
        }

        mutating func tick() {
            if running { played = min(written, played + period) }
        }
    }

    /// Fills like ALSAPlayback.fill: at most one buffer per wake-up, until the device is full.
    func fill(_ progress: inout PlaybackProgress, _ device: inout PacedDevice) {
        var budget = device.buffer
        while budget > 0 {
            let offered: Int
            switch progress.nextWrite(budget: budget, period: device.period) {
            case .sound(_, let count): offered = count
            case .silence(let count): offered = count
            }
            let taken = device.write(offered)
            if taken == 0 { return }
            progress.accepted(taken)
            budget -= taken
        }
    }

    @Test(arguments: [1, 100, 256, 1000, 1024, 4097, 14_400])
    func finishedExactlyWhenTheLastFrameHasBeenPlayed(soundFrames: Int) throws {
        var device = PacedDevice(buffer: 1024, period: 256)
        var progress = PlaybackProgress(soundFrames: soundFrames)
        fill(&progress, &device)
        var finishedAtPlayed: Int?
        for _ in 0..<1_000 {
            device.tick()
            if progress.hasPlayedLastFrame(delay: device.delay) {
                finishedAtPlayed = device.played
                break
            }
            fill(&progress, &device)
        }
        let played = try #require(finishedAtPlayed)
        #expect(played >= soundFrames, "reported finished with only \(played) of \(soundFrames) frames played")
        #expect(played < soundFrames + device.period, "reported \(played - soundFrames) frames late")
    }

    @Test func writesTheSoundThenSilenceInPeriods() {
        var progress = PlaybackProgress(soundFrames: 600)
        #expect(progress.nextWrite(budget: 1024, period: 256) == .sound(from: 0, count: 600))
        progress.accepted(500)
        #expect(progress.nextWrite(budget: 1024, period: 256) == .sound(from: 500, count: 100))
        #expect(!progress.isDraining)
        #expect(!progress.hasPlayedLastFrame(delay: 0), "not finished while real frames remain unwritten")
        progress.accepted(100)
        #expect(progress.isDraining)
        #expect(progress.nextWrite(budget: 1024, period: 256) == .silence(count: 256))
        progress.accepted(256)
        #expect(progress.framesWritten == 856)
        #expect(!progress.hasPlayedLastFrame(delay: 257))
        #expect(progress.hasPlayedLastFrame(delay: 256))
    }
}
