// EventStatsTests: `booth stats`' summary of photos, sounds, aborts, latencies and temperatures.
import Testing

@testable import BoothCore

@Suite struct EventStatsTests {
    /// A morning of a booth: two photos, a retake, a print and one that failed, a cancelled sequence, a restart, a cut
    /// last line.
    static let events = """
        {"t_us":100,"type":"ready","sound":"Duck"}
        {"t_us":1000,"type":"input","input":"buttonPressed","handled_us":1100}
        {"t_us":3000,"type":"soundStarted","sound":"Duck","purpose":"attention"}
        {"t_us":900000,"type":"capture","capture":"1.0","sensor_us":912000,"trigger_us":900000}
        {"t_us":990000,"type":"photoSaved","path":"/p/HeyLook_2026-11-22_10-00-00_000001.jpg","bytes":9}
        {"t_us":2000000,"type":"input","input":"buttonPressed","handled_us":2000100}
        {"t_us":2005000,"type":"soundStarted","sound":"Cow","purpose":"attention"}
        {"t_us":2100000,"type":"soundStarted","sound":"Cow","purpose":"preview"}
        {"t_us":2200000,"type":"error","message":"cancelled with the cancel button"}
        {"t_us":2200000,"type":"state","from":"countingDown","to":"aborted"}
        {"t_us":50,"type":"ready","sound":"Cow"}
        {"t_us":60,"type":"soundStarted","sound":"Cow","purpose":"attention"}
        {"t_us":4000,"type":"input","input":"buttonPressed","handled_us":4100}
        {"t_us":6000,"type":"soundStarted","sound":"Cow","purpose":"attention"}
        {"t_us":900000,"type":"capture","capture":"1.0","sensor_us":930000,"trigger_us":900000}
        {"t_us":990000,"type":"photoSaved","path":"/p/HeyLook_2026-11-23_09-00-00_000002.jpg","bytes":9}
        {"t_us":995000,"type":"photoDiscarded","path":"/p/HeyLook_2026-11-22_10-00-00_000001.jpg"}
        {"t_us":995500,"type":"printSent","path":"/p/HeyLook_2026-11-23_09-00-00_000002.jpg","job":4,"queue":"default"}
        {"t_us":995600,"type":"printFailed","path":"/p/HeyLook_2026-11-23_09-00-00_000003.jpg","reason":"no queue"}
        {"t_us":995700,"type":"printed","path":"/p/HeyLook_2026-11-23_09-00-00_000002.jpg","job":4}
        {"t_us":996000,"type":"temperature","millidegrees":51234}
        {"t_us":997000,"type":"temperature","millidegrees":48000}
        {"t_us":999000,"type":"state","from":"capturing","to":"aborted"}
        {"t_us":999999,"type":"photoSa
        """

    @Test func summarisesAMorning() {
        var stats = EventStats()
        for line in Self.events.split(separator: "\n", omittingEmptySubsequences: false) { stats.add(line: line) }
        #expect(stats.unreadable == 1)
        #expect(stats.starts == 2)
        #expect(stats.photosPerDay == ["2026-11-22": 1, "2026-11-23": 1])
        #expect(stats.discarded == 1)
        #expect(stats.prints == (sent: 1, printed: 1, failed: 1))
        #expect(stats.soundsUsed == ["Duck": 1, "Cow": 3])
        #expect(stats.aborts == ["cancelled with the cancel button": 1, "no reason reported": 1])
        // Each attention sound pairs with the press before it in the same run; the one after a restart
        // with no press (a scripted start) pairs with none.
        #expect(stats.pressToSound == [2000, 5000, 2000])
        #expect(stats.shutterLag == [12000, 30000])
        #expect(stats.temperatures == [51234, 48000])
        let report = stats.report
        #expect(report.contains("1 unreadable line(s) skipped"))
        #expect(report.contains("  2026-11-22      1"))
        #expect(report.contains("  prints: 1 sent to CUPS, 1 printed, 1 failed"))
        #expect(report.contains("press → sound         3     2.0     5.0     5.0     5.0"))
        #expect(report.contains("shutter lag           2    12.0    30.0    30.0    30.0"))
        #expect(report.contains("Temperature: 48.0 °C to 51.2 °C (2 readings)"))
        #expect(report.contains("      3  Cow\n      1  Duck"))
    }

    /// Presses are counted by the input they came from once a remote took one; a booth with its button alone says
    /// nothing of inputs.
    @Test func pressesAreCountedByTheirInputWhenARemoteTookOne() {
        var stats = EventStats()
        for line in Self.events.split(separator: "\n") { stats.add(line: line) }
        #expect(stats.pressesByInput == ["the button": 3])
        #expect(!stats.report.contains("Presses by input"))
        for t in [7000, 8000] {
            stats.add(
                line: #"{"t_us":\#(t),"type":"input","input":"buttonPressed","handled_us":1,"from":"AB Shutter3"}"#[...]
            )
        }
        stats.add(
            line: #"{"t_us":9000,"type":"input","input":"buttonReleased","handled_us":1,"from":"AB Shutter3"}"#[...])
        #expect(stats.pressesByInput == ["the button": 3, "AB Shutter3": 2])
        #expect(stats.report.contains("Presses by input\n      3  the button\n      2  AB Shutter3\n"))
    }

    @Test func aBoothThatNeverPrintedSaysNothingOfPrints() {
        var stats = EventStats()
        stats.add(line: #"{"t_us":100,"type":"ready","sound":"Duck"}"#[...])
        #expect(stats.prints == (sent: 0, printed: 0, failed: 0))
        #expect(!stats.report.contains("prints"))
    }

    @Test func percentilesByNearestRank() {
        let values: [Int64] = (1...100).map { Int64($0) }
        #expect(EventStats.percentile(50, of: values) == 50)
        #expect(EventStats.percentile(90, of: values) == 90)
        #expect(EventStats.percentile(99, of: values) == 99)
        #expect(EventStats.percentile(100, of: values) == 100)
        #expect(EventStats.percentile(0, of: values) == 1)
        #expect(EventStats.percentile(50, of: [7]) == 7)
        #expect(EventStats.percentile(50, of: []) == nil)
    }

    @Test func nothingToSayIsSaid() {
        let report = EventStats().report
        #expect(report.contains("0 events from 0 start(s)"))
        #expect(report.contains("Temperature: no readings"))
        #expect(report.contains("press → sound         0       -       -       -       -"))
    }
}
