// ClockMarkTests: the gallery's clock mark round-trips, and a damaged one is refused.
import Testing

@testable import BoothCore

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
}
