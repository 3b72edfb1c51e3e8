// SystemdUnmounterTests: without a system bus (this host, the rig's guest) a stick is unmounted with umount2.
import BoothTestSupport
import Glibc
import PhotoStore
import Testing

@testable import BoothRuntime

@Suite(.timeLimit(.minutes(3))) struct SystemdUnmounterTests {
    /// Whether this machine has a system bus (then systemd, not the fallback, answers).
    static let hasSystemBus = access("/run/dbus/system_bus_socket", F_OK) == 0

    @Test(.disabled(if: hasSystemBus, "a system bus is there: systemd answers"))
    func withoutABusUmount2IsUsed() throws {
        let folder = "/tmp/heylook-unmounter-\(getpid())"
        #expect(mkdir(folder, 0o700) == 0)
        defer { rmdir(folder) }
        let fallback = RecordingUnmounter()
        #expect(SystemdUnmounter(fallback: fallback).unmount(folder) == nil)
        #expect(fallback.calls == [folder])
        // The real fallback: not a mount point.
        let error = try #require(SystemdUnmounter().unmount(folder))
        #expect(error.operation == "umount" && error.errno == EINVAL)
    }
}
