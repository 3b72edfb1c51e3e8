// ClockMarkTests: the gallery's clock mark round-trips, and a damaged one is refused.
import BoothTime
import Testing

@testable import PhotoModel

@Suite struct ClockMarkTests {
    @Test func aMarkRoundTrips() {
        let mark = ClockMark(setTo: 1_790_000_000, was: 1_700_000_000, phone: "10.42.0.57")
        #expect(mark.text == "set_to 1790000000\nwas 1700000000\nphone 10.42.0.57\n")
        #expect(ClockMark.parse(mark.text) == mark)
    }

    @Test func aDamagedMarkIsRefused() {
        let whole = "set_to 1790000000\nwas 1700000000\nphone ::1\n"
        #expect(ClockMark.parse(whole) != nil)
        for damaged in [
            String(whole.prefix(30)), "set_to soon\nwas 1700000000\nphone ::1\n",
            "set_to 1790000000\nphone ::1\n", "",
        ] {
            #expect(ClockMark.parse(damaged) == nil, "\(damaged)")
        }
    }

    static let boot = "6f1c2a4e9b7d4c0e8a1f2b3c4d5e6f70"

    @Test func aMarksMomentRoundTripsAndAnOldMarkWithoutOneIsRead() throws {
        let at = try #require(BootInstant(boot: Self.boot, instant: .seconds(600)))
        let mark = ClockMark(setTo: 1_790_000_000, was: 1_700_000_000, phone: "10.42.0.57", at: at)
        #expect(mark.text.hasSuffix("phone 10.42.0.57\nat \(Self.boot)@600000000000\n"))
        #expect(ClockMark.parse(mark.text) == mark)
        #expect(ClockMark.parse("set_to 2\nwas 1\nphone ::1\n")?.at == nil)
        #expect(ClockMark.parse("set_to 2\nwas 1\nphone ::1\nat yesterday\n") == nil)
    }

    /// A photo taken undated 90.4 s before the clock was set was taken 91 whole seconds before the new time (the
    /// name's seconds count down); one after it, after; one of another boot, or with a mark that has no moment, is
    /// not dated.
    @Test func aMomentOfTheSameBootIsDatedByTheMonotonicTimeBetween() throws {
        let at = try #require(BootInstant(boot: Self.boot, instant: .seconds(600)))
        let mark = ClockMark(setTo: 1_790_000_000, was: 1_700_000_000, phone: "::1", at: at)
        let before = try #require(BootInstant(boot: Self.boot, instant: .seconds(509.6)))
        #expect(mark.seconds(of: before) == 1_789_999_909)
        let exactly = try #require(BootInstant(boot: Self.boot, instant: .seconds(500)))
        #expect(mark.seconds(of: exactly) == 1_789_999_900)
        let after = try #require(BootInstant(boot: Self.boot, instant: .seconds(602.5)))
        #expect(mark.seconds(of: after) == 1_790_000_002)
        let otherBoot = try #require(BootInstant(boot: String(repeating: "0", count: 32), instant: .seconds(509)))
        #expect(mark.seconds(of: otherBoot) == nil)
        #expect(ClockMark(setTo: 1_790_000_000, was: 0, phone: "::1").seconds(of: before) == nil)
    }
}
