// FuzzHarness: one parser of outside input fed arbitrary bytes, with the invariants a fuzz run checks.
import BoothCore
import SoundOutput

/// The parsers of input the booth did not write (config, its own files after a bad shutdown, WAV files, a
/// stranger's stick, mountinfo, simulator scripts, photo names). Each takes any bytes: an error value is
/// fine, a trap, a hang or unbounded memory is a finding. Where it is cheap, what parses is checked too:
/// written back and parsed again, it means the same.
enum FuzzHarness: String, CaseIterable {
    case config, choices, wav, manifest, index, mountinfo, script, photoname, boothid, events

    /// Runs the parser on `bytes`; traps (a finding) when an invariant does not hold.
    func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        let text = String(decoding: bytes, as: UTF8.self)
        switch self {
        case .config:
            // The TOML reader with the config's validation, as `booth run` reads /etc/heylook/booth.toml.
            if let settings = try? ConfigFile.parse(text, customSounds: ["Custom"]) {
                precondition(!settings.favourites.isEmpty, "a parsed config has a favourite")
            }
        case .choices:
            let (choices, _) = ChoicesFile.decode(text, settings: BoothSettings())
            let (again, warning) = ChoicesFile.decode(ChoicesFile.encode(choices), settings: BoothSettings())
            precondition(again == choices && warning == nil, "choices round-trip")
        case .wav:
            if let buffer = try? WAVDecoder.decode(Array(bytes), file: "fuzz.wav") {
                precondition(
                    Double(buffer.frameCount) <= WAVDecoder.maximumSeconds * Double(buffer.sampleRate) + 1,
                    "a decoded sound is at most 5 s")
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
            _ = try? SimulationScript(parsing: text)
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
        case .boothid:
            if let identity = BoothIdentity.parse(text) {
                precondition(BoothIdentity.parse(identity.text) == identity, "booth id round-trip")
            }
        }
    }
}
