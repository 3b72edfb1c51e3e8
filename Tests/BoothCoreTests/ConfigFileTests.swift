// ConfigFileTests: the config file's keys, ranges and errors, the simulator's script format, the shipped config.
import BoothTime
import Foundation
import Testing

@testable import BoothCore

@Suite struct ConfigFileTests {
    @Test func anEmptyFileGivesTheDefaults() throws {
        let settings = try ConfigFile.parse("")
        #expect(settings == BoothSettings())
        #expect(settings.favourites == ["Duck", "Cow", "Dog", "Boing", "Whistle"])
        #expect(settings.defaultDelayHalfSeconds == 2)
        #expect(settings.ratio == .fourByThree)
        #expect(settings.reviewWindow == .seconds(5))
    }

    @Test func theShippedConfigParses() throws {
        let text = """
            # HeyLook Booth
            [booth]
            photos_dir = "/srv/photos"
            ratio = "16:9"
            review_window = 7.5
            realtime_priority = 0
            burst = 3
            flash = "auto"
            flash_auto_lux = 20.5

            [sound]
            device = "plughw:CARD=Headphones"
            favourites = ["Bell", "Cow",
                          "Chime"]   # three
            default = "Cow"
            gain_db = -6

            [countdown]
            default_delay = 2.5
            visual = false
            delay_mode_timeout = 8

            [gpio]
            chip = "pinctrl-rp1"
            button = 17
            knob_a = "GPIO5"
            leds = [22, 23, 24, 25, 26, 16]
            long_press_ms = 1500
            encoder = "half-step"
            print = 20

            [camera]
            backend = "gphoto2"
            id = 1
            rotation = 180
            keep_on_card = false

            [print]
            mode = "on-request"
            queue = "Selphy_CP1500"
            copies = 2
            limit_per_photo = 2
            limit_per_event = 150
            layout = "strip"
            media = "a6"
            margin_mm = 4.5
            title = "Emma turns 5"
            date = true
            logo = "/etc/heylook/logo.png"
            """
        let s = try ConfigFile.parse(text)
        #expect(s.photosDirectory == "/srv/photos")
        #expect(s.ratio == .sixteenByNine)
        #expect(s.reviewWindow == .seconds(7.5))
        #expect(s.realtimePriority == 0)
        #expect(s.burstCount == 3)
        #expect(s.flash == .auto)
        #expect(s.flashAutoLux == 20.5)
        #expect(s.soundDevice == "plughw:CARD=Headphones")
        #expect(s.favourites == ["Bell", "Cow", "Chime"])
        #expect(s.defaultSound == "Cow")
        #expect(s.soundGainDB == -6)
        #expect(s.defaultDelayHalfSeconds == 5)
        #expect(s.defaultVisualCountdown == false)
        #expect(s.machineConfiguration.delayModeTimeout == .seconds(8))
        #expect(s.gpio.chip == "pinctrl-rp1")
        #expect(s.gpio.knobA == .name("GPIO5"))
        #expect(s.gpio.leds.count == 6)
        #expect(s.gpio.longPress == .milliseconds(1500))
        #expect(s.gpio.encoder == .halfStep)
        #expect(s.camera == "1")
        #expect(s.rotation == 180)
        #expect(s.cameraBackend == .gphoto2)
        #expect(s.cameraKeepOnCard == false)
        #expect(s.printMode == .onRequest)
        #expect(s.machineConfiguration.printMode == .onRequest)
        #expect(s.printLimitPerPhoto == 2 && s.printLimitPerEvent == 150)
        #expect(s.printPage == PrintLayout(kind: .strip, media: .a6, margin: 4.5))
        #expect(s.printTitle == "Emma turns 5" && s.printDate && s.printLogo == "/etc/heylook/logo.png")
        #expect(s.gpio.print == .offset(20))
        #expect(s.printQueue == "Selphy_CP1500")
        #expect(s.printCopies == 2)
        let defaults = try ConfigFile.parse("")
        #expect(defaults.printMode == .off)
        #expect(defaults.machineConfiguration.printMode == .off)
        #expect(defaults.printLimitPerPhoto == 0 && defaults.printLimitPerEvent == 0 && defaults.gpio.print == nil)
        #expect(defaults.printPage == PrintLayout(kind: .photo) && defaults.printTitle.isEmpty && !defaults.printDate)
        #expect(defaults.printLogo.isEmpty)
        #expect(defaults.printQueue == "")
        #expect(defaults.printCopies == 1)
        #expect(defaults.cameraBackend == .auto)
        #expect(defaults.cameraKeepOnCard)
    }

