// GalleryPrint: the gallery's print request for a guest's Print button, and the booth's answer, one message each.

/// What the gallery asks the booth when a guest presses a photo's Print button (`print.from_gallery`), and what the
/// booth answers once its printer has handed the photo's pages to CUPS, refused them or set them to wait: one text
/// message each way over the booth's print socket (`PacketSocket`), so the two processes share no code but this.
public enum GalleryPrint {
    /// The booth's answer.
    public enum Answer: Hashable, Sendable {
        /// CUPS took the photo's `pages` pages.
        case sent(pages: Int)
        /// CUPS is out of reach: the pages wait and are sent once it answers.
        case waiting
        /// Nothing was printed, for `reason` (a limit, printing off, no such photo), worded for the guest.
        case refused(String)

        /// The answer as its message: `sent 1`, `waiting`, `refused REASON`.
        public var message: [UInt8] {
            switch self {
            case .sent(let pages): Array("sent \(pages)".utf8)
            case .waiting: Array("waiting".utf8)
            case .refused(let reason): Array("refused \(reason)".utf8)
            }
        }

        /// The answer in `message`, or nil for anything else.
        public init?(message: [UInt8]) {
            let text = String(decoding: message, as: UTF8.self)
            if text == "waiting" {
                self = .waiting
            } else if text.hasPrefix("sent "), let pages = Int(text.dropFirst(5)), pages >= 0 {
                self = .sent(pages: pages)
            } else if text.hasPrefix("refused "), text.count > 8 {
                self = .refused(String(text.dropFirst(8)))
            } else {
                return nil
            }
        }
    }

    /// The longest message either side sends or reads.
    public static let messageLimit = 1024

    /// The request to print the kept photo `name` (a file name of the store).
    public static func request(photo name: String) -> [UInt8] { Array("print \(name)".utf8) }

    /// The photo a request asks to print: a name the store gives (`PhotoName`), or nil for anything else (a path, a
    /// traversal, another command).
    public static func photo(inRequest message: [UInt8]) -> String? {
        let text = String(decoding: message, as: UTF8.self)
        guard text.hasPrefix("print ") else { return nil }
        let name = String(text.dropFirst(6))
        return PhotoName(fileName: name) != nil ? name : nil
    }
}
