// WallTimeTests: calendar fields of wall-clock seconds, and the wall clock read.
import BoothSystem
import Testing

@Suite struct WallTimeTests {
    @Test func secondsInUTCBreakIntoTheirCalendarFields() {
        let time = WallTime(seconds: 1_796_380_245, local: false)
        #expect(
            [time.year, time.month, time.day, time.hour, time.minute, time.second] == [2026, 12, 4, 10, 30, 45])
        #expect(time.utcOffset == 0)
        #expect(time.text == "2026-12-04 10:30:45")
    }

    @Test func singleDigitFieldsArePaddedAndTheEpochIsItself() {
        #expect(WallTime(seconds: 0, local: false).text == "1970-01-01 00:00:00")
        #expect(WallTime(seconds: 1_709_168_461, local: false).text == "2024-02-29 01:01:01")
    }

    @Test func localTimeIsUTCMovedByItsOwnOffset() {
        let seconds: Int64 = 1_796_380_245
        let local = WallTime(seconds: seconds, local: true)
        #expect(
            local == WallTime(seconds: seconds + Int64(local.utcOffset), local: false).with(offset: local.utcOffset))
    }

    @Test func theWallClockIsReadInMicroseconds() {
        let before = WallTime.nowMicroseconds()
        let now = WallTime.now(local: false)
        let after = WallTime.nowMicroseconds()
        #expect(before > 1_700_000_000_000_000 && before <= after)
        #expect(now.year >= 2023)
    }
}

extension WallTime {
    fileprivate func with(offset: Int) -> WallTime {
        var copy = self
        copy.utcOffset = offset
        return copy
    }
}
