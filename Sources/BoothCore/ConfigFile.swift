// ConfigFile: reads and validates the booth's TOML config file into `BoothSettings`.
import BoothConfig
import LEDCountdown

/// Reads and validates the booth's TOML config file into `BoothSettings`.
///
/// Every key is checked; an error names the key, its line and what is allowed, so a person editing the
/// file on a Pi over ssh knows exactly what to change. Unknown keys are errors too (a typo would
/// otherwise be silently ignored).
public enum ConfigFile {
    /// A config problem at `line` of `key`: what is wrong and what is allowed, named as the config's.
    static func problem(line: Int?, key: String?, _ message: String) -> ParseError {
        ParseError(file: "config", line: line, key: key, message: message)
    }

    /// Parses `text` on top of the defaults. `customSounds` are sound names found in the sounds folder,
    /// allowed as favourites beside the built-in ones.
    public static func parse(_ text: String, customSounds: [String] = []) throws(ParseError) -> BoothSettings {
        let document: TOMLDocument
        do {
            document = try TOMLDocument(parsing: text)
        } catch {
            throw error.inFile("config")
        }
        var settings = BoothSettings()
        let knownSounds = BoothSettings.builtInSounds + customSounds
        for entry in document.entries {
            try apply(entry, to: &settings, knownSounds: knownSounds)
        }
        for (table, line) in document.tables where !schema.keys.contains(table) {
            throw problem(line: line, key: nil, "unknown table [\(table)]; allowed: \(tableList)")
        }
        if let why = mediaRootProblem(settings.mediaRoot, photosDirectory: settings.photosDirectory) {
            let line = document.entries.first { $0.path == "export.media_root" }?.line
            throw problem(line: line, key: "export.media_root", why)
        }
        try checkRemoteKeys(settings.remote, document)
        guard settings.favourites.contains(settings.defaultSound) else {
            let line = document.entries.first { $0.path == "sound.default" || $0.path == "sound.favourites" }?.line
            throw problem(
                line: line, key: "sound.default",
                "'\(settings.defaultSound)' is not among the favourites \(settings.favourites)")
        }
        return settings
    }

    /// A remote's key does one thing: one listed for two is an error at the later list.
    private static func checkRemoteKeys(_ remote: BoothSettings.Remote, _ document: TOMLDocument) throws(ParseError) {
        var seen: [KeyCode: RemoteKeyRole] = [:]
        for (role, keys) in remote.keyLists {
            for key in keys {
                if let first = seen[key], first != role {
                    let path = "remote.\(role.configKey)"
                    let line = document.entries.first { $0.path == path }?.line
                    throw problem(
                        line: line, key: path,
                        "\(key) is in remote.\(first.configKey) too, and a key does one thing: list it once "
                            + "(unless set, press_keys are KEY_VOLUMEUP and KEY_ENTER, retake_keys KEY_VOLUMEDOWN)")
                }
                seen[key] = role
            }
        }
    }

    /// Folders that are never a media root: the booth treats every mount below its media root as a
    /// stick to export to (and to unmount), so the root must be a folder of its own.
    static let systemFolders: Set<String> = [
        "/", "/bin", "/boot", "/boot/firmware", "/dev", "/etc", "/home", "/lib", "/lib64", "/media", "/mnt", "/opt",
        "/proc", "/root", "/run", "/run/media", "/run/mount", "/sbin", "/srv", "/sys", "/tmp", "/usr", "/usr/local",
        "/var", "/var/lib", "/var/tmp",
    ]

    /// Why `mediaRoot` cannot be the media root, with the fix; nil when it can.
    static func mediaRootProblem(_ mediaRoot: String, photosDirectory: String) -> String? {
        func normalized(_ path: String) -> String {
            "/" + path.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
        }
        let root = normalized(mediaRoot)
        let photos = normalized(photosDirectory)
        let fix = "use a folder of its own, e.g. \"/media/heylook\" (the default, where the udev rule mounts sticks)"
        if root.split(separator: "/").contains("..") {
            return "'\(mediaRoot)' must not contain '..'; \(fix)"
        }
        if systemFolders.contains(root)
            || ["/proc/", "/sys/", "/dev/", "/etc/", "/usr/", "/boot/"].contains(where: {
                root.hasPrefix($0)
            })
        {
            return "'\(mediaRoot)' is a system folder: every mount below it would be taken for a USB stick; \(fix)"
        }
        if photos == root || photos.hasPrefix(root + "/") || root.hasPrefix(photos + "/") {
            return "'\(mediaRoot)' overlaps the photos folder '\(photosDirectory)'; \(fix)"
        }
        return nil
    }

