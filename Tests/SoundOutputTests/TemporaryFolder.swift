// TemporaryFolder: a fresh directory per test, removed afterwards.

import Foundation

/// A unique directory under /tmp that deletes itself.
final class TemporaryFolder {
    let path: String

    init() throws {
        var template = Array("/tmp/heylook-sound-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw CocoaError(.fileWriteUnknown) }
        path = String(cString: made)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Writes `bytes` to `name` inside the folder and returns its path.
    @discardableResult
    func write(_ bytes: [UInt8], to name: String) throws -> String {
        let file = "\(path)/\(name)"
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        return file
    }

    /// The bytes of `name` inside the folder.
    func read(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(path)/\(name)")))
    }
}
