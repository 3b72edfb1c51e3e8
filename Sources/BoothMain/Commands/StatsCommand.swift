// StatsCommand: `booth stats`, a summary of the events the booth kept.
import ArgumentParser
import BoothCore
import BoothRuntime
import BoothSystem

/// `booth stats`: reads the events the service keeps beside its state file (the older `events.jsonl.1`
/// first, then `events.jsonl`), or the files given, and prints photos per day, sounds used, aborts by
/// reason, press→sound and shutter-lag percentiles and the temperature range. Read only.
struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract:
            "Summarise the booth's events: photos per day, sounds, aborts, press→sound and shutter lag, temperature."
    )

    @OptionGroup var configFile: ConfigOption

    @Argument(
        help:
            "Events files (JSON lines), oldest first (default: events.jsonl.1 and events.jsonl beside the state file: the service's, or the simulator's)."
    )
    var files: [String] = []

    func run() throws {
        let settings = try configFile.storeSettings(photosGiven: !files.isEmpty)
        let chosen = files.isEmpty ? [settings.eventsFile + ".1", settings.eventsFile] : files
        var stats = EventStats()
        var found = 0
        for path in chosen {
            if try EventsLog.readLines(path, into: &stats) { found += 1 }
        }
        guard found > 0 else {
            throw BoothFailure(
                "no events file: \(chosen.joined(separator: ", ")) do not exist (the service keeps them when "
                    + "booth.events_kb is above 0; pass a file written with --events-json)")
        }
        print(stats.report, terminator: "")
    }
}
