// DoctorCommand+Printer: what doctor says of the printer (CUPS's queue, its supplies, the photos waiting) and the logo.
import BoothCore
import BoothRuntime
import Printing

extension DoctorCommand {
    /// The logo the layouts print (`print.logo`, printing on): its size, or why the booth would not start with it.
    static func logoReport(mode: PrintMode, path: String) -> (lines: [String], problems: [String]) {
        guard mode != .off, !path.isEmpty else { return ([], []) }
        do throws(PrintError) {
            let logo = try PrintLogo.read(path)
            return (["logo \(path): \(logo.width) x \(logo.height) pixels"], [])
        } catch {
            return ([], [error.description])
        }
    }

    /// The printer when photos are printed (`print.mode`): CUPS's queue, its state and what its printer needs, and
    /// the `waiting` photos the booth keeps for CUPS (`PrintWaitingList`: those waiting now, or since it stopped).
    static func printerReport(
        mode: PrintMode, client: CUPSClient, copies: Int, waiting: Int = 0
    ) -> (lines: [String], problems: [String]) {
        guard mode != .off else { return (["printing off (print.mode)"], []) }
        let kept =
            waiting == 0
            ? []
            : [
                "\(waiting) photo\(waiting == 1 ? "" : "s") waiting for CUPS (print-waiting.txt): sent once CUPS "
                    + "answers while the booth runs"
            ]
        let queue: CUPSClient.QueueState
        do {
            queue = try client.queueState()
        } catch {
            return (kept, ["print.mode is \"\(mode.rawValue)\" but \(error)"])
        }
        let states: [Int32: String] = [3: "idle", 4: "printing", 5: "stopped"]
        let named = client.queue.isEmpty ? "\(queue.name) (CUPS's default queue)" : queue.name
        var lines =
            [
                "queue \(named): \(states[queue.state] ?? "state \(queue.state)"), \(copies) cop\(copies == 1 ? "y" : "ies") of each photo"
            ] + kept
        var problems: [String] = []
        if queue.isStopped {
            problems.append(
                "queue \(queue.name) is stopped: CUPS holds its jobs; `sudo cupsenable \(queue.name)` starts it again, and "
                    + "`sudo lpadmin -p \(queue.name) -o printer-error-policy=retry-job` keeps a printer error from stopping it"
            )
        }
        for need in queue.needs {
            problems.append("the printer of queue \(queue.name) needs attention: \(need.words) (\(need.reason))")
        }
        let needed = Set(queue.needs.map(\.reason))
        for reason in queue.reasons where reason != "paused" && !needed.contains(reason) {
            lines.append("the printer says: \(reason)")
        }
        // Ink, toner or ribbon, once the printer has told CUPS (it does while it prints).
        let supplies = (try? client.supplies()) ?? []
        if !supplies.isEmpty {
            let levels = supplies.map { supply -> String in
                switch supply.level {
                case nil: "\(supply.name) (level unknown)"
                case -3: "\(supply.name) (some left)"
                case let level?: "\(supply.name) \(level) %"
                }
            }
            lines.append("supplies: " + levels.joined(separator: ", "))
        }
        for supply in supplies where supply.level == 0 {
            problems.append(
                "the printer of queue \(queue.name) has no \(supply.name) left: replace it before the next print")
        }
        return (lines, problems)
    }
}
