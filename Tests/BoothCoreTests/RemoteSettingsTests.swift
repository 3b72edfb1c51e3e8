// RemoteSettingsTests: a remote's config (its devices and keys), the kernel's key names, and what each key does.
import Foundation
import Testing

@testable import BoothCore

@Suite struct RemoteSettingsTests {
    /// Every KEY_ and BTN_ name the kernel's header defines by number is in the table with its code (the table is
    /// written from the header by scripts/key-codes; a header of a newer kernel would show what it lacks).
    @Test func theKeyTableIsTheKernels() throws {
        let header = try String(contentsOfFile: "/usr/include/linux/input-event-codes.h", encoding: .utf8)
        var defined: [String: UInt16] = [:]
        for line in header.split(separator: "\n") {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard words.count >= 3, words[0] == "#define", words[1].hasPrefix("KEY_") || words[1].hasPrefix("BTN_"),
                words[1] != "KEY_MAX", words[1] != "KEY_CNT"
            else { continue }
            let value = words[2].hasPrefix("0x") ? UInt16(words[2].dropFirst(2), radix: 16) : UInt16(words[2])
            if let value { defined[String(words[1])] = value }
        }
        #expect(defined.count > 500)
        for (name, code) in defined {
            #expect(KeyCode(name: name)?.code == code, "\(name)")
        }
        #expect(Dictionary(KeyCode.table.map { ($0.name, $0.code) }) { a, _ in a } == defined)
    }

    @Test func keysAreNamedAsTheKernelNamesThem() {
        #expect(KeyCode(name: "KEY_VOLUMEUP")?.code == 115)
        #expect(KeyCode(name: "volumeup")?.code == 115)
        #expect(KeyCode(name: "BTN_LEFT")?.code == 0x110)
        #expect(KeyCode(name: "KEY_VOLUMUP") == nil)
        #expect(KeyCode(name: "") == nil)
        #expect(KeyCode(code: 28).name == "KEY_ENTER")
        #expect(KeyCode(code: 0x2fe).name == "key 766")
        #expect(KeyCode.suggestions(for: "KEY_VOLUMUP").first == "KEY_VOLUMEUP")
        #expect(KeyCode.suggestions(for: "KEY_QQQQQQQQ") == [])
    }

    @Test func aRemoteIsSelectedByNameOrIds() {
        #expect(RemoteSelector(configValue: "248a:8266") == .ids(vendor: 0x248a, product: 0x8266))
        #expect(RemoteSelector(configValue: "AB Shutter3") == .name("AB Shutter3"))
        // Not four hex digits each: a name.
        #expect(RemoteSelector(configValue: "12:34") == .name("12:34"))
        #expect(RemoteSelector(configValue: "") == nil)
        #expect(RemoteSelector.name("ab shutter3").matches(name: "AB Shutter3", vendor: 1, product: 2))
        #expect(!RemoteSelector.name("AB Shutter").matches(name: "AB Shutter3", vendor: 1, product: 2))
        // The parts the kernel makes of one HID remote carry its name and their kind.
        #expect(RemoteSelector.name("AB Shutter3").matches(name: "AB Shutter3 Consumer Control", vendor: 1, product: 2))
        #expect(RemoteSelector.name("ab shutter3").matches(name: "AB Shutter3 Keyboard", vendor: 1, product: 2))
        #expect(!RemoteSelector.name("AB Shutter3").matches(name: "AB Shutter3 Pro", vendor: 1, product: 2))
        #expect(!RemoteSelector.name("AB").matches(name: "AB Shutter3 Keyboard", vendor: 1, product: 2))
        #expect(RemoteSelector.ids(vendor: 0x248a, product: 0x8266).matches(name: "x", vendor: 0x248a, product: 0x8266))
        #expect(!RemoteSelector.ids(vendor: 0x248a, product: 0x8266).matches(name: "x", vendor: 0x248a, product: 1))
        #expect(RemoteSelector.ids(vendor: 0x05ac, product: 0x22c).description == "05ac:022c")
    }

    @Test func theDefaultsTakeNoDeviceAndKnowASelfieRemotesKeys() {
        let remote = BoothSettings().remote
        #expect(remote.devices.isEmpty)
        #expect(remote.roles == [KeyCode(code: 115): .press, KeyCode(code: 28): .press, KeyCode(code: 114): .retake])
    }