    /// Every table and its keys, in the order deploy/booth.toml and docs/configuration.md list them.
    public static let tables: [(name: String, keys: [String])] = [
        (
            "booth",
            [
                "photos_dir", "state_file", "ratio", "jpeg_quality", "burst", "flash", "flash_auto_lux",
                "review_window", "capture_timeout", "free_space_reserve_mb", "cleanup_exported", "trust_clock",
                "realtime_priority", "hot_limit", "events_kb",
            ]
        ),
        ("sound", ["device", "gain_db", "sounds_dir", "stick_sounds", "favourites", "default"]),
        ("countdown", ["default_delay", "visual", "delay_mode_timeout"]),
        ("camera", ["backend", "id", "width", "height", "rotation", "idle_fps", "keep_on_card"]),
        ("export", ["media_root", "folder", "sticks", "raw"]),
        (
            "print",
            [
                "mode", "queue", "copies", "limit_per_photo", "limit_per_event", "layout", "media", "margin_mm",
                "title", "date", "logo", "from_gallery",
            ]
        ),
        (
            "gpio",
            [
                "chip", "button", "button_led", "knob_a", "knob_b", "knob_switch", "leds", "flash", "haptic",
                "cancel", "print", "debounce_ms", "long_press_ms", "encoder",
            ]
        ),
        ("remote", ["devices"] + RemoteKeyRole.allCases.map(\.configKey)),
    ]

    /// Every key as `table.key`, in `tables`' order.
    public static var keys: [String] { tables.flatMap { table in table.keys.map { "\(table.name).\($0)" } } }

    /// The keys of each table; "" (top level) has none.
    private static let schema: [String: [String]] = Dictionary(
        uniqueKeysWithValues: [("", [])] + tables.map { ($0.name, $0.keys) })

    private static var tableList: String {
        tables.map(\.name).sorted().map { "[\($0)]" }.joined(separator: ", ")
    }

