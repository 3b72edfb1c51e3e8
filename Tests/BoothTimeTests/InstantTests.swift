// InstantTests: instants and durations add up exactly, in both directions.
import BoothTime
import Testing

@Suite struct InstantTests {
    @Test("moving an instant and measuring between two are each other's inverse")
    func arithmeticIsExact() {
        let start = Instant(nanoseconds: 5_000_000_000)
        let later = start + .milliseconds(250)
        #expect(later.nanoseconds == 5_250_000_000)
        #expect(later - start == .milliseconds(250))
        #expect(later.since(start) == later - start)
        #expect(later - .milliseconds(250) == start)
        #expect(start.advanced(by: .nanoseconds(-1)) < start)
        #expect(start - later == .milliseconds(-250))
        #expect(Instant.seconds(1.5) == Instant(nanoseconds: 1_500_000_000))
        #expect(Duration.seconds(toTheNanosecond: 0.009) == .milliseconds(9))
        #expect(later.microseconds == 5_250_000)
    }

    @Test("a duration moves an instant to the nearest nanosecond, so a decimal number of seconds lands exactly")
    func durationsMoveInstantsToTheNearestNanosecond() {
        let origin = Instant(nanoseconds: 0)
        // `.seconds(0.009)` is a few attoseconds short of 9 ms (0.009 is not exact as a double): still 9 ms exactly,
        // not one nanosecond less.
        #expect(Duration.seconds(0.009) < .milliseconds(9))
        #expect((origin + .seconds(0.009)).nanoseconds == 9_000_000)
        #expect((origin - .seconds(0.009)).nanoseconds == -9_000_000)
        #expect(
            (origin + .nanoseconds(3) + .init(secondsComponent: 0, attosecondsComponent: 499_999_999)).nanoseconds == 3)
        #expect(
            (origin + .nanoseconds(3) + .init(secondsComponent: 0, attosecondsComponent: 500_000_000)).nanoseconds == 4)
        #expect(Duration.seconds(2).inNanoseconds + Duration.nanoseconds(7).inNanoseconds == 2_000_000_007)
    }

    @Test("a duration in the whole units records and messages use")
    func durationsInWholeUnits() {
        #expect(Duration.milliseconds(1_999).inMilliseconds == 1_999)
        #expect(Duration.microseconds(1_999).inMilliseconds == 1)
        #expect(Duration.microseconds(-1_999).inMilliseconds == -1)
        #expect(Duration.nanoseconds(2_500).inMicroseconds == 2)
        #expect(Duration.milliseconds(250).inSeconds == 0.25)
    }

    @Test("a message says a duration in milliseconds below a second, else in seconds to the tenth")
    func durationsSpoken() {
        #expect(Duration.milliseconds(300).spoken == "300 ms")
        #expect(Duration.seconds(10).spoken == "10 s")
        #expect(Duration.milliseconds(1_500).spoken == "1.5 s")
        #expect(Duration.milliseconds(2_960).spoken == "3 s")
        #expect(Duration.milliseconds(-1_500).spoken == "-1.5 s")
        #expect(Duration.zero.spoken == "0 ms")
    }
}
