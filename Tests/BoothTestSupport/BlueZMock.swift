// BlueZMock: python-dbusmock's BlueZ template on a private bus, the BlueZ of the pairing tests.
import BoothSystem
import Foundation
import Testing

/// BlueZ's D-Bus API as python-dbusmock's `bluez5` template serves it (Debian's python3-dbusmock), on a bus of the
/// test's own: the objects, properties and methods bluetoothd has (Adapter1, Device1: Pair, Connect, RemoveDevice,
/// discovery), with the template's `org.bluez.Mock` methods to add a controller and the devices a discovery finds.
/// Stopped when the last reference goes.
public final class BlueZMock: @unchecked Sendable {
    /// Debian's python and dbusmock (scripts/install-deps --test installs python3-dbusmock).
    public static let python = "/usr/bin/python3"
    public static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/dbusmock/templates/bluez5.py")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon")
    }

    public let bus: PrivateBus
    private let process = Process()

    /// Starts the bus and, unless `running` is false (no BlueZ on the bus), the mock; returns once it owns org.bluez.
    public init(running: Bool = true) throws {
        bus = try PrivateBus()
        guard running else { return }
        process.executableURL = URL(fileURLWithPath: Self.python)
        process.arguments = ["-m", "dbusmock", "--system", "--template", "bluez5"]
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = bus.address
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let client = try SystemBus(address: bus.address)
        for _ in 0..<200 {
            let owned = try client.call(
                "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner",
                signature: "s", ["org.bluez"])
            if owned == "true" { return }
            try #require(process.isRunning, "python3 -m dbusmock --template bluez5 ended")
            usleep(50_000)
        }
        Issue.record("dbusmock did not take org.bluez within 10 s")
    }

    deinit {
        // SIGKILL: the mock inherits the test runner's blocked signals (SIGTERM among them), and keeps nothing.
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// A client connection to the bus.
    public func client() throws -> SystemBus { try SystemBus(address: bus.address) }

    /// Adds the controller hciN (its address 0N:0N+1:…); returns its object path.
    @discardableResult
    public func addController(_ name: String = "hci0") throws -> String {
        let client = try client()
        let path = try client.call("org.bluez", "/", "org.bluez.Mock", "AddAdapter", signature: "ss", [name, "booth"])
        // The template's StartDiscovery reads a DiscoveryFilter its AddAdapter does not add (dbusmock 0.28.7).
        try client.call(
            "org.bluez", path, "org.freedesktop.DBus.Mock", "AddProperty", signature: "ssv",
            ["org.bluez.Adapter1", "DiscoveryFilter", "s:"])
        return path
    }

    /// Adds a device the controller sees (unpaired, in range), with `properties` of Device1 set after (variants
    /// written "s:input-keyboard"); returns its object path.
    @discardableResult
    public func addDevice(
        _ address: String, name: String, controller: String = "hci0", properties: [String: String] = [:]
    ) throws -> String {
        let client = try client()
        let path = try client.call(
            "org.bluez", "/", "org.bluez.Mock", "AddDevice", signature: "sss", [controller, address, name])
        // bluetoothd's Connect sets Connected; the template's keeps it to itself (dbusmock 0.28.7).
        try client.call(
            "org.bluez", path, "org.freedesktop.DBus.Mock", "AddMethod", signature: "sssss",
            [
                "org.bluez.Device1", "Connect", "", "",
                "self.Set('org.bluez.Device1', 'Connected', dbus.Boolean(True, variant_level=1))",
            ])
        for (property, value) in properties.sorted(by: { $0.key < $1.key }) {
            try client.setProperty("org.bluez", path, "org.bluez.Device1", property, to: value)
        }
        return path
    }

    /// Gives the device at `path` a battery (org.bluez.Battery1) at `percent`.
    public func addBattery(_ path: String, percent: Int) throws {
        try client().call(
            "org.bluez", path, "org.freedesktop.DBus.Mock", "AddProperty", signature: "ssv",
            ["org.bluez.Battery1", "Percentage", "y:\(percent)"])
    }

    /// Makes `interface.method` on `path` (taking arguments of D-Bus `signature`) fail with the D-Bus error `name` and
    /// `text`, as bluetoothd or the bus does. `org.freedesktop.DBus.Properties` `Set` (`ssv`) can fail so too.
    public func failing(
        _ path: String, _ interface: String, _ method: String, signature: String = "", name: String, text: String
    ) throws {
        try client().call(
            "org.bluez", path, "org.freedesktop.DBus.Mock", "AddMethod", signature: "sssss",
            [interface, method, signature, "", "raise dbus.exceptions.DBusException('\(text)', name='\(name)')"])
    }

    /// The controller's or a device's property, as text.
    public func property(_ path: String, _ interface: String, _ name: String) throws -> String {
        try client().property("org.bluez", path, interface, name)
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs a test only where `BlueZMock` can start, saying what to install otherwise.
    public static var needsBlueZMock: Self {
        .enabled(if: BlueZMock.isAvailable, "needs python3-dbusmock and dbus-daemon: scripts/install-deps --test")
    }
}
