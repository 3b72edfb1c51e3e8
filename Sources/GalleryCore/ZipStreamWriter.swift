// ZipStreamWriter: the bytes of a stored ZIP archive, made in one pass while the files are read.
import Checksum

/// Writes a ZIP archive (APPNOTE 6.3) of stored files as a stream: no temporary file, no buffer of the archive,
/// each file read once. For each file, `begin(_:)` gives its local header to send; `data(_:)` takes each chunk of
/// the file as it is sent (the chunk itself goes out unchanged); `end()` gives the data descriptor that follows the
/// data (general purpose bit 3: the CRC-32 and sizes come after the data, so nothing is read twice), or nothing when
/// the entry's checksum was known (then the local header holds the CRC-32 and sizes, and no sum is computed). Then
/// `finish()` gives the central directory and the end records. `length(of:)` gives the archive's length
/// beforehand, from the entries alone (a response's Content-Length).
///
/// Entries are stored (method 0: JPEGs do not shrink), named in UTF-8 (bit 11), dated with the DOS time and an
/// extended timestamp (UTC), and carry Unix permissions 0644. ZIP64 records appear where `ZIP64Rule` says: a file
/// of 4 GiB - 1 or more, a local header or the central directory at 4 GiB - 1 or more, or 65,535 files or more.
/// No I/O happens here; the writer keeps about 100 bytes plus the name per file, for the central directory.
public struct ZipStreamWriter: Sendable {
    /// A file written, kept for its central directory header.
    private struct WrittenFile: Sendable {
        var name: [UInt8]
        var size: UInt64
        var crc: UInt32
        var offset: UInt64
        var stamp: DOSDateTime
        var unixTime: Int32?
        /// Whether a data descriptor followed the data (general purpose bit 3).
        var descriptor: Bool
    }

    /// The file being streamed: where its header went, and what `data(_:)` has seen of it.
    private struct OpenFile: Sendable {
        var entry: ZipEntry
        var offset: UInt64
        var crc = CRC32()
        var read: UInt64 = 0
    }

    /// Where the writer is in the archive.
    private enum State: Sendable {
        /// Before the first file, or after a file's `end()`.
        case betweenFiles
        /// Between a file's `begin(_:)` and its `end()`.
        case streaming(OpenFile)
        /// After `finish()`: the archive is complete.
        case finished
        /// A file's size changed: the archive cannot be completed.
        case failed(ZipError)
    }

    private let rule: ZIP64Rule
    private var state = State.betweenFiles
    private var files: [WrittenFile] = []
    /// Where the archive began in the output (0 except in tests, which start it past 4 GiB).
    private let start: UInt64

    /// Bytes of the archive produced so far: headers, the data given to `data(_:)`, descriptors and records.
    public var count: UInt64 { position - start }
    /// The position in the output of the next byte.
    private var position: UInt64

    /// A writer for a new archive; `forceZIP64` writes every ZIP64 field and record even where the numbers fit
    /// (for checking readers without writing 4 GiB).
    public init(forceZIP64: Bool = false) { self.init(rule: ZIP64Rule(force: forceZIP64), startingAt: 0) }

    /// A writer whose archive starts `start` bytes into the output, after bytes that are not its own (as a
    /// self-extracting archive's do): offsets count from the output's start. Tests start past 4 GiB with a hole.
    init(rule: ZIP64Rule, startingAt start: UInt64) {
        (self.rule, self.start, position) = (rule, start, start)
    }

    /// Starts `entry`: returns its local header, to send before the file's data.
    public mutating func begin(_ entry: ZipEntry) throws(ZipError) -> [UInt8] {
        guard case .betweenFiles = state else { throw misuse("begin(\(entry.name))") }
        let header = Self.localHeader(
            entry, zip64Sizes: rule.sizes(entry.size), zip64Offset: rule.offset(position))
        state = .streaming(OpenFile(entry: entry, offset: position))
        position += UInt64(header.count)
        return header
    }

