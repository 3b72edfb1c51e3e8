// SystemBusTests: calls of text arguments on a real D-Bus daemon (a private one, started for each test).
import BoothSystem
import Glibc
import Testing

@Suite struct SystemBusTests {
    /// A dbus-daemon of its own on a socket in a temporary folder, stopped when the test ends.
    final class PrivateBus {
        let address: String
        let pid: pid_t
        let folder: String

        init() throws {
            var template = Array("/tmp/system-bus-XXXXXX".utf8CString)
            try #require(mkdtemp(&template) != nil)
            folder = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let command =
                "dbus-daemon --session --fork --print-address=1 --print-pid=1 --address=unix:path=\(folder)/bus"
            let pipe = try #require(popen(command, "r"), "cannot run dbus-daemon")
            var output: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 1024)
            while case let count = fread(&buffer, 1, buffer.count, pipe), count > 0 { output += buffer[..<count] }
            let status = pclose(pipe)
            try #require(status == 0, "dbus-daemon did not start (Debian's dbus-daemon, a dependency of dbus)")
            let lines = String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
            try #require(lines.count == 2, "dbus-daemon printed \(lines)")
            address = lines[0]
            pid = try #require(pid_t(lines[1]))
        }

        deinit {
            kill(pid, SIGTERM)
            unlink("\(folder)/bus")
            rmdir(folder)
        }
    }

    static let daemon = ("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus")

    @Test func aStringArgumentAndAnArrayReply() throws {
        let server = try PrivateBus()
        let bus = try SystemBus(address: server.address)
        let (name, path, interface) = Self.daemon
        let names = try bus.call(name, path, interface, "ListNames").split(separator: "\n")
        #expect(names.contains("org.freedesktop.DBus"))
        #expect(names.contains { $0.hasPrefix(":1.") })  // This connection's own unique name.
        let owner = try bus.call(name, path, interface, "GetNameOwner", signature: "s", ["org.freedesktop.DBus"])
        #expect(owner == "org.freedesktop.DBus")
    }

    @Test func aNumberArgumentAndANumberReply() throws {
        let server = try PrivateBus()
        let bus = try SystemBus(address: server.address)
        let (name, path, interface) = Self.daemon
        // RequestName(s name, u flags) → u: 1 is "primary owner".
        #expect(try bus.call(name, path, interface, "RequestName", signature: "su", ["org.heylook.Test", "4"]) == "1")
        #expect(try bus.call(name, path, interface, "NameHasOwner", signature: "s", ["org.heylook.Test"]) == "true")
        #expect(try bus.call(name, path, interface, "NameHasOwner", signature: "s", ["org.heylook.None"]) == "false")
    }

    @Test func aPropertyIsReadThroughItsVariant() throws {
        let server = try PrivateBus()
        let bus = try SystemBus(address: server.address)
        let (name, path, interface) = Self.daemon
        // The daemon's Interfaces property: an array of strings inside a variant.
        let interfaces = try bus.property(name, path, interface, "Interfaces")
        #expect(interfaces.split(separator: "\n").contains("org.freedesktop.DBus.Monitoring"))
    }

    @Test func aServiceNobodyOwnsIsENXIOWithTheDBusError() throws {
        let server = try PrivateBus()
        let bus = try SystemBus(address: server.address)
        #expect {
            try bus.call(
                "org.freedesktop.NetworkManager", "/org/freedesktop/NetworkManager",
                "org.freedesktop.NetworkManager", "GetDevices")
        } throws: { error in
            guard let failure = error as? SystemBus.Failure else { return false }
            return failure.code == ENXIO && failure.detail.contains("org.freedesktop.DBus.Error.ServiceUnknown")
                && failure.call == "org.freedesktop.NetworkManager.GetDevices"
        }
    }

    @Test(arguments: [("u", "-1"), ("u", "4294967296"), ("b", "yes"), ("o", "not/a/path"), ("i", "1x"), ("y", "256")])
    func anArgumentNotOfItsTypeIsEINVALAndNothingIsSent(type: String, value: String) throws {
        let server = try PrivateBus()
        let bus = try SystemBus(address: server.address)
        let (name, path, interface) = Self.daemon
        #expect {
            try bus.call(name, path, interface, "GetNameOwner", signature: type, [value])
        } throws: { error in
            guard let failure = error as? SystemBus.Failure else { return false }
            return failure.code == EINVAL && failure.detail.contains("argument 1 (\"\(value)\") is not of type")
        }
    }

    @Test func noBusAtTheAddressIsAnError() {
        #expect(throws: SystemBus.Failure.self) { try SystemBus(address: "unix:path=/nonexistent/bus") }
    }
}
