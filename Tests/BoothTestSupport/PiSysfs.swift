// PiSysfs: a /sys tree of a test's own, shaped like a Raspberry Pi's thermal zones and firmware flags.
import Glibc
import Testing

/// A /sys tree of a test's own, shaped like a Raspberry Pi's thermal zones and firmware flags.
public enum PiSysfs {
    /// A /sys with an ACPI zone, a Pi's cpu-thermal zone, a zone whose sensor fails and the Pi's flags.
    public static func make(temperature: String = "85000\n", throttled: String? = "50005\n") throws -> String {
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
}
