// HealthMonitorTests: the temperature and the firmware's flags read from a sysfs tree of the test's own.
import BoothCore
import BoothTestSupport
import BoothTime
import Glibc
import Testing

@testable import BoothMain

@Suite(.timeLimit(.minutes(3))) struct HealthMonitorTests {
    /// A /sys with an ACPI zone, a Pi's cpu-thermal zone, a zone whose sensor fails and the Pi's flags.
    func piLikeSys(temperature: String = "85000\n", throttled: String? = "50005\n") throws -> String {
        let root = temporaryDirectory()
        func put(_ path: String, _ text: String) throws {
            let folder = String(path[..<path.lastIndex(of: "/")!])
            try #require(system("mkdir -p '\(root)/\(folder)'") == 0)
            let fd = open("\(root)/\(path)", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            _ = write(fd, text, text.utf8.count)
            close(fd)
        }
        try put("class/thermal/thermal_zone0/type", "acpitz\n")
        try put("class/thermal/thermal_zone0/temp", "30000\n")
        try put("class/thermal/thermal_zone2/type", "cpu-thermal\n")
        try put("class/thermal/thermal_zone2/temp", temperature)
        try put("class/thermal/thermal_zone10/type", "broken\n")
        try put("class/thermal/thermal_zone10/temp", "EIO\n")
        if let throttled { try put("devices/platform/soc/soc:firmware/get_throttled", throttled) }
        return root
    }

    @Test func thePisZoneAndFlagsAreFoundAndRead() throws {
        let root = try piLikeSys()
        let sources = HealthMonitor.sources(sysRoot: root)
        #expect(sources.temperature == "\(root)/class/thermal/thermal_zone2/temp")
        #expect(HealthMonitor.read(sources) == HealthReading(temperature: 85_000, throttled: 0x50005))
    }

    @Test func withoutACPUZoneTheFirstThatReadsIsUsed() throws {
        let root = try piLikeSys(temperature: "garbage\n", throttled: nil)
        let sources = HealthMonitor.sources(sysRoot: root)
        #expect(sources.temperature == "\(root)/class/thermal/thermal_zone0/temp")
        #expect(sources.throttled == nil)
        #expect(HealthMonitor.read(sources) == HealthReading(temperature: 30_000, throttled: nil))
    }

    @Test func readingsComeAtStartAndEveryInterval() throws {
        let root = try piLikeSys()
        let loop = try EventLoop()
        var readings: [HealthReading] = []
        let context = DeviceContext(loop: loop) { event, _ in
            if case .healthMeasured(let reading) = event { readings.append(reading) }
            if readings.count == 3 { loop.stop() }
        }
        let monitor = try HealthMonitor(context, sysRoot: root, interval: .milliseconds(50))
        loop.schedule(at: loop.now().advanced(by: .seconds(30))) { loop.stop() }
        try withExtendedLifetime(monitor) { try loop.run() }
        #expect(readings == Array(repeating: HealthReading(temperature: 85_000, throttled: 0x50005), count: 3))
    }

    @Test func aMachineWithNeitherReportsNothing() throws {
        let loop = try EventLoop()
        var reports = 0
        let monitor = try HealthMonitor(
            DeviceContext(loop: loop) { _, _ in reports += 1 }, sysRoot: temporaryDirectory(),
            interval: .milliseconds(10))
        loop.schedule(at: loop.now().advanced(by: .milliseconds(100))) { loop.stop() }
        try withExtendedLifetime(monitor) { try loop.run() }
        #expect(reports == 0)
    }

    @Test func doctorSaysWhatIsWrongAndHowToFixIt() throws {
        let report = DoctorCommand.healthReport(sysRoot: try piLikeSys(), hotLimit: 80_000)
        #expect(report.lines.first?.hasPrefix("SoC 85.0 °C") == true)
        #expect(report.lines.contains { $0.contains("0x50005: under-voltage now, throttled now") })
        #expect(report.problems.count == 2)
        #expect(report.problems.contains { $0.hasPrefix("too hot") })
        #expect(report.problems.contains { $0.hasPrefix("under-voltage now: use the official") })
        let calm = DoctorCommand.healthReport(sysRoot: temporaryDirectory(), hotLimit: 80_000)
        #expect(calm.problems.isEmpty)
        #expect(
            calm.lines == [
                "no thermal zone: the temperature is not watched",
                "no firmware power flags (not a Raspberry Pi): under-voltage is not watched",
            ])
    }
}