    /// Counts `chunk`, the next bytes of the file begun, into its CRC-32 and size; the caller sends the chunk as it
    /// is. Throws `ZipError.sizeChanged`, before the chunk is counted, when it would take the file past its
    /// declared size (send nothing more then: the archive cannot be completed).
    public mutating func data(_ chunk: UnsafeRawBufferPointer) throws(ZipError) {
        guard case .streaming(var file) = state else { throw misuse("data(_:)") }
        try count(UInt64(chunk.count), of: &file)
        if file.entry.checksum == nil { file.crc.update(chunk) }
        state = .streaming(file)
    }

    /// Counts `count` bytes of the file begun that the caller sends without passing them here (the kernel copies
    /// them from the file: `FileSpan`). Only for an entry whose checksum is known, as nothing is summed; throws
    /// `ZipError.sizeChanged`, before counting, when they would take the file past its declared size.
    public mutating func dataSent(count: UInt64) throws(ZipError) {
        guard case .streaming(var file) = state else { throw misuse("dataSent(count:)") }
        guard file.entry.checksum != nil else {
            throw .outOfOrder(
                "dataSent(count:) for \(file.entry.name), whose checksum is not known: pass its bytes to data(_:)")
        }
        try self.count(count, of: &file)
        state = .streaming(file)
    }

    /// Counts `bytes` more of `file` into its size and the archive's position; throws `ZipError.sizeChanged`, before
    /// counting, when they would take it past its declared size.
    private mutating func count(_ bytes: UInt64, of file: inout OpenFile) throws(ZipError) {
        let read = file.read + bytes
        guard read <= file.entry.size else {
            throw fail(.sizeChanged(name: file.entry.name, declared: file.entry.size, read: read))
        }
        file.read = read
        position += bytes
    }

    /// `data(_:)` for bytes in an array.
    public mutating func data(_ chunk: [UInt8]) throws(ZipError) {
        let error: ZipError? = chunk.withUnsafeBytes { bytes in
            do throws(ZipError) {
                try data(bytes)
                return nil
            } catch {
                return error
            }
        }
        if let error { throw error }
    }

    /// Ends the file begun: returns its data descriptor (CRC-32 and sizes) to send after its data, or no bytes when
    /// the entry's checksum was known (the local header held it). Throws
    /// `ZipError.sizeChanged` when fewer bytes came than the entry declared (the archive cannot be completed).
    public mutating func end() throws(ZipError) -> [UInt8] {
        guard case .streaming(let file) = state else { throw misuse("end()") }
        guard file.read == file.entry.size else {
            throw fail(.sizeChanged(name: file.entry.name, declared: file.entry.size, read: file.read))
        }
        let zip64 = rule.sizes(file.entry.size)
        let crc = file.entry.checksum ?? file.crc.value
        var out: [UInt8] = []
        if file.entry.checksum == nil {
            out.reserveCapacity(Int(Self.descriptorLength(zip64Sizes: zip64)))
            out.appendLE(UInt32(0x0807_4B50))
            out.appendLE(crc)
            for _ in 0..<2 {  // compressed size, then uncompressed: the same when stored
                if zip64 { out.appendLE(file.entry.size) } else { out.appendLE(UInt32(file.entry.size)) }
            }
        }
        files.append(
            WrittenFile(
                name: Array(file.entry.name.utf8), size: file.entry.size, crc: crc, offset: file.offset,
                stamp: DOSDateTime(seconds: file.entry.modified, utcOffset: file.entry.utcOffset),
                unixTime: Int32(exactly: file.entry.modified), descriptor: file.entry.checksum == nil))
        state = .betweenFiles
        position += UInt64(out.count)
        return out
    }

