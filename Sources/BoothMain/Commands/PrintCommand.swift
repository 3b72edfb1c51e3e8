// PrintCommand: `booth print count|reset`, the prints of the event and a new event's count.
import ArgumentParser
import BoothCore
import BoothRuntime
import BoothSystem

/// `booth print count` shows the prints made since the last reset against the limits (`print.limit_per_photo`,
/// `print.limit_per_event`); `sudo booth print reset` starts a new event: every count goes back to 0. The counts are
/// the booth's print ledger, `prints.txt` beside the state file (the service's, or the simulator's).
struct PrintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "print",
        abstract: "Show the prints of this event against the limits, or start a new event (reset, with sudo)."
    )

    enum Action: String, ExpressibleByArgument, CaseIterable {
        /// Print the counts and the limits.
        case count
        /// Start a new event: the counts go back to 0.
        case reset
    }

    @OptionGroup var configFile: ConfigOption

    @Argument(help: "count: the prints since the last reset and the limits; reset: start a new event's count.")
    var action: Action = .count

    func run() throws {
        let settings = try configFile.storeSettings()
        let file = PrintLedgerFile(path: settings.printLedgerFile)
        let before: PrintLedger
        do {
            before = try file.read()
        } catch {
            throw BoothFailure("cannot read the print count: \(error)")
        }
        switch action {
        case .count:
            print(Self.report(before, settings: settings), terminator: "")
        case .reset:
            guard FileAccess.exists(file.path) else {
                print("no prints counted yet (\(file.path) does not exist): nothing to reset")
                return
            }
            do {
                try file.append(PrintLedger.resetLine + "\n")
            } catch var error {
                if error.code.meansNotAllowed { error.fix = "run it with sudo: sudo booth print reset" }
                throw BoothFailure("cannot reset the print count: \(error)")
            }
            print(
                "print count reset: \(before.total) print\(before.total == 1 ? "" : "s") in the event before; a new event starts at 0"
            )
        }
    }

    /// The counts against the limits, a line each.
    static func report(_ ledger: PrintLedger, settings: BoothSettings) -> String {
        func limit(_ value: Int) -> String { value == 0 ? "no limit" : "limit \(value)" }
        var text = "print.mode: \(settings.printMode.rawValue)\n"
        text +=
            "this event: \(ledger.total) print\(ledger.total == 1 ? "" : "s") (\(limit(settings.printLimitPerEvent)))\n"
        let most = ledger.counts.max { ($0.value, $1.key) < ($1.value, $0.key) }
        if let most {
            text += "most printed photo: \(most.key), \(most.value) time\(most.value == 1 ? "" : "s") "
            text += "(per photo: \(limit(settings.printLimitPerPhoto)))\n"
        }
        return text
    }
}
