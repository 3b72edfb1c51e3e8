// StillImageDevicesTests: a camera's USB interface class read from a sysfs-shaped folder.
import BoothTestSupport
import Foundation
import GPhotoCapture
import Testing

@Suite struct StillImageDevicesTests {
    /// A folder shaped as /sys/bus/usb/devices: `usb1` (a hub), `1-1` (a device) and its interfaces.
    private func sysfs(_ classes: [String: String]) throws -> String {
        let root = temporaryDirectory()
        let files = FileManager.default
        for folder in ["usb1", "1-1"] + classes.keys {
            try files.createDirectory(atPath: "\(root)/\(folder)", withIntermediateDirectories: true)
        }
        for (interface, value) in classes {
            #expect(files.createFile(atPath: "\(root)/\(interface)/bInterfaceClass", contents: Data("\(value)\n".utf8)))
        }
        return root
    }

    @Test func aStillImageInterfaceIsACameraToAskLibgphoto2About() throws {
        #expect(StillImageDevices.present(sysfs: try sysfs(["1-1:1.0": "06"])))
        #expect(StillImageDevices.present(sysfs: try sysfs(["1-1:1.0": "08", "1-2:1.0": "06"])))
    }

    @Test func sticksHubsAndNothingAreNot() throws {
        // A stick (mass storage, 08) and a keyboard (HID, 03).
        #expect(!StillImageDevices.present(sysfs: try sysfs(["1-1:1.0": "08", "1-2:1.0": "03"])))
        #expect(!StillImageDevices.present(sysfs: try sysfs([:])))
        #expect(!StillImageDevices.present(sysfs: "/nonexistent/sys/bus/usb/devices"))
    }
}