    /// `export.raw`: off by default, on when set; parsing it as a string choice ("yes"/"no") fails this.
    @Test func exportRawIsOffUnlessSet() throws {
        #expect(try ConfigFile.parse("").exportRaw == false)
        #expect(try ConfigFile.parse("[export]\nraw = true").exportRaw == true)
        #expect(try ConfigFile.parse("[export]\nraw = false").exportRaw == false)
    }

    /// Each bad value: the error names the line, the key and what is allowed.
    @Test(arguments: [
        ("[booth]\nratio = \"5:4\"", 2, "booth.ratio", "allowed: 3:4, 4:3, 16:9, 1:1"),
        ("[booth]\n\nburst = 11", 3, "booth.burst", "allowed: 1 to 10"),
        ("[booth]\nburst = \"two\"", 2, "booth.burst", "expected a whole number"),
        ("[countdown]\ndefault_delay = 1.2", 2, "countdown.default_delay", "not a multiple of 0.5"),
        ("[countdown]\ndefault_delay = 4.0", 2, "countdown.default_delay", "allowed: 0.5 to 3.0"),
        ("[sound]\nfavourites = [\"Duck\", \"Moose\"]", 2, "sound.favourites", "'Moose' is not a sound"),
        (
            "[sound]\nfavourites = [\"Duck\", \"Cow\", \"Dog\", \"Pop\", \"Bell\", \"Chime\"]", 2, "sound.favourites",
            "1 to 5"
        ),
        ("[sound]\nfavourites = [\"Duck\", \"Duck\"]", 2, "sound.favourites", "listed twice"),
        ("[sound]\ndefault = \"Bell\"", 2, "sound.default", "not among the favourites"),
        ("[gpio]\nbutton = -1", 2, "gpio.button", "line offset"),
        ("[gpio]\nleds = []", 2, "gpio.leds", "2 to 8 lines"),
        ("[gpio]\nleds = [22]", 2, "gpio.leds", "one LED cannot tell the booth's situations apart"),
        ("[gpio]\nleds = [22]", 2, "gpio.leds", "wire a second LED and list 2 to 8 lines, e.g. [22, 23]"),
        ("[gpio]\nleds = [1, 2, 3, 4, 5, 6, 7, 8, 9]", 2, "gpio.leds", "2 to 8 lines"),
        ("[gpio]\nencoder = \"quarter\"", 2, "gpio.encoder", "allowed: full-step, half-step"),
        ("[gpio]\nbutonn = 17", 2, "gpio.butonn", "unknown key; allowed in [gpio]: chip, button"),
        ("[booth]\nphotos_dir = \"photos\"", 2, "booth.photos_dir", "absolute path"),
        ("[export]\nfolder = \"../x\"", 2, "export.folder", "single folder name"),
        ("[camera]\nrotation = 90", 2, "camera.rotation", "allowed: 0, 180"),
        ("[camera]\nidle_fps = 60", 2, "camera.idle_fps", "allowed: 0 to 30"),
        ("[camera]\nbackend = \"dslr\"", 2, "camera.backend", "allowed: auto, libcamera, gphoto2"),
        ("[camera]\nkeep_on_card = 1", 2, "camera.keep_on_card", "expected true or false"),
        ("[booth]\ntrust_clock = 1", 2, "booth.trust_clock", "true or false"),
        ("[print]\nmode = \"always\"", 2, "print.mode", "allowed: off, each, on-request"),
        ("[print]\nlimit_per_photo = -1", 2, "print.limit_per_photo", "allowed: 0 to 100"),
        ("[print]\nlimit_per_event = 1.5", 2, "print.limit_per_event", "expected a whole number"),
        ("[print]\nlayout = \"collage\"", 2, "print.layout", "allowed: photo, strip, grid"),
        ("[print]\nmedia = \"A4\"", 2, "print.media", "allowed: 4x6, 5x7, a6"),
        ("[print]\nmargin_mm = 20", 2, "print.margin_mm", "allowed: 0"),
        ("[print]\ntitle = 5", 2, "print.title", "at most 60 characters on one line"),
        (
            "[print]\nlogo = \"logo.png\"", 2, "print.logo",
            "'logo.png' must be an absolute path (starting with '/'), e.g. \"/etc/heylook/logo.png\" (the booth's "
                + "service can read /etc/heylook/, not /home or /tmp)"
        ),
        (
            "[print]\nlogo = true", 2, "print.logo",
            "expected a PNG file's path in quotes, e.g. \"/etc/heylook/logo.png\""
        ),
        ("[print]\nlogo = \"/etc/heylook/\"", 2, "print.logo", "'/etc/heylook/' is a folder: name the PNG file in it"),
        ("[print]\ncopies = 0", 2, "print.copies", "allowed: 1 to 10"),
        ("[print]\nqueue = \"Photo Printer\"", 2, "print.queue", "no CUPS queue name (no spaces, '/' or '#'"),
        ("[print]\nqueue = 3", 2, "print.queue", "expected a queue name in quotes"),
        ("[countdown]\nvisual = \"yes\"", 2, "countdown.visual", "true or false"),
        ("[booth]\nrealtime_priority = 99", 2, "booth.realtime_priority", "allowed: 0 to 50"),
        ("[countdown]\ndelay_mode_timeout = 0.5", 2, "countdown.delay_mode_timeout", "allowed: 1"),
        ("[export]\nmedia_root = \"/\"", 2, "export.media_root", "is a system folder"),
        ("[export]\nsticks = \"mine\"", 2, "export.sticks", "allowed: owner, any"),
        // Mutation tried: parsing export.raw as a string choice ("yes"/"no") drops "expected true or false".
        ("[export]\nraw = \"yes\"", 2, "export.raw", "expected true or false, found \"yes\""),
        ("[export]\n\nraw = 1", 3, "export.raw", "expected true or false"),
        ("[export]\n\nmedia_root = \"/media/\"", 3, "export.media_root", "e.g. \"/media/heylook\""),
        ("[export]\nmedia_root = \"/var\"", 2, "export.media_root", "every mount below it"),
        ("[export]\nmedia_root = \"//home/\"", 2, "export.media_root", "is a system folder"),
        ("[export]\nmedia_root = \"/usr/share/heylook\"", 2, "export.media_root", "is a system folder"),
        ("[export]\nmedia_root = \"/media/heylook/..\"", 2, "export.media_root", "must not contain '..'"),
        ("[export]\nmedia_root = \"/var/lib/heylook\"", 2, "export.media_root", "overlaps the photos folder"),
        (
            "[booth]\nphotos_dir = \"/srv/booth/media/photos\"\n[export]\nmedia_root = \"/srv/booth/media\"", 4,
            "export.media_root", "overlaps the photos folder"
        ),
    ])
    func badValuesNameTheKeyLineAndAllowedValues(text: String, line: Int, key: String, fragment: String) {
        do {
            _ = try ConfigFile.parse(text)
            Issue.record("expected an error for \(key)")
        } catch {
            #expect(error.line == line)
            #expect(error.key == key)
            #expect(error.description.contains(fragment), "\(error)")
        }
    }

