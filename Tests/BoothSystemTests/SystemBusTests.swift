// SystemBusTests: calls of text arguments on a real D-Bus daemon (a private one, started for each test).
import BoothSystem
import BoothTestSupport
import Glibc
import Testing

@Suite struct SystemBusTests {
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

    /// A variant argument is its basic type and text ("u:4"); one without a type, of no basic type, or whose text is
    /// not of its type is EINVAL, named, before anything is sent.
    @Test func aVariantArgumentIsTypedByItsPrefix() throws {
        let server = try PrivateBus()
        let bus = try SystemBus(address: server.address)
        let (name, path, _) = Self.daemon
        // The daemon has no property to set: its answer proves the variant was sent whole.
        #expect {
            try bus.setProperty(name, path, "org.freedesktop.DBus", "Features", to: "b:true")
        } throws: { error in
            guard let failure = error as? SystemBus.Failure else { return false }
            return failure.code != .invalidArgument && failure.detail.contains("org.freedesktop.DBus.Error")
        }
        for bad in ["true", "b:maybe", "v:s:x", "a:1", "u:-1"] {
            #expect {
                try bus.setProperty(name, path, "org.freedesktop.DBus", "Features", to: bad)
            } throws: { error in
                guard let failure = error as? SystemBus.Failure else { return false }
                return failure.code == .invalidArgument
                    && failure.detail.contains("argument 3 (\"\(bad)\") is not of type 'v'")
            }
        }
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
            return failure.code == .noSuchAddressOrDevice
                && failure.detail.contains("org.freedesktop.DBus.Error.ServiceUnknown")
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
            return failure.code == .invalidArgument
                && failure.detail.contains("argument 1 (\"\(value)\") is not of type")
        }
    }

    @Test func noBusAtTheAddressIsAnError() {
        #expect(throws: SystemBus.Failure.self) { try SystemBus(address: "unix:path=/nonexistent/bus") }
    }
}
