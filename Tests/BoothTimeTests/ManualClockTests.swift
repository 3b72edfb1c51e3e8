// ManualClockTests: a test's clock shows exactly the time the test set, and never goes back.
import BoothTime
import Testing

@Suite struct ManualClockTests {
    @Test("now is where the test put the clock")
    func nowIsWhatTheTestSet() {
        let clock = ManualClock(at: Instant(nanoseconds: 1_000))
        #expect(clock.now() == Instant(nanoseconds: 1_000))
        clock.advance(by: .milliseconds(2))
        #expect(clock.now() == Instant(nanoseconds: 2_001_000))
        #expect(clock.now() == clock.now(), "nothing moves it but the test")
        clock.current = Instant(nanoseconds: 9_000_000)
        let reader: any MonotonicClock = clock
        #expect(reader.now() == Instant(nanoseconds: 9_000_000))
    }
}
