// RemoteCommandTests: `booth remote`: the udev rule's match of a remote, and what `list` and `keys` say without one.
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

    @Test func withoutDevpathItSaysWhatRunsIt() throws {
        let run = try runBooth(
            ["remote", "udev-match", "--config", try config("devices = []")], environment: ["DEVPATH": ""])
        #expect(run.status == 1)
        #expect(run.errors.contains("99-heylook-remote.rules"))
    }
}
