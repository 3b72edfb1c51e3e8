// HealthMonitor: reads the SoC temperature and the Pi firmware's power flags every minute.
import BoothCore
import BoothSystem
import BoothTime
import PhotoStore

/// Reads the SoC temperature (the thermal zone of type `cpu-thermal`, else the first one that reads)
/// and, on a Raspberry Pi, the firmware's under-voltage and throttling flags (`get_throttled`) at start
/// and every `interval`, off the loop's thread (a sensor read can take milliseconds), and reports each
/// reading as `healthMeasured`: the state machine decides what is too hot. A machine with neither
/// (the rig's VM, a container) reports nothing.
package final class HealthMonitor: InputDevice {
    package let name = "health"
    private let interval: Duration
    private let worker: Worker<HealthReading>?
    /// Where the readings are reported.
    private let context: DeviceContext

    /// A monitor of the files below `sysRoot` (tests give a folder of their own) on `context`'s loop, reading at
    /// the loop's first turn; none when neither file is there.
    package init(
        _ context: DeviceContext, sysRoot: String = "/sys", interval: Duration = .seconds(60)
    ) throws(SystemError) {
        self.interval = interval
        self.context = context
        let sources = Self.sources(sysRoot: sysRoot)
        guard sources.temperature != nil || sources.throttled != nil else {
            Log.info("health: no thermal zone or firmware flags below \(sysRoot): temperature and power not watched")
            worker = nil
            return
        }
        let loop = context.loop
        worker = try Worker(label: "heylook.health", loop: loop)
        read(sources, next: loop.now(), on: loop)
    }

    /// Reads now (off the loop), then again at `next + interval`.
    private func read(_ sources: Sources, next: Instant, on loop: EventLoop) {
        worker?.run { post in
            post(Self.read(sources))
        } then: { [context] reading in
            context.reportNow(.healthMeasured(reading))
        }
        let following = next.advanced(by: interval)
        loop.schedule(at: following) { [weak self, weak loop] in
            guard let self, let loop else { return }
            self.read(sources, next: following, on: loop)
        }
    }

    /// The files a reading comes from.
    package struct Sources: Sendable {
        /// A thermal zone's `temp`.
        package var temperature: String?
        /// The firmware's `get_throttled`.
        var throttled: String?
    }

    /// Where the temperature and the flags are below `sysRoot`, if anywhere.
    package static func sources(sysRoot: String) -> Sources {
        let thermal = "\(sysRoot)/class/thermal"
        let zones = ((try? PhotoStore.fileNames(in: thermal)) ?? []).filter { $0.hasPrefix("thermal_zone") }.sorted {
            (Int($0.dropFirst(12)) ?? .max) < (Int($1.dropFirst(12)) ?? .max)
        }
        let readable = zones.filter {
            readValue("\(thermal)/\($0)/temp").flatMap(HealthReading.parseTemperature) != nil
        }
        let cpu = readable.first { readValue("\(thermal)/\($0)/type") == "cpu-thermal\n" }
        let throttled = "\(sysRoot)/devices/platform/soc/soc:firmware/get_throttled"
        return Sources(
            temperature: (cpu ?? readable.first).map { "\(thermal)/\($0)/temp" },
            throttled: readValue(throttled) == nil ? nil : throttled)
    }

    /// A reading from `sources` (nil parts where a file does not read).
    package static func read(_ sources: Sources) -> HealthReading {
        HealthReading(
            temperature: sources.temperature.flatMap(readValue).flatMap(HealthReading.parseTemperature),
            throttled: sources.throttled.flatMap(readValue).flatMap(HealthReading.parseThrottled))
    }

    /// A small sysfs file's text, nil when it cannot be read.
    private static func readValue(_ path: String) -> String? {
        (try? ConfigLoader.readText(path)) ?? nil
    }
}
