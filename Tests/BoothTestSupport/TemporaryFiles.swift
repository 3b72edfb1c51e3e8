// Temporary folders and whole-file reads for tests.
import Glibc
import PhotoStore

/// A new empty folder under /tmp.
public func temporaryDirectory() -> String {
    var template = Array("/tmp/heylook-test-XXXXXX".utf8CString)
    return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
}

/// The whole file, or nil when it cannot be opened or a read fails.
public func readFile(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var out: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = read(fd, &buffer, buffer.count)
        if n == 0 { return out }
        if n < 0 {
            if errno == EINTR { continue }
            return nil
        }
        out += buffer[0..<n]
    }
}

/// The names in a folder, without "." and ".."; throws when it cannot be listed.
public func folderNames(_ path: String) throws -> [String] {
    try PhotoStore.fileNames(in: path)
}
