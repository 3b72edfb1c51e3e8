// BoothIdentity: the booth's id and the machine it was made on, as kept in the store's `booth-id` file.

/// The booth's id keeps its photos apart from other booths' on a shared stick (manifest entries,
/// alternative names). Two booths cloned from one SD card image would share it, so the file also
/// names the machine the id was made on (the board's serial number, else `/etc/machine-id`): a card
/// that starts on another machine gets a new id. File: the id on the first line, `machine NAME` on
/// the second. A file from before the machine line keeps its id and gains the line (an upgrade must
/// not renumber a booth).
public struct BoothIdentity: Hashable, Sendable {
    /// The id (16 hex digits when made here).
    public var id: String
    /// The machine it belongs to, when known.
    public var machine: String?

    /// An identity.
    public init(id: String, machine: String?) {
        (self.id, self.machine) = (id, machine)
    }

    /// The identity in a `booth-id` file's text, or nil when the text holds no valid id.
    public static func parse(_ text: String) -> BoothIdentity? {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: " \t\r") }
        guard let first = lines.first, StoreID.isValid(first) else { return nil }
        let machine = lines.dropFirst().first { $0.hasPrefix("machine ") }.map { String($0.dropFirst(8)) }
        return BoothIdentity(id: String(first), machine: machine.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// The file's text.
    public var text: String {
        machine.map { "\(id)\nmachine \($0)\n" } ?? "\(id)\n"
    }

    /// What to use on `machine` given the stored identity (nil: none or unreadable): the identity, and
    /// whether the file must be written. A stored id made on another machine is replaced by `newID()`.
    public static func resolve(
        stored: BoothIdentity?, machine: String?, newID: () -> String
    ) -> (
        identity: BoothIdentity, write: Bool
    ) {
        guard let stored else { return (BoothIdentity(id: newID(), machine: machine), true) }
        guard let machine else { return (stored, false) }
        switch stored.machine {
        case nil: return (BoothIdentity(id: stored.id, machine: machine), true)
        case machine: return (stored, false)
        default: return (BoothIdentity(id: newID(), machine: machine), true)
        }
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> Substring {
        var s = self
        while let c = s.first, set.contains(c) { s.removeFirst() }
        while let c = s.last, set.contains(c) { s.removeLast() }
        return s
    }
}
