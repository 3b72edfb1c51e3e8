// PrintLedger: the prints made since `booth print reset`, and whether the limits allow another.

/// The prints the booth made since the last `booth print reset` (an event), read from its ledger file: one line per
/// print sent to CUPS, the photo's file name, then (tab-separated) CUPS's job id and the file's path; a line
/// `-- reset` starts a new event. It decides whether the limits
/// (`print.limit_per_photo`, `print.limit_per_event`; 0 is none) allow one more print of a photo.
public struct PrintLedger: Hashable, Sendable {
    /// Why a print was refused; the description names the limit and the fix.
    public enum Refusal: Hashable, Sendable, CustomStringConvertible {
        /// The photo was printed `limit` times already this event.
        case photo(name: String, limit: Int)
        /// `limit` prints were made this event.
        case event(limit: Int)

        public var description: String {
            switch self {
            case .photo(let name, let limit):
                "\(name) was printed \(limit) time\(limit == 1 ? "" : "s") already, its limit "
                    + "(print.limit_per_photo; `sudo booth print reset` starts a new event's count)"
            case .event(let limit):
                "the event's \(limit) print\(limit == 1 ? "" : "s") are made, its limit "
                    + "(print.limit_per_event; `sudo booth print reset` starts a new event's count)"
            }
        }
    }

    /// A print CUPS took: its job and the file it printed.
    public struct Sent: Hashable, Sendable {
        public var job: Int32
        public var path: String

        public init(job: Int32, path: String) {
            (self.job, self.path) = (job, path)
        }
    }

    /// The line that starts a new event.
    public static let resetLine = "-- reset"

    /// Prints since the last reset, by photo name.
    public private(set) var counts: [String: Int] = [:]
    /// Prints since the last reset.
    public private(set) var total = 0
    /// The last `recentLimit` prints' CUPS jobs (oldest first), with the files they printed: those a restarted booth
    /// follows to their end.
    public private(set) var recentJobs: [Sent] = []
    /// How many of the last jobs are kept in `recentJobs`.
    public static let recentLimit = 20
    /// The ledger's lines, resets included (a waiting page's mark: `PrintWaitingList`).
    public private(set) var lineCount = 0
    /// The line of the last reset (1 is the first line; 0: none).
    public private(set) var resetLine = 0
    /// The lines (1 is the first) of each path's prints, for the lines that name a path.
    private var pathLines: [String: [Int]] = [:]

    /// The ledger of `text` (the file's content; a last line cut short by a power cut counts as the print it was).
    public init(text: String = "") {
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            lineCount += 1
            if line == Self.resetLine {
                resetLine = lineCount
                counts = [:]
                total = 0
                continue
            }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            record(String(fields[0]))
            if fields.count >= 3 { pathLines[String(fields[2]), default: []].append(lineCount) }
            if fields.count >= 3, let job = Int32(fields[1]), job > 0 {
                recentJobs.append(Sent(job: job, path: String(fields[2])))
                if recentJobs.count > Self.recentLimit { recentJobs.removeFirst() }
            }
        }
    }

    /// Counts one print of the photo `name`.
    public mutating func record(_ name: String) {
        counts[name, default: 0] += 1
        total += 1
    }

    /// The lines of the prints of the file at `path` (1 is the first line), oldest first.
    public func lines(of path: String) -> [Int] {
        pathLines[path] ?? []
    }

    /// Why one more print of the photo `name` is refused under the limits (0: none), or nil when it is allowed.
    public func refusal(of name: String, perPhoto: Int, perEvent: Int) -> Refusal? {
        if perEvent > 0, total >= perEvent { return .event(limit: perEvent) }
        if perPhoto > 0, counts[name, default: 0] >= perPhoto { return .photo(name: name, limit: perPhoto) }
        return nil
    }

    /// The ledger file's line for a print of the file at `path` as CUPS job `job` (a path has no line break or tab).
    public static func line(for path: String, job: Int32) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return "\(name)\t\(job)\t\(path)\n"
    }
}