    /// Ends the archive: returns the central directory and the end records (ZIP64 ones where needed), the last
    /// bytes to send, at once: 55 bytes plus the name per file (about 1 MB for 10,000 photos), 76 more with ZIP64.
    public mutating func finish() throws(ZipError) -> [UInt8] {
        guard case .betweenFiles = state else { throw misuse("finish()") }
        let directoryOffset = position
        var directorySize: UInt64 = 0
        for file in files {
            directorySize += Self.centralHeaderLength(
                nameLength: file.name.count, zip64Sizes: rule.sizes(file.size), zip64Offset: rule.offset(file.offset),
                timestamp: file.unixTime != nil)
        }
        let zip64End = rule.end(
            entryCount: files.count, directorySize: directorySize, directoryOffset: directoryOffset)
        var out: [UInt8] = []
        out.reserveCapacity(Int(directorySize + Self.endLength(zip64: zip64End)))
        for file in files { appendCentralHeader(file, to: &out) }
        appendEnd(
            entryCount: files.count, directorySize: directorySize, directoryOffset: directoryOffset, zip64: zip64End,
            to: &out)
        files = []
        state = .finished
        position += UInt64(out.count)
        return out
    }

    /// The length in bytes of the archive of `entries` (in that order): what the writer produces for them, before
    /// any file is read.
    public static func length(of entries: [ZipEntry], forceZIP64: Bool = false) -> UInt64 {
        length(of: entries, rule: ZIP64Rule(force: forceZIP64), startingAt: 0)
    }

    /// `length(of:)` for an archive starting `start` bytes into the output (see `init(rule:startingAt:)`).
    static func length(of entries: [ZipEntry], rule: ZIP64Rule, startingAt start: UInt64) -> UInt64 {
        var position = start
        var directorySize: UInt64 = 0
        for entry in entries {
            let nameLength = entry.name.utf8.count
            let (zip64Sizes, zip64Offset) = (rule.sizes(entry.size), rule.offset(position))
            let timestamp = Int32(exactly: entry.modified) != nil
            directorySize += centralHeaderLength(
                nameLength: nameLength, zip64Sizes: zip64Sizes, zip64Offset: zip64Offset, timestamp: timestamp)
            position +=
                localHeaderLength(nameLength: nameLength, zip64Sizes: zip64Sizes, timestamp: timestamp) + entry.size
                + (entry.checksum == nil ? descriptorLength(zip64Sizes: zip64Sizes) : 0)
        }
        let zip64End = rule.end(entryCount: entries.count, directorySize: directorySize, directoryOffset: position)
        return position - start + directorySize + endLength(zip64: zip64End)
    }

    // MARK: Records (APPNOTE 4.3)

    /// Version made by: Unix (3, so the external attributes are Unix permissions), APPNOTE 6.3 (63).
    private static let madeBy: UInt16 = 3 << 8 | 63
    /// General purpose flags: bit 3 (sizes and CRC-32 in the data descriptor) when `descriptor`, bit 11 (UTF-8 name).
    private static func flags(descriptor: Bool) -> UInt16 { (descriptor ? 1 << 3 : 0) | 1 << 11 }
    /// External attributes: a regular file, rw-r--r--.
    private static let externalAttributes: UInt32 = 0o100644 << 16

    /// Version needed to extract: 4.5 with ZIP64, else 2.0 (data descriptors).
    private static func versionNeeded(zip64: Bool) -> UInt16 { zip64 ? 45 : 20 }

    private static func localHeaderLength(nameLength: Int, zip64Sizes: Bool, timestamp: Bool) -> UInt64 {
        UInt64(30 + nameLength + (zip64Sizes ? 20 : 0) + (timestamp ? 9 : 0))
    }

    private static func descriptorLength(zip64Sizes: Bool) -> UInt64 { zip64Sizes ? 24 : 16 }

    private static func centralHeaderLength(
        nameLength: Int, zip64Sizes: Bool, zip64Offset: Bool, timestamp: Bool
    )
        -> UInt64
    {
        let zip64Field = zip64Sizes || zip64Offset ? 4 + (zip64Sizes ? 16 : 0) + (zip64Offset ? 8 : 0) : 0
        return UInt64(46 + nameLength + zip64Field + (timestamp ? 9 : 0))
    }

