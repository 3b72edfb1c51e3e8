// ByteRange: what a request's Range header asks of a file of a known size.
/// What a request's `Range` header asks of a file of a known size (RFC 9110 §14): one range of bytes, a range
/// that cannot be served (416), or the whole file (no header, several ranges, or a header this reader does not
/// take: the whole file is always a correct answer).
public enum ByteRange: Hashable, Sendable {
    case whole
    /// The bytes `first...last` (inclusive), both inside the file.
    case part(first: Int64, last: Int64)
    case unsatisfiable

    /// The range `header` asks of a file of `size` bytes.
    public init(header: String?, size: Int64) {
        guard let header, header.hasPrefix("bytes="), !header.contains(",") else {
            self = .whole
            return
        }
        let spec = header.dropFirst(6).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard spec.count == 2 else {
            self = .whole
            return
        }
        let from = spec[0].trimmingCharacters(" ")
        let to = spec[1].trimmingCharacters(" ")
        if from.isEmpty {
            // "-N": the last N bytes.
            guard let n = Int64(to), n >= 0 else {
                self = .whole
                return
            }
            self = n == 0 || size == 0 ? .unsatisfiable : .part(first: max(0, size - n), last: size - 1)
            return
        }
        guard let first = Int64(from), first >= 0 else {
            self = .whole
            return
        }
        guard first < size else {
            self = .unsatisfiable
            return
        }
        if to.isEmpty {
            self = .part(first: first, last: size - 1)
        } else if let last = Int64(to), last >= first {
            self = .part(first: first, last: min(last, size - 1))
        } else {
            self = .whole
        }
    }
}

extension Substring {
    fileprivate func trimmingCharacters(_ c: Character) -> Substring {
        var s = self
        while s.first == c { s = s.dropFirst() }
        while s.last == c { s = s.dropLast() }
        return s
    }
}