    @Test(arguments: [
        "/media/heylook", "/media/heylook/", "/srv/heylook-media", "/mnt/sticks", "/var/lib/heylook-media",
    ])
    func aDedicatedMediaRootIsAccepted(root: String) throws {
        #expect(try ConfigFile.parse("[export]\nmedia_root = \"\(root)\"").mediaRoot == root)
    }

    @Test(arguments: [
        ("[booth\nx = 1", 1, "expected ']'"),
        ("[booth]\nratio = 4:3", 2, "strings need quotes"),
        ("[booth]\nratio = \"4:3", 2, "not closed"),
        ("[booth]\nburst = 1 2", 2, "after the value"),
        ("[booth]\nburst = 1\nburst = 2", 3, "set twice"),
        ("[booth]\n[booth]", 2, "appears twice"),
        ("[nope]\n", 1, "unknown table [nope]"),
        ("ratio = \"4:3\"", 1, "keys belong in a table"),
    ])
    func syntaxErrorsNameTheLine(text: String, line: Int, fragment: String) {
        do {
            _ = try ConfigFile.parse(text)
            Issue.record("expected an error")
        } catch {
            #expect(error.line == line, "\(error)")
            #expect(error.description.contains(fragment), "\(error)")
        }
    }

    @Test func customSoundsCanBeFavourites() throws {
        let s = try ConfigFile.parse(
            "[sound]\nfavourites = [\"Grandma\", \"Duck\"]\ndefault = \"Grandma\"", customSounds: ["Grandma"])
        #expect(s.favourites == ["Grandma", "Duck"])
    }
}

