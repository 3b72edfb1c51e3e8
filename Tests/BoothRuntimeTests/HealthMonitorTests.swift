// HealthMonitorTests: the temperature and the firmware's flags read from a sysfs tree of the test's own.
import BoothCore
import BoothTestSupport
import BoothTime
import Glibc
import Testing

@testable import BoothRuntime

@Suite(.timeLimit(.minutes(3))) struct HealthMonitorTests {
    @Test func thePisZoneAndFlagsAreFoundAndRead() throws {
        let root = try PiSysfs.make()
        let sources = HealthMonitor.sources(sysRoot: root)
        #expect(sources.temperature == "\(root)/class/thermal/thermal_zone2/temp")
        #expect(HealthMonitor.read(sources) == HealthReading(temperature: 85_000, throttled: 0x50005))
    }

    @Test func withoutACPUZoneTheFirstThatReadsIsUsed() throws {
        let root = try PiSysfs.make(temperature: "garbage\n", throttled: nil)
        let sources = HealthMonitor.sources(sysRoot: root)
        #expect(sources.temperature == "\(root)/class/thermal/thermal_zone0/temp")
        #expect(sources.throttled == nil)
        #expect(HealthMonitor.read(sources) == HealthReading(temperature: 30_000, throttled: nil))
    }

    @Test func readingsComeAtStartAndEveryInterval() throws {
        let root = try PiSysfs.make()
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
}