    private static func apply(
        _ entry: TOMLDocument.Entry, to s: inout BoothSettings, knownSounds: [String]
    ) throws(ParseError) {
        let v = Field(entry: entry)
        switch entry.path {
        case "booth.photos_dir": s.photosDirectory = try v.path()
        case "booth.state_file": s.stateFile = try v.path()
        case "booth.ratio":
            let names = AspectRatio.allCases.map(\.name)
            s.ratio = try v.choice(names, { AspectRatio(name: $0) })
        case "booth.jpeg_quality": s.jpegQuality = try v.integer(in: 50...100)
        case "booth.burst": s.burstCount = try v.integer(in: 1...10)
        case "booth.flash":
            s.flash = try v.choice(BoothSettings.FlashMode.allCases.map(\.rawValue), { .init(rawValue: $0) })
        case "booth.flash_auto_lux": s.flashAutoLux = try v.number(in: 0...100_000)
        case "booth.review_window": s.reviewWindow = try v.seconds(in: 0...60)
        case "booth.capture_timeout": s.captureTimeout = try v.seconds(in: 1...60)
        case "booth.free_space_reserve_mb": s.freeSpaceReserve = Int64(try v.integer(in: 0...1_000_000)) * 1024 * 1024
        case "booth.cleanup_exported": s.cleanupExported = try v.boolean()
        case "booth.trust_clock": s.trustClock = try v.boolean()
        case "booth.hot_limit": s.hotLimit = Int64((try v.number(in: 40...110) * 1000).rounded())
        case "booth.events_kb": s.eventsLimit = try v.integer(in: 0...1_048_576) * 1024
        case "booth.realtime_priority": s.realtimePriority = try v.integer(in: 0...50)
        case "sound.device": s.soundDevice = try v.nonEmptyString()
        case "sound.gain_db": s.soundGainDB = try v.number(in: -40...12)
        case "sound.sounds_dir": s.soundsDirectory = try v.path()
        case "sound.stick_sounds": s.stickSounds = try v.boolean()
        case "sound.favourites":
            let names = try v.stringArray(count: 1...5)
            for name in names where !knownSounds.contains(name) {
                throw v.error("'\(name)' is not a sound; allowed: \(knownSounds.joined(separator: ", "))")
            }
            guard Set(names).count == names.count else { throw v.error("a sound is listed twice") }
            s.favourites = names
        case "sound.default": s.defaultSound = try v.nonEmptyString()
        case "countdown.default_delay":
            let seconds = try v.number(in: 0.5...3.0)
            guard (seconds * 2).rounded() == seconds * 2 else {
                throw v.error("\(seconds) is not a multiple of 0.5; allowed: 0.5, 1.0, 1.5, 2.0, 2.5, 3.0")
            }
            s.defaultDelayHalfSeconds = Int(seconds * 2)
        case "countdown.visual": s.defaultVisualCountdown = try v.boolean()
        case "countdown.delay_mode_timeout": s.delayModeTimeout = try v.seconds(in: 1...60)
        case "camera.backend":
            s.cameraBackend = try v.choice(CameraBackend.allCases.map(\.rawValue)) { CameraBackend(rawValue: $0) }
        case "camera.keep_on_card": s.cameraKeepOnCard = try v.boolean()
        case "camera.id": s.camera = try v.nonEmptyString(orInteger: true)
        case "camera.width": s.cameraWidth = try v.integer(in: 0...16384)
        case "camera.height": s.cameraHeight = try v.integer(in: 0...16384)
        case "camera.rotation": s.rotation = try v.choice(["0", "180"], { Int($0) }, integers: true)
        case "camera.idle_fps": s.cameraIdleFPS = try v.integer(in: 0...30)
        case "export.media_root": s.mediaRoot = try v.path()
        case "export.folder":
            let folder = try v.nonEmptyString()
            guard !folder.contains("/"), folder != ".", folder != ".." else {
                throw v.error("must be a single folder name, without '/'")
            }
            s.exportFolder = folder
        case "export.sticks":
            s.exportSticks = try v.choice(BoothSettings.StickPolicy.allCases.map(\.rawValue), { .init(rawValue: $0) })
        case "export.raw": s.exportRaw = try v.boolean()
        case "print.mode": s.printMode = try v.choice(PrintMode.allCases.map(\.rawValue)) { PrintMode(rawValue: $0) }
        case "print.queue": s.printQueue = try v.queueName()
        case "print.copies": s.printCopies = try v.integer(in: 1...10)
        case "print.limit_per_photo": s.printLimitPerPhoto = try v.integer(in: 0...100)
        case "print.limit_per_event": s.printLimitPerEvent = try v.integer(in: 0...100_000)
        case "print.layout":
            s.printLayout = try v.choice(PrintLayout.Kind.allCases.map(\.rawValue)) { PrintLayout.Kind(rawValue: $0) }
        case "print.media":
            s.printMedia = try v.choice(PrintLayout.Media.allCases.map(\.rawValue)) { PrintLayout.Media(rawValue: $0) }
        case "print.margin_mm": s.printMargin = try v.number(in: 0...15)
        case "print.title":
            guard case .string(let title) = v.value, title.count <= 60, !title.contains(where: \.isNewline) else {
                throw v.error("expected a title of at most 60 characters on one line, in quotes")
            }
            s.printTitle = title
        case "print.date": s.printDate = try v.boolean()
        case "print.logo": s.printLogo = try v.logoPath()
        case "print.from_gallery": s.printFromGallery = try v.boolean()
        case "gpio.chip": s.gpio.chip = try v.nonEmptyString()
        case "gpio.button": s.gpio.button = try v.line()
        case "gpio.button_led": s.gpio.buttonLED = try v.line()
        case "gpio.knob_a": s.gpio.knobA = try v.line()
        case "gpio.knob_b": s.gpio.knobB = try v.line()
        case "gpio.knob_switch": s.gpio.knobSwitch = try v.line()
        case "gpio.leds":
            let allowed = LEDPattern.ledCounts
            let range = "\(allowed.lowerBound) to \(allowed.upperBound)"
            guard case .array(let items) = entry.value, allowed.contains(items.count) else {
                if case .array(let items) = entry.value, items.count == 1 {
                    throw v.error(
                        "one LED cannot tell the booth's situations apart (taking a photo and saving it would both "
                            + "be the LED lit); wire a second LED and list \(range) lines, e.g. [22, 23]")
                }
                throw v.error("must be an array of \(range) lines, e.g. [22, 23, 24, 25]")
            }
            var leds: [BoothSettings.Line] = []
            for item in items { leds.append(try Field(entry: entry, value: item).line()) }
            s.gpio.leds = leds
        case "gpio.flash": s.gpio.flash = try v.line()
        case "gpio.haptic": s.gpio.haptic = try v.line()
        case "gpio.cancel": s.gpio.cancel = try v.line()
        case "gpio.print": s.gpio.print = try v.line()
        case "gpio.debounce_ms": s.gpio.debounce = .milliseconds(Int64(try v.integer(in: 0...100)))
        case "gpio.long_press_ms": s.gpio.longPress = .milliseconds(Int64(try v.integer(in: 300...5000)))
        case "gpio.encoder":
            s.gpio.encoder = try v.choice(BoothSettings.EncoderKind.allCases.map(\.rawValue), { .init(rawValue: $0) })
        case "remote.devices":
            var devices: [RemoteSelector] = []
            for name in try v.stringArray(count: 0...8, example: "[\"AB Shutter3\", \"248a:8266\"]") {
                guard let selector = RemoteSelector(configValue: name) else {
                    throw v.error(
                        "a device's name is empty; name each by its name or vendor:product, e.g. \"AB Shutter3\"")
                }
                devices.append(selector)
            }
            s.remote.devices = devices
        case "remote.press_keys": s.remote.pressKeys = try v.keys()
        case "remote.retake_keys": s.remote.retakeKeys = try v.keys()
        case "remote.print_keys": s.remote.printKeys = try v.keys()
        case "remote.knob_left_keys": s.remote.knobLeftKeys = try v.keys()
        case "remote.knob_right_keys": s.remote.knobRightKeys = try v.keys()
        case "remote.knob_press_keys": s.remote.knobPressKeys = try v.keys()
        default:
            if let allowed = schema[entry.table] {
                let list =
                    allowed.isEmpty
                    ? "keys belong in a table: \(tableList)"
                    : "allowed in [\(entry.table)]: \(allowed.joined(separator: ", "))"
                throw problem(line: entry.line, key: entry.path, "unknown key; \(list)")
            }
            throw problem(line: entry.line, key: entry.path, "unknown table [\(entry.table)]; allowed: \(tableList)")
        }
    }
}
