// FuzzHarness: one parser of outside input fed arbitrary bytes, with the invariants a fuzz run checks.
import BoothCore
import BoothTime
import GalleryCore
import PhotoEncoding
import PhotoModel
import SoundOutput

/// The parsers of input the booth did not write (config, its own files after a bad shutdown, WAV files, a
/// stranger's stick and its listing, mountinfo, simulator scripts, photo names, any file given to `booth inspect`,
/// the kernel's and firmware's health files, the hotspot's name server's answers, a photo's first bytes as the export
/// dates it). Each takes any bytes: an error value is fine, a trap, a hang or
/// unbounded memory is a finding. What parses is checked too: written back and parsed again it means the same, or
/// it lies within the bounds the docs give.
enum FuzzHarness: String, CaseIterable {
    case config, choices, wav, manifest, index, mountinfo, script, photoname, boothid, events, inspect, health
    case exportplan, dnsanswer, redate

    /// Runs the parser on `bytes`; traps (a finding) when an invariant does not hold.
    func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        let text = String(decoding: bytes, as: UTF8.self)
        switch self {
        case .config:
            // The TOML reader with the config's validation, as `booth run` reads /etc/heylook/booth.toml.
            if let settings = try? ConfigFile.parse(text, customSounds: ["Custom"]) {
                precondition(!settings.favourites.isEmpty, "a parsed config has a favourite")
                // The ranges docs/configuration.md gives.
                precondition((50...100).contains(settings.jpegQuality), "jpeg_quality 50 to 100")
                precondition((1...10).contains(settings.burstCount), "burst 1 to 10")
                precondition((0...50).contains(settings.realtimePriority), "realtime_priority 0 to 50")
                precondition((40_000...110_000).contains(settings.hotLimit), "hot_limit 40 to 110 °C")
                precondition((-40...12).contains(settings.soundGainDB), "gain_db -40 to 12")
                precondition((0...30).contains(settings.cameraIdleFPS), "idle_fps 0 to 30")
                precondition(
                    (Duration.zero...Duration.seconds(60)).contains(settings.reviewWindow), "review_window 0 to 60 s")
                precondition(
                    (Duration.seconds(1)...Duration.seconds(60)).contains(settings.captureTimeout),
                    "capture_timeout 1 to 60 s")
                precondition((2...8).contains(settings.gpio.leds.count), "2 to 8 LEDs")
                precondition(
                    RuntimeChoices.delayRange.contains(settings.defaultDelayHalfSeconds), "default delay 0.5 to 3.0 s")
                precondition(settings.favourites.contains(settings.defaultSound), "the default sound is a favourite")
            }
        case .choices:
            let (choices, _) = ChoicesFile.decode(text, settings: BoothSettings())
            let (again, warning) = ChoicesFile.decode(ChoicesFile.encode(choices), settings: BoothSettings())
            precondition(again == choices && warning == nil, "choices round-trip")
        case .wav:
            if let buffer = try? WAVDecoder.decode(Array(bytes), file: "fuzz.wav") {
                precondition(
                    buffer.duration <= WAVDecoder.maximumLength,
                    "a decoded sound is at most 5 s")
                precondition(buffer.sampleRate > 0, "a decoded sound has a sample rate")
            }
        case .manifest:
            if let manifest = ExportManifest.decode(text) {
                precondition(ExportManifest.decode(manifest.encode()) == manifest, "manifest round-trip")
            }
            _ = ExportManifest.salvageStickID(text)
        case .index:
            if let index = PhotoIndex.decode(text) {
                precondition(PhotoIndex.decode(index.encode()) == index, "index round-trip")
            }
        case .mountinfo:
            var tracker = StickTracker(root: "/media/heylook")
            let entries = MountTable.parse(text)
            _ = tracker.mountsChanged(entries)
            precondition(tracker.mountsChanged(entries).isEmpty, "the same reading twice changes nothing")
        case .script:
            if let script = try? SimulationScript(parsing: text) {
                for command in script.commands {
                    switch command {
                    case .knob(let steps): precondition((1...1000).contains(abs(steps)), "knob ±1 to ±1000")
                    case .wait(let duration):
                        precondition((Duration.zero...Duration.seconds(86_400)).contains(duration), "wait 0 to 86400 s")
                    default: break
                    }
                }
                precondition(script.commands.count <= text.utf8.count, "no command from nothing")
            }
        case .photoname:
            if let name = PhotoName(fileName: text) {
                precondition(PhotoName(fileName: name.fileName) == name, "photo name round-trip")
            }
        case .events:
            // An events file as `booth stats` reads it (the last line may be cut by a power failure).
            var stats = EventStats()
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if let record = EventRecord(line: line) {
                    precondition(EventRecord(line: Substring(record.line)) == record, "event record round-trip")
                }
                stats.add(line: line)
            }
            _ = stats.report
        case .inspect:
            // `booth inspect FILE` of any file: libjpeg's header and libexif's EXIF through the shim.
            if let info = try? JPEGInspector.inspect(Array(bytes)) {
                precondition((1...65_500).contains(info.width) && (1...65_500).contains(info.height), "JPEG size")
                precondition((1...10).contains(info.components), "JPEG components")
                if let exif = info.exif {
                    precondition(exif.cameraModel.utf8.count <= bytes.count, "no EXIF text from nothing")
                    precondition((exif.dateTime?.utf8.count ?? 0) <= bytes.count, "no EXIF date from nothing")
                }
            }
        case .health:
            // A thermal zone's temp and the firmware's get_throttled, as the booth reads them every minute.
            if let millidegrees = HealthReading.parseTemperature(text) {
                precondition(
                    HealthReading.parseTemperature(String(millidegrees)) == millidegrees, "temperature round-trip")
                _ = HealthReading(temperature: millidegrees, throttled: nil).overheating(limit: 80_000)
            }
            if let flags = HealthReading.parseThrottled(text) {
                precondition(HealthReading.parseThrottled("0x" + String(flags, radix: 16)) == flags, "flags round-trip")
                precondition(HealthReading(temperature: nil, throttled: flags).flagWords.count <= 8, "at most 8 flags")
            }
        case .exportplan:
            Self.planExport(text)
        case .dnsanswer:
            // What `booth hotspot` reads back from the hotspot's name server (its id the answer's first two bytes).
            let id = bytes.count >= 2 ? UInt16(bytes[0]) << 8 | UInt16(bytes[1]) : 0
            let query = DNSQuery(id: id, name: "connectivitycheck.gstatic.com")!
            if let addresses = query.addresses(in: Array(bytes)) {
                precondition(addresses.count * 16 <= bytes.count, "no address from nothing")
                precondition(addresses.allSatisfy { $0.split(separator: ".").count == 4 }, "dotted IPv4")
            }
        case .redate:
            // A photo's first bytes as an export dates them: the copy's first EXIF segment holds the date.
            let date = "2026:11:28 02:32:20"
            if let redating = try? ExifRedating(prefix: Array(bytes), dateTime: date) {
                precondition(redating.replaced <= bytes.count && redating.replaced >= 4, "within the prefix")
                let copy = redating.head + bytes[redating.replaced...]
                if let exif = (try? JPEGInspector.inspect(copy))?.exif {
                    precondition(exif.dateTime == date, "the copy is dated")
                }
            }
        case .boothid:
            if let identity = BoothIdentity.parse(text) {
                precondition(BoothIdentity.parse(identity.text) == identity, "booth id round-trip")
            }
        }
    }

    /// A stranger's stick: its manifest (the text before the first NUL) and its listing (`folder/name size` lines
    /// after it), planned against a store of photos named from the listing and a few of this booth's own. The plan
    /// never claims one path twice, adopts only a file of the photo's size, never writes over a file it does not
    /// adopt, and accounts for every manifest entry and every photo.
    static func planExport(_ text: String) {
        let parts = text.split(separator: "\u{0}", maxSplits: 1, omittingEmptySubsequences: false)
        let manifest =
            ExportManifest.decode(String(parts[0])) ?? ExportManifest.salvageStickID(String(parts[0])).map {
                ExportManifest(stickID: $0)
            } ?? ExportManifest(stickID: "0123456789abcdef")
        var present: [String: Int64] = [:]
        var photos: [ExportPlan.Photo] = [
            .init(name: "HeyLook_2026-11-22_14-03-07_000001.jpg", size: 100),
            .init(name: "HeyLook_undated_000002.jpg", size: 7),
            .init(
                name: "HeyLook_undated_000003.jpg", size: 9, folder: "2026-11-28",
                stickName: "HeyLook_2026-11-28_02-32-20_000003.jpg"),
        ]
        for line in (parts.count > 1 ? parts[1] : "").split(separator: "\n").prefix(200) {
            let fields = line.split(separator: " ")
            guard fields.count == 2, let size = Int64(fields[1]), size >= 0 else { continue }
            present[String(fields[0])] = size
            if let name = fields[0].split(separator: "/").last, photos.count < 50 {
                photos.append(.init(name: String(name), size: size))
            }
        }
        let plan = ExportPlan.make(
            photos: photos, booth: "fuzzbooth", manifest: manifest, present: present, maximumFileSize: 4_294_967_295)
        precondition(plan.kept.count + plan.dropped.count == manifest.entries.count, "every manifest entry judged")
        precondition(
            plan.alreadyThere + plan.items.count + plan.skipped.count == photos.count, "every photo accounted for")
        var claimed = Set(plan.kept.map { $0.path.lowercased() })
        let sizes = Dictionary(present.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        for item in plan.items {
            let key = "\(item.folder)/\(item.name)".lowercased()
            precondition(claimed.insert(key).inserted, "one path claimed twice: \(key)")
            precondition(FATName.isSafe(item.name), "a name a FAT stick cannot hold: \(item.name)")
            if item.adopt {
                precondition(sizes[key] == item.size, "adopted a file of another size")
            } else {
                precondition(sizes[key] == nil, "would write over a file it does not adopt: \(key)")
            }
        }
    }
}