    @Test func theConfigNamesDevicesAndKeys() throws {
        let settings = try ConfigFile.parse(
            """
            [remote]
            devices = ["AB Shutter3", "248a:8266"]
            press_keys = ["KEY_PAGEDOWN", "enter"]
            retake_keys = ["KEY_PAGEUP"]
            print_keys = ["KEY_P"]
            knob_left_keys = ["KEY_LEFT"]
            knob_right_keys = ["KEY_RIGHT"]
            knob_press_keys = ["KEY_UP"]
            """)
        #expect(settings.remote.devices == [.name("AB Shutter3"), .ids(vendor: 0x248a, product: 0x8266)])
        let roles = settings.remote.roles
        #expect(roles[KeyCode(name: "KEY_PAGEDOWN")!] == .press)
        #expect(roles[KeyCode(name: "KEY_ENTER")!] == .press)
        #expect(roles[KeyCode(name: "KEY_PAGEUP")!] == .retake)
        #expect(roles[KeyCode(name: "KEY_P")!] == .print)
        #expect(roles[KeyCode(name: "KEY_LEFT")!] == .knobLeft)
        #expect(roles[KeyCode(name: "KEY_RIGHT")!] == .knobRight)
        #expect(roles[KeyCode(name: "KEY_UP")!] == .knobPress)
        #expect(roles[KeyCode(name: "KEY_VOLUMEUP")!] == nil)
        #expect(roles.count == 7)
    }

    @Test(arguments: [
        ("[remote]\npress_keys = [\"KEY_VOLUMUP\"]", 2, "remote.press_keys", "did you mean KEY_VOLUMEUP"),
        ("[remote]\npress_keys = \"KEY_ENTER\"", 2, "remote.press_keys", "e.g. [\"KEY_VOLUMEUP\", \"KEY_ENTER\"]"),
        ("[remote]\npress_keys = [\"KEY_A\", \"a\"]", 2, "remote.press_keys", "KEY_A is listed twice"),
        ("[remote]\nretake_keys = [\"KEY_ENTER\"]", 2, "remote.retake_keys", "KEY_ENTER is in remote.press_keys too"),
        (
            "[remote]\nprint_keys = [\"KEY_P\"]\nknob_press_keys = [\"KEY_P\"]", 3, "remote.knob_press_keys",
            "list it once"
        ),
        ("[remote]\ndevices = [\"\"]", 2, "remote.devices", "vendor:product"),
        ("[remote]\ndevices = [1]", 2, "remote.devices", "expected names in quotes"),
        ("[remote]\nkeys = []", 2, "remote.keys", "allowed in [remote]: devices, press_keys"),
    ])
    func badRemoteConfigNamesTheKeyAndTheFix(text: String, line: Int, key: String, fragment: String) {
        do {
            _ = try ConfigFile.parse(text)
            Issue.record("expected an error for \(text)")
        } catch {
            #expect(error.line == line)
            #expect(error.key == key)
            #expect(error.description.contains(fragment), "\(error)")
        }
    }

    @Test func eachRoleIsOneOfTheBoothsControls() {
        #expect(RemoteKeyRole.press.events(.down) == [.buttonPressed])
        #expect(RemoteKeyRole.press.events(.up) == [.buttonReleased])
        #expect(RemoteKeyRole.press.events(.repeating) == [])
        #expect(RemoteKeyRole.retake.events(.down) == [.buttonPressed, .buttonLongPressed])
        #expect(RemoteKeyRole.retake.events(.up) == [.buttonReleased])
        #expect(RemoteKeyRole.print.events(.down) == [.printPressed])
        #expect(RemoteKeyRole.print.events(.repeating) == [])
        #expect(RemoteKeyRole.knobLeft.events(.repeating) == [.knobTurned(steps: -1)])
        #expect(RemoteKeyRole.knobRight.events(.down) == [.knobTurned(steps: 1)])
        #expect(RemoteKeyRole.knobRight.events(.up) == [])
        #expect(RemoteKeyRole.knobPress.events(.down) == [.knobPressed])
        #expect(RemoteKeyRole.knobPress.events(.up) == [])
    }
}

@Suite struct InputDeviceListTests {
    @Test func theKernelsListGivesNamesIdsBusesAndNodes() {
        let text = """
            I: Bus=0019 Vendor=0000 Product=0001 Version=0000
            N: Name="Power Button"
            P: Phys=LNXPWRBN/button/input0
            S: Sysfs=/devices/LNXSYSTM:00/LNXPWRBN:00/input/input0
            U: Uniq=
            H: Handlers=kbd event0 
            B: PROP=0
            B: EV=3
            B: KEY=10000000000000 0

            I: Bus=0005 Vendor=248a Product=8266 Version=0001
            N: Name="AB Shutter3"
            H: Handlers=sysrq kbd leds event3 
            B: EV=120013

            I: Bus=0006 Vendor=0000 Product=0000 Version=0000
            N: Name="no node"
            H: Handlers=js0

            """
        let devices = InputDeviceList(parsing: text).devices
        #expect(devices.count == 3)
        #expect(devices[0].name == "Power Button")
        #expect(devices[0].busName == "built in")
        #expect(devices[0].eventNode == "event0")
        #expect(
            devices[1]
                == InputDeviceList.Device(
                    name: "AB Shutter3", bus: 5, vendor: 0x248a, product: 0x8266, eventNode: "event3"))
        #expect(devices[1].busName == "Bluetooth")
        #expect(devices[2].eventNode == nil)
        #expect(devices[2].busName == "virtual")
        #expect(InputDeviceList(parsing: "").devices.isEmpty)
    }
}
