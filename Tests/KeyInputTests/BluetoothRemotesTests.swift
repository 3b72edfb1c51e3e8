// BluetoothRemotesTests: pairing, forgetting and listing remotes against BlueZ's D-Bus API (python-dbusmock's BlueZ).
import BoothSystem
import BoothTestSupport
import Foundation
import Glibc
import KeyInput
import Testing

@Suite(.needsBlueZMock, .offCooperativePool) struct BluetoothRemotesTests {
    static let remote = "2A:07:98:10:32:05"
    static let phone = "40:4E:36:11:22:33"
    /// A selfie remote as BlueZ finds one: a keyboard icon, HID's UUID and its Device ID.
    static let remoteProperties = [
        "Icon": "s:input-keyboard", "Modalias": "s:bluetooth:v248Ap8266d0001",
    ]

    @Test func withoutBlueZEveryCallSaysHowToStartIt() throws {
        let mock = try BlueZMock(running: false)
        let bluetooth = BluetoothRemotes(bus: try mock.client())
        #expect(throws: BluetoothRemotes.Failure.noBlueZ) { try bluetooth.state() }
        #expect(throws: BluetoothRemotes.Failure.noBlueZ) {
            try bluetooth.pair(wanted: nil, within: .seconds(0.1)) { _ in }
        }
        #expect("\(BluetoothRemotes.Failure.noBlueZ)".contains("systemctl enable --now bluetooth"))
    }

    @Test func withoutAControllerPairingAndForgettingSaySo() throws {
        let mock = try BlueZMock()
        let bluetooth = BluetoothRemotes(bus: try mock.client())
        #expect(throws: BluetoothRemotes.Failure.noController) {
            try bluetooth.pair(wanted: nil, within: .seconds(0.1)) { _ in }
        }
        #expect(throws: BluetoothRemotes.Failure.noController) { try bluetooth.forget(Self.remote) }
        #expect("\(BluetoothRemotes.Failure.noController)".contains("rfkill list"))
    }

    @Test func theRemoteInPairingModeIsPairedTrustedAndConnectedAndAPhoneBesideItIsNot() throws {
        let mock = try BlueZMock()
        let controller = try mock.addController()
        try mock.client().setProperty("org.bluez", controller, "org.bluez.Adapter1", "Powered", to: "b:false")
        let phone = try mock.addDevice(Self.phone, name: "Ann's phone", properties: ["Icon": "s:phone"])
        let remote = try mock.addDevice(Self.remote, name: "AB Shutter3", properties: Self.remoteProperties)
        let bluetooth = BluetoothRemotes(bus: try mock.client())
        var steps: [String] = []
        let device = try bluetooth.pair(wanted: nil, within: .seconds(2), polling: .milliseconds(50)) {
            steps.append($0)
        }
        #expect(device.path == remote)
        #expect(device.name == "AB Shutter3" && device.address == Self.remote)
        #expect(device.paired && device.trusted && device.connected)
        #expect(device.vendor == 0x248a && device.product == 0x8266)
        #expect(try mock.property(controller, "org.bluez.Adapter1", "Powered") == "true")
        #expect(try mock.property(controller, "org.bluez.Adapter1", "Discovering") == "false")
        #expect(try mock.property(phone, "org.bluez.Device1", "Paired") == "false")
        #expect(steps.first == "switching the Bluetooth controller on")
        #expect(steps.contains("pairing \"AB Shutter3\" (\(Self.remote))"))
        #expect(try bluetooth.paired().map(\.path) == [remote])
    }

    @Test func aRemoteThatComesIntoRangeWhileDiscoveringIsPaired() throws {
        let mock = try BlueZMock()
        try mock.addController()
        let bluetooth = BluetoothRemotes(bus: try mock.client())
        let later = Thread {
            usleep(300_000)
            _ = try? mock.addDevice(Self.remote, name: "AB Shutter3", properties: Self.remoteProperties)
        }
        later.start()
        let device = try bluetooth.pair(wanted: nil, within: .seconds(5), polling: .milliseconds(50)) { _ in }
        #expect(device.address == Self.remote && device.paired)
    }

    @Test func twoRemotesInPairingModeAreNamedAndNeitherIsPaired() throws {
        let mock = try BlueZMock()
        let controller = try mock.addController()
        try mock.addDevice(Self.remote, name: "AB Shutter3", properties: Self.remoteProperties)
        try mock.addDevice("11:22:33:44:55:66", name: "Pedal", properties: ["Class": "u:1344"])  // Peripheral.
        let bluetooth = BluetoothRemotes(bus: try mock.client())
        #expect {
            try bluetooth.pair(wanted: nil, within: .seconds(1), polling: .milliseconds(50)) { _ in }
        } throws: { error in
            guard case .ambiguous(let devices) = error as? BluetoothRemotes.Failure else { return false }
            return Set(devices.map(\.name)) == ["AB Shutter3", "Pedal"]
                && "\(error)".contains("sudo booth remote pair \"")
        }
        #expect(try bluetooth.paired().isEmpty)
        #expect(try mock.property(controller, "org.bluez.Adapter1", "Discovering") == "false")
        // Named, the one asked for is paired.
        let pedal = try bluetooth.pair(wanted: "pedal", within: .seconds(1), polling: .milliseconds(50)) { _ in }
        #expect(pedal.name == "Pedal" && pedal.paired)
    }

    @Test func nothingInPairingModeEndsTheDiscoveryWithTheFix() throws {
        let mock = try BlueZMock()
        let controller = try mock.addController()
        try mock.addDevice(Self.phone, name: "Ann's phone", properties: ["Icon": "s:phone"])
        let bluetooth = BluetoothRemotes(bus: try mock.client())
        #expect {
            try bluetooth.pair(wanted: nil, within: .seconds(0.3), polling: .milliseconds(50)) { _ in }
        } throws: { error in
            (error as? BluetoothRemotes.Failure) == .nothingFound(within: .seconds(0.3), wanted: nil)
                && "\(error)".contains("pairing mode")
        }
        #expect(try mock.property(controller, "org.bluez.Adapter1", "Discovering") == "false")
    }

    @Test func aRefusedPairingNamesBlueZsErrorAndTheFix() throws {
        let mock = try BlueZMock()
        try mock.addController()
        let path = try mock.addDevice(Self.remote, name: "AB Shutter3", properties: Self.remoteProperties)
        try mock.failing(
            path, "org.bluez.Device1", "Pair", name: "org.bluez.Error.AuthenticationFailed",
            text: "Authentication Failed")
        let bluetooth = BluetoothRemotes(bus: try mock.client())
        #expect {
            try bluetooth.pair(wanted: nil, within: .seconds(1), polling: .milliseconds(50)) { _ in }
        } throws: { error in
            guard case .pairingFailed(let device, let detail) = error as? BluetoothRemotes.Failure else {
                return false
            }
            return device.path == path && detail.contains("org.bluez.Error.AuthenticationFailed")
                && "\(error)".contains("bluetoothctl")
        }
        #expect(try mock.property(path, "org.bluez.Device1", "Trusted") == "false")
    }

    /// A mock with a controller switched off, whose properties cannot be set (the D-Bus error `name`, `text`).
    static func switchedOff(failingWith name: String, _ text: String) throws -> (BlueZMock, controller: String) {
        let mock = try BlueZMock()
        let controller = try mock.addController()
        try mock.client().setProperty("org.bluez", controller, "org.bluez.Adapter1", "Powered", to: "b:false")
        try mock.failing(
            controller, "org.freedesktop.DBus.Properties", "Set", signature: "ssv", name: name, text: text)
        return (mock, controller)
    }

    @Test func aControllerThatCannotBeSwitchedOnNamesTheErrorAndRfkill() throws {
        // bluetoothd's answer when rfkill blocks the controller.
        let (mock, controller) = try Self.switchedOff(failingWith: "org.bluez.Error.Failed", "Blocked through rfkill")
        try mock.addDevice(Self.remote, name: "AB Shutter3", properties: Self.remoteProperties)
        let bluetooth = BluetoothRemotes(bus: try mock.client())
        #expect {
            try bluetooth.pair(wanted: nil, within: .seconds(1), polling: .milliseconds(50)) { _ in }
        } throws: { error in
            guard case .cannotPowerOn(let detail) = error as? BluetoothRemotes.Failure else { return false }
            return detail.contains("Blocked through rfkill") && "\(error)".contains("sudo rfkill unblock bluetooth")
        }
        #expect(try mock.property(controller, "org.bluez.Adapter1", "Discovering") == "false")
        #expect(try bluetooth.paired().isEmpty)
    }

    @Test func theBusRefusingAsForAUserNotRootSaysRunItWithSudo() throws {
        // Switching the controller on, refused as the system bus's policy refuses a user that is not root. Mutation:
        // every failure to switch it on taken for rfkill (the EACCES check gone) fails here.
        let (mock, _) = try Self.switchedOff(
            failingWith: "org.freedesktop.DBus.Error.AccessDenied", "Rejected send message")
        let bluetooth = BluetoothRemotes(bus: try mock.client())
        #expect {
            try bluetooth.pair(wanted: nil, within: .seconds(1), polling: .milliseconds(50)) { _ in }
        } throws: { error in
            guard case .notAllowed(let detail) = error as? BluetoothRemotes.Failure else { return false }
            return detail.contains("Rejected send message") && "\(error)".contains("sudo booth remote")
        }
        // Pairing itself, refused so with the controller on: not root either, not a failed pairing.
        let on = try BlueZMock()
        try on.addController()
        let path = try on.addDevice(Self.remote, name: "AB Shutter3", properties: Self.remoteProperties)
        try on.failing(
            path, "org.bluez.Device1", "Pair", name: "org.freedesktop.DBus.Error.AccessDenied",
            text: "Rejected send message")
        #expect {
            try BluetoothRemotes(bus: try on.client()).pair(
                wanted: nil, within: .seconds(1), polling: .milliseconds(50)
            ) { _ in }
        } throws: { error in
            guard case .notAllowed = error as? BluetoothRemotes.Failure else { return false }
            return true
        }
        #expect(try on.property(path, "org.bluez.Device1", "Paired") == "false")
    }

    @Test func aPairedRemoteIsForgottenByAddressOrNameAndAnUnknownOneListsThePaired() throws {
        let mock = try BlueZMock()
        try mock.addController()
        try mock.addDevice(Self.remote, name: "AB Shutter3", properties: Self.remoteProperties)
        let bluetooth = BluetoothRemotes(bus: try mock.client())
        _ = try bluetooth.pair(wanted: nil, within: .seconds(1), polling: .milliseconds(50)) { _ in }
        #expect {
            try bluetooth.forget("Pedal")
        } throws: { error in
            guard case .unknown(_, let paired) = error as? BluetoothRemotes.Failure else { return false }
            return paired.map(\.name) == ["AB Shutter3"] && "\(error)".contains("AB Shutter3")
        }
        let forgotten = try bluetooth.forget(Self.remote.lowercased())
        #expect(forgotten.name == "AB Shutter3")
        #expect(try bluetooth.state().devices.isEmpty)
        #expect {
            try bluetooth.forget("AB Shutter3")
        } throws: { error in
            guard case .unknown(_, let paired) = error as? BluetoothRemotes.Failure else { return false }
            return paired.isEmpty && "\(error)".contains("None is paired")
        }
    }

    @Test func aBatteryLevelAndANameWithControlCharactersAreRead() throws {
        let mock = try BlueZMock()
        try mock.addController()
        let path = try mock.addDevice(Self.remote, name: "AB\tShutter\n3", properties: Self.remoteProperties)
        try mock.addBattery(path, percent: 80)
        let device = try #require(BluetoothRemotes(bus: try mock.client()).state().devices.first)
        #expect(device.battery == 80)
        #expect(device.name == "AB Shutter 3")
        #expect(device.isInput && device.inRange && !device.paired)
    }
}