    private static func endLength(zip64: Bool) -> UInt64 { 22 + (zip64 ? 56 + 20 : 0) }

    /// The local file header (4.3.7). With the entry's checksum known: its CRC-32 and sizes, or the sizes 0xFFFFFFFF
    /// and a ZIP64 extra field holding them (4.5.3: a local one holds both sizes). Else CRC-32 and sizes zero (bit 3),
    /// or the sizes 0xFFFFFFFF and a ZIP64 extra field of zeros, which tells readers the descriptor's sizes are 8 bytes.
    private static func localHeader(_ entry: ZipEntry, zip64Sizes: Bool, zip64Offset: Bool) -> [UInt8] {
        let name = Array(entry.name.utf8)
        let unixTime = Int32(exactly: entry.modified)
        let stamp = DOSDateTime(seconds: entry.modified, utcOffset: entry.utcOffset)
        let length = localHeaderLength(nameLength: name.count, zip64Sizes: zip64Sizes, timestamp: unixTime != nil)
        var out: [UInt8] = []
        out.reserveCapacity(Int(length))
        out.appendLE(UInt32(0x0403_4B50))
        out.appendLE(versionNeeded(zip64: zip64Sizes || zip64Offset))
        out.appendLE(flags(descriptor: entry.checksum == nil))
        out.appendLE(UInt16(0))  // stored
        out.appendLE(stamp.time)
        out.appendLE(stamp.date)
        out.appendLE(entry.checksum ?? 0)  // else in the data descriptor
        let known = entry.checksum == nil ? 0 : entry.size
        let size: UInt32 = zip64Sizes ? UInt32(ZIP64Rule.marker32) : UInt32(known)
        out.appendLE(size)  // compressed
        out.appendLE(size)  // uncompressed
        out.appendLE(UInt16(name.count))
        out.appendLE(UInt16(Int(length) - 30 - name.count))
        out += name
        if zip64Sizes {
            out.appendLE(UInt16(0x0001))
            out.appendLE(UInt16(16))
            out.appendLE(known)  // uncompressed (0: in the data descriptor)
            out.appendLE(known)  // compressed
        }
        if let unixTime { appendExtendedTimestamp(unixTime, to: &out) }
        return out
    }

    /// The extended timestamp extra field ("UT", Info-ZIP), modification time only: the same in both headers.
    private static func appendExtendedTimestamp(_ unixTime: Int32, to out: inout [UInt8]) {
        out.appendLE(UInt16(0x5455))
        out.appendLE(UInt16(5))
        out.append(1)  // flags: modification time present
        out.appendLE(UInt32(bitPattern: unixTime))
    }

    /// The central directory header (4.3.12) of `file`, with a ZIP64 extra field holding the sizes and/or the
    /// offset that do not fit (in that order, 4.5.3).
    private func appendCentralHeader(_ file: WrittenFile, to out: inout [UInt8]) {
        let (zip64Sizes, zip64Offset) = (rule.sizes(file.size), rule.offset(file.offset))
        let length = Self.centralHeaderLength(
            nameLength: file.name.count, zip64Sizes: zip64Sizes, zip64Offset: zip64Offset,
            timestamp: file.unixTime != nil)
        out.appendLE(UInt32(0x0201_4B50))
        out.appendLE(Self.madeBy)
        out.appendLE(Self.versionNeeded(zip64: zip64Sizes || zip64Offset))
        out.appendLE(Self.flags(descriptor: file.descriptor))
        out.appendLE(UInt16(0))  // stored
        out.appendLE(file.stamp.time)
        out.appendLE(file.stamp.date)
        out.appendLE(file.crc)
        let size = zip64Sizes ? UInt32(ZIP64Rule.marker32) : UInt32(file.size)
        out.appendLE(size)  // compressed
        out.appendLE(size)  // uncompressed
        out.appendLE(UInt16(file.name.count))
        out.appendLE(UInt16(Int(length) - 46 - file.name.count))
        out.appendLE(UInt16(0))  // comment length
        out.appendLE(UInt16(0))  // disk number start
        out.appendLE(UInt16(0))  // internal attributes
        out.appendLE(Self.externalAttributes)
        out.appendLE(zip64Offset ? UInt32(ZIP64Rule.marker32) : UInt32(file.offset))
        out += file.name
        if zip64Sizes || zip64Offset {
            out.appendLE(UInt16(0x0001))
            out.appendLE(UInt16((zip64Sizes ? 16 : 0) + (zip64Offset ? 8 : 0)))
            if zip64Sizes {
                out.appendLE(file.size)  // uncompressed
                out.appendLE(file.size)  // compressed
            }
            if zip64Offset { out.appendLE(file.offset) }
        }
        if let unixTime = file.unixTime { Self.appendExtendedTimestamp(unixTime, to: &out) }
    }

