// PrintWaitingList: the pages waiting for CUPS to answer, as the booth keeps them across a restart.

/// The pages that wait for an out-of-reach CUPS (`printWaiting`), kept in `print-waiting.txt` so a stop or a power cut
/// loses none: one line per page, the number of lines the print ledger had when it began to wait (its mark), a tab,
/// the page's path. A page whose path the ledger lists at a later line was taken by CUPS before the booth could strike
/// it off (a cut between the two writes): it is not sent again. One that waited across `booth print reset` belongs
/// to the event before: it is not sent either (`sorted(by:)`).
public struct PrintWaitingList: Hashable, Sendable {
    /// One waiting page.
    public struct Page: Hashable, Sendable {
        public var path: String
        /// The ledger's line count when the page began to wait.
        public var mark: Int

        public init(path: String, mark: Int) {
            (self.path, self.mark) = (path, mark)
        }
    }

    /// The pages, oldest first.
    public var pages: [Page]

    public init(pages: [Page] = []) {
        self.pages = pages
    }

    /// The list in `text` (the file's content). A line that is not a mark, a tab and an absolute path (one cut short
    /// by a power cut, say) is left out.
    public init(text: String) {
        pages = text.split(separator: "\n", omittingEmptySubsequences: true).compactMap { line in
            let fields = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            guard fields.count == 2, let mark = Int(fields[0]), mark >= 0, fields[1].hasPrefix("/") else { return nil }
            return Page(path: String(fields[1]), mark: mark)
        }
    }

    /// The file's content (a path has no line break or tab).
    public var text: String {
        pages.map { "\($0.mark)\t\($0.path)\n" }.joined()
    }

    /// The pages sorted by the ledger: those still to send, those CUPS took after their marks (each ledger line
    /// answers for one page: a photo waiting twice needs two), and those from an event before the ledger's last reset.
    public func sorted(by ledger: PrintLedger) -> (pending: [Page], taken: [Page], earlierEvent: [Page]) {
        var sorted: (pending: [Page], taken: [Page], earlierEvent: [Page]) = ([], [], [])
        var answered: [String: Int] = [:]
        for page in pages {
            if ledger.resetLine > page.mark {
                sorted.earlierEvent.append(page)
                continue
            }
            let later = ledger.lines(of: page.path).count { $0 > page.mark }
            let used = answered[page.path, default: 0]
            if later > used {
                answered[page.path] = used + 1
                sorted.taken.append(page)
            } else {
                sorted.pending.append(page)
            }
        }
        return sorted
    }
}
