// InstantTests: instants and durations add up exactly, in both directions.
import BoothTime
import Testing

@Suite struct InstantTests {
    @Test("moving an instant and measuring between two are each other's inverse")
    func arithmeticIsExact() {
        let start = Instant(nanoseconds: 5_000_000_000)
        let later = start + .milliseconds(250)
        #expect(later.nanoseconds == 5_250_000_000)
        #expect(later - start == 250_000_000)
        #expect(later.since(start) == later - start)
        #expect(later - .milliseconds(250) == start)
        #expect(start.advanced(by: -1) < start)
        #expect(Instant.seconds(1.5) == Instant(nanoseconds: 1_500_000_000))
        #expect(later.microseconds == 5_250_000)
    }

    @Test("a Swift Duration in nanoseconds, below a nanosecond rounded toward zero")
    func durationsInNanoseconds() {
        #expect(Int64.nanoseconds(.milliseconds(10)) == 10_000_000)
        #expect(Int64.nanoseconds(.seconds(2) + .nanoseconds(7)) == 2_000_000_007)
        #expect(Int64.nanoseconds(.nanoseconds(3) + .init(secondsComponent: 0, attosecondsComponent: 999_999_999)) == 3)
        #expect(Int64.milliseconds(3) == 3_000_000)
        #expect(Int64.seconds(0.25) == 250_000_000)
    }
}
