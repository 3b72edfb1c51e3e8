// RemoteCommandTests: `booth remote`: the udev rule's match of a remote, pairing and forgetting one through BlueZ.
import BoothTestSupport
import Foundation
import Testing

@Suite(.offCooperativePool) struct RemoteCommandTests {
    /// A sysfs tree holding one input device (input7) with its event node (event3), named and numbered as given.
    private func sysfs(name: String, vendor: String, product: String) throws -> String {
        let sys = temporaryDirectory()
        let device = "\(sys)/devices/virtual/input/input7"
        try FileManager.default.createDirectory(atPath: "\(device)/id", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: "\(device)/event3", withIntermediateDirectories: true)
        try "\(name)\n".write(toFile: "\(device)/name", atomically: true, encoding: .utf8)
        try "\(vendor)\n".write(toFile: "\(device)/id/vendor", atomically: true, encoding: .utf8)
        try "\(product)\n".write(toFile: "\(device)/id/product", atomically: true, encoding: .utf8)
        // The event node's `device` is its input device, as the kernel links it.
        try FileManager.default.createSymbolicLink(atPath: "\(device)/event3/device", withDestinationPath: "..")
        return sys
    }

    private func config(_ remote: String) throws -> String {
        let path = temporaryDirectory() + "/booth.toml"
        try "[remote]\n\(remote)\n".write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func match(_ sys: String, config: String) throws -> Int32 {
        try runBooth(
            ["remote", "udev-match", "--config", config, "--sys", sys],
            environment: ["DEVPATH": "/devices/virtual/input/input7/event3"]
        ).status
    }

    /// The rule gives the booth's group a remote the config names, by name (any case) or ids, and nothing else: a
    /// keyboard, or any device while the config names none.
    @Test func theUdevMatchIsTheConfigsRemotesAlone() throws {
        let shutter = try sysfs(name: "AB Shutter3", vendor: "248a", product: "8266")
        let keyboard = try sysfs(name: "Some Keyboard", vendor: "046d", product: "c31c")
        let byName = try config("devices = [\"ab shutter3\"]")
        let byIds = try config("devices = [\"248a:8266\"]")
        let none = try config("devices = []")
        #expect(try match(shutter, config: byName) == 0)
        #expect(try match(shutter, config: byIds) == 0)
        #expect(try match(keyboard, config: byName) == 1)
        #expect(try match(keyboard, config: byIds) == 1)
        #expect(try match(shutter, config: none) == 1)
        // A device sysfs no longer has (removed between the event and the rule) is none.
        #expect(try match(temporaryDirectory(), config: byName) == 1)
    }

    @Test func aBrokenConfigMatchesNothingAndSaysWhy() throws {
        let shutter = try sysfs(name: "AB Shutter3", vendor: "248a", product: "8266")
        let run = try runBooth(
            ["remote", "udev-match", "--config", try config("devices = \"AB Shutter3\""), "--sys", shutter],
            environment: ["DEVPATH": "/devices/virtual/input/input7/event3"])
        #expect(run.status != 0)
        #expect(run.errors.contains("remote.devices"))
    }

    /// `pair` finds the remote in pairing mode, pairs it and says how to make the booth take it; `list` shows it
    /// paired with its battery; `forget` forgets it; each against BlueZ's D-Bus API (the system bus the environment
    /// names: python-dbusmock's BlueZ).
    @Test(.needsBlueZMock) func aRemoteIsPairedListedAndForgotten() throws {
        let mock = try BlueZMock()
        try mock.addController()
        let path = try mock.addDevice(
            "2A:07:98:10:32:05", name: "AB Shutter3", properties: ["Icon": "s:input-keyboard"])
        try mock.addBattery(path, percent: 70)
        let bus = ["DBUS_SYSTEM_BUS_ADDRESS": mock.bus.address]
        let config = try config("devices = []")
        let pair = try runBooth(
            ["remote", "pair", "--config", config, "--seconds", "3", "--key-seconds", "0"], environment: bus)
        #expect(pair.status == 0, "\(pair.errors)")
        #expect(pair.output.contains("paired: \"AB Shutter3\" (2A:07:98:10:32:05)  connected, battery 70 %"))
        #expect(pair.output.contains("devices = [\"AB Shutter3\"]"))
        let list = try runBooth(
            ["remote", "list", "--config", try self.config("devices = [\"AB Shutter3\"]")], environment: bus)
        #expect(
            list.output.contains(
                "  \"AB Shutter3\" (2A:07:98:10:32:05)  connected, battery 70 %  remote (remote.devices)"))
        let forget = try runBooth(["remote", "forget", "ab shutter3"], environment: bus)
        #expect(forget.status == 0, "\(forget.errors)")
        #expect(forget.output.contains("forgotten: \"AB Shutter3\""))
        let again = try runBooth(["remote", "forget", "AB Shutter3"], environment: bus)
        #expect(again.status != 0)
        #expect(again.errors.contains("no paired Bluetooth device is \"AB Shutter3\". None is paired."))
    }

    @Test(.needsBlueZMock) func withoutBlueZPairSaysHowToStartIt() throws {
        let mock = try BlueZMock(running: false)
        let run = try runBooth(
            ["remote", "pair", "--config", try config("devices = []"), "--seconds", "1"],
            environment: ["DBUS_SYSTEM_BUS_ADDRESS": mock.bus.address])
        #expect(run.status != 0)
        #expect(run.errors.contains("BlueZ is not running") && run.errors.contains("systemctl enable --now bluetooth"))
    }

    @Test func withoutDevpathItSaysWhatRunsIt() throws {
        let run = try runBooth(
            ["remote", "udev-match", "--config", try config("devices = []")], environment: ["DEVPATH": ""])
        #expect(run.status == 1)
        #expect(run.errors.contains("99-heylook-remote.rules"))
    }
}
