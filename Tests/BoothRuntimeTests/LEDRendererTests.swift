// LEDRendererTests: patterns drawn on the lights at their exact change times, on a virtual loop clock.
import BoothCore
import BoothTime
import LEDCountdown
import Testing

@testable import BoothRuntime

@Suite(.timeLimit(.minutes(3))) struct LEDRendererTests {
    /// Draws with a renderer on a virtual clock; `script` runs at start with the renderer and the start
    /// time, the loop stops at `end`; returns each frame written with when it was due (from the start).
    func draw(
        until end: Duration, _ script: (LEDRenderer, EventLoop, Instant) -> Void
    ) throws -> [(bits: Int64, due: Int64)] {
        let loop = try EventLoop(clock: LoopClock(virtual: true))
        let lights = SimulatedLights(ledCount: 4)
        let log = try EventsLog(path: nil)
        let start = loop.now()
        var frames: [(Int64, Int64)] = []
        log.observers.append { type, _, fields in
            guard type == "leds" else { return }
            var bits: Int64 = -1
            var due: Int64 = -1
            for (key, value) in fields {
                if key == "bits", case .int(let v) = value { bits = v }
                if key == "scheduled_us", case .int(let v) = value { due = v - start.microseconds }
            }
            frames.append((bits, due))
        }
        let renderer = LEDRenderer(loop: loop, lights: lights, log: log)
        script(renderer, loop, start)
        loop.schedule(at: start.advanced(by: end)) { loop.stop() }
        try loop.run()
        #expect(lights.row.bits == UInt8(frames.last?.0 ?? 0), "the lights show the last frame written")
        return frames
    }

    @Test func aCountdownIsDrawnAtItsExactChangeTimesAndEndsDark() throws {
        let frames = try draw(until: .seconds(3)) { renderer, _, start in
            renderer.show(.countdown(halfSeconds: 4), since: start)
        }
        #expect(frames.map(\.bits) == [0b1111, 0, 0b0111, 0, 0b0011, 0, 0b0001, 0])
        #expect(frames.map(\.due) == [0, 250_000, 500_000, 750_000, 1_000_000, 1_250_000, 1_500_000, 1_750_000])
    }

    @Test func aNewPatternCancelsTheOldOnesNextChange() throws {
        let frames = try draw(until: .seconds(3)) { renderer, loop, start in
            renderer.show(.countdown(halfSeconds: 4), since: start)
            loop.schedule(at: start.advanced(by: .milliseconds(600))) {
                renderer.show(.allOn, since: start.advanced(by: .milliseconds(600)))
            }
        }
        #expect(frames.map(\.bits) == [0b1111, 0, 0b0111, 0b1111])
        #expect(frames.last?.due == 600_000)
    }

    @Test func aFrameAlreadyShownIsNotWrittenAgain() throws {
        let frames = try draw(until: .seconds(1)) { renderer, _, start in
            renderer.show(.allOn, since: start)
            renderer.show(.allOn, since: start)
            renderer.show(.off, since: start)
            renderer.show(.off, since: start)
        }
        #expect(frames.map(\.bits) == [0b1111, 0])
    }
}
