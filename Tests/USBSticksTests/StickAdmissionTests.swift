// StickAdmissionTests: the gate a stick passes before its photos or sounds are used, and what a refusal leaves open.
import BoothSystem
import BoothTestSupport
import Glibc
import Testing
import USBSticks

@Suite struct StickAdmissionTests {
    /// A folder of the device seen mounted there and of an accepted type is let in with its root open. Another
    /// device or a type not accepted is refused with its reason, and the root is closed again. Mutation: not closing
    /// the root on a refusal leaves a descriptor open on the stick.
    @Test func aStickIsLetInOrRefusedWithNothingLeftOpen() throws {
        let stick = temporaryDirectory()
        let ops = PulledStick(mountPoint: stick, pullReading: nil)
        var info = stat()
        try #require(stat(stick, &info) == 0)
        let own = StickAdmission.deviceName(info.st_dev)
        let allowed = StoreFixtures.options(for: stick).allowedFileSystems
        let type = try #require(allowed.first)

        let admitted = try StickAdmission.admit(stick, device: own, allowing: allowed, operations: ops)
        #expect(admitted.fileSystem == type && ops.openOnStick == 1)
        _ = ops.close(admitted.root)
        #expect(ops.openOnStick == 0)

        let other = own == "8:1" ? "8:17" : "8:1"
        #expect {
            try StickAdmission.admit(stick, device: other, allowing: allowed, operations: ops)
        } throws: { error in
            guard let error = error as? ExportError, case .mountChanged(_, other, own) = error.reason else {
                return false
            }
            return true
        }
        #expect(ops.openOnStick == 0, "the root of a stick refused for its device is closed")
        #expect {
            try StickAdmission.admit(stick, device: own, allowing: ["exfat-only-here"], operations: ops)
        } throws: { error in
            guard let error = error as? ExportError, case .unsupportedFileSystem(type) = error.reason else {
                return false
            }
            return true
        }
        #expect(ops.openOnStick == 0, "the root of a stick refused for its file system is closed")
    }
}