@Suite struct SimulationScriptTests {
    @Test func everyCommandParses() throws {
        let script = try SimulationScript(
            parsing:
                "press\n# comment\n\nlong-press\nknob +3\nknob -2\nknob-press\nknob-long-press\ncancel\nprint\n"
                + "key KEY_VOLUMEUP\nkey enter\nwait 1.5  # pause\nquit\n"
        )
        #expect(
            script.commands == [
                .press, .longPress, .knob(3), .knob(-2), .knobPress, .knobLongPress, .cancel, .print,
                .key(KeyCode(code: 115)), .key(KeyCode(code: 28)), .wait(.milliseconds(1500)),
                .quit,
            ])
    }

    @Test(arguments: [
        ("presss", "unknown command 'presss'"), ("knob 3", "knob +N"), ("wait", "wait SECONDS"),
        ("wait -1", "wait SECONDS"), ("press now", "takes no argument"), ("key KEY_VOLUMUP", "key NAME"),
        ("key", "key NAME"),
    ])
    func badLinesNameTheLineAndTheCommands(text: String, fragment: String) {
        do {
            _ = try SimulationScript(parsing: "press\n" + text)
            Issue.record("expected an error")
        } catch {
            #expect(error.line == 2)
            #expect(error.description.contains(fragment))
            #expect(error.description.contains("commands: press, long-press"))
        }
    }
}

@Suite struct ShippedConfigTests {
    /// deploy/booth.toml documents every default: it must parse to exactly the defaults.
    @Test func theShippedConfigIsTheDefaults() throws {
        let path = String(#filePath.split(separator: "/Tests/").first!) + "/deploy/booth.toml"
        let text = try #require(try? String(contentsOfFile: path, encoding: .utf8))
        #expect(try ConfigFile.parse(text) == BoothSettings())
    }
}

/// The config's documentation and the reader's own key list cannot drift: deploy/booth.toml names every key (set, or
/// commented out for the optional lines) and docs/configuration.md has one row per key, with the shipped default.
@Suite struct ConfigDocsTests {
    private static let root = String(#filePath.split(separator: "/Tests/").first!)

    /// `table.key` → its value's text in deploy/booth.toml; the optional lines' commented examples count as keys with
    /// no default (nil).
    static func shippedKeys() throws -> [String: String?] {
        let text = try String(contentsOfFile: root + "/deploy/booth.toml", encoding: .utf8)
        var table = ""
        var keys: [String: String?] = [:]
        for raw in text.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") {
                table = String(line.dropFirst().prefix { $0 != "]" })
                continue
            }
            let commented = line.hasPrefix("#")
            let body = commented ? line.dropFirst().trimmingCharacters(in: .whitespaces) : line
            guard let equals = body.firstIndex(of: "="), !table.isEmpty else { continue }
            let name = body[..<equals].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, name.allSatisfy({ $0.isLowercase || $0 == "_" || $0.isNumber }) else { continue }
            var value = body[body.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if let comment = value.range(of: "  #") ?? value.range(of: " #") {
                value = value[..<comment.lowerBound].trimmingCharacters(in: .whitespaces)
            }
            keys["\(table).\(name)"] = commented ? String?.none : value
        }
        return keys
    }

    @Test func theShippedConfigNamesEveryKey() throws {
        let shipped = try Self.shippedKeys()
        #expect(Set(ConfigFile.keys).subtracting(shipped.keys).isEmpty, "keys deploy/booth.toml does not name")
        #expect(Set(shipped.keys).subtracting(ConfigFile.keys).isEmpty, "deploy/booth.toml names unknown keys")
        // Only the optional lines have no default; every other key is set to its default (checked by
        // ShippedConfigTests: the file parses to exactly the defaults).
        #expect(
            Set(shipped.filter { $0.value == nil }.keys) == ["gpio.flash", "gpio.haptic", "gpio.cancel", "gpio.print"])
    }

    /// One row per key in docs/configuration.md: `| \`table.key\` | \`default\` | allowed | what it does |`.
    @Test func theConfigurationPageHasOneRowPerKeyWithItsDefault() throws {
        let page = try String(contentsOfFile: Self.root + "/docs/configuration.md", encoding: .utf8)
        let shipped = try Self.shippedKeys()
        var rows: [String: String] = [:]
        for line in page.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count >= 5 else {
                Issue.record("docs/configuration.md: a key row needs 4 cells: \(line)")
                continue
            }
            let key = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            #expect(rows[key] == nil, "docs/configuration.md lists \(key) twice")
            rows[key] = cells[2]
        }
        let missing = Set(ConfigFile.keys).subtracting(rows.keys).sorted()
        let unknown = Set(rows.keys).subtracting(ConfigFile.keys).sorted()
        #expect(missing.isEmpty, "docs/configuration.md has no row for \(missing)")
        #expect(unknown.isEmpty, "docs/configuration.md has rows for keys the config reader lacks: \(unknown)")
        for (key, documented) in rows {
            guard let value = shipped[key] else { continue }
            if let value {
                #expect(documented == "`\(value)`", "docs/configuration.md: \(key)'s default")
            } else {
                #expect(documented == "(none)", "docs/configuration.md: \(key) has no default")
            }
        }
    }
}