    /// The ZIP64 end of central directory record (4.3.14) and locator (4.3.15) when `zip64`, then the end of
    /// central directory record (4.3.16), whose fields then all hold their "see ZIP64" values.
    private func appendEnd(
        entryCount: Int, directorySize: UInt64, directoryOffset: UInt64, zip64: Bool, to out: inout [UInt8]
    ) {
        if zip64 {
            let recordOffset = directoryOffset + directorySize
            out.appendLE(UInt32(0x0606_4B50))
            out.appendLE(UInt64(44))  // the record's size after this field
            out.appendLE(Self.madeBy)
            out.appendLE(Self.versionNeeded(zip64: true))
            out.appendLE(UInt32(0))  // this disk
            out.appendLE(UInt32(0))  // the disk where the central directory starts
            out.appendLE(UInt64(entryCount))  // entries on this disk
            out.appendLE(UInt64(entryCount))  // entries in all
            out.appendLE(directorySize)
            out.appendLE(directoryOffset)
            out.appendLE(UInt32(0x0706_4B50))
            out.appendLE(UInt32(0))  // the disk with the ZIP64 end record
            out.appendLE(recordOffset)
            out.appendLE(UInt32(1))  // disks in all
        }
        let count = zip64 ? UInt16(ZIP64Rule.marker16) : UInt16(entryCount)
        out.appendLE(UInt32(0x0605_4B50))
        out.appendLE(UInt16(0))  // this disk
        out.appendLE(UInt16(0))  // the disk where the central directory starts
        out.appendLE(count)  // entries on this disk
        out.appendLE(count)  // entries in all
        out.appendLE(zip64 ? UInt32(ZIP64Rule.marker32) : UInt32(directorySize))
        out.appendLE(zip64 ? UInt32(ZIP64Rule.marker32) : UInt32(directoryOffset))
        out.appendLE(UInt16(0))  // comment length
    }

    // MARK: Misuse

    /// The error for `call` made in the wrong state.
    private func misuse(_ call: String) -> ZipError {
        switch state {
        case .betweenFiles: .outOfOrder("\(call) with no file begun: call begin(_:) first")
        case .streaming(let file): .outOfOrder("\(call) while \(file.entry.name) is open: call end() first")
        case .finished: .outOfOrder("\(call) after finish(): the archive is complete")
        case .failed(let error): error
        }
    }

    /// Records that the archive cannot be completed; every later call throws `error` again.
    private mutating func fail(_ error: ZipError) -> ZipError {
        state = .failed(error)
        return error
    }
}

extension [UInt8] {
    /// Appends `value` little-endian, in its own width.
    mutating func appendLE<Value: FixedWidthInteger>(_ value: Value) {
        var value = value.littleEndian
        Swift.withUnsafeBytes(of: &value) { append(contentsOf: $0) }
    }
}
