// ZipReaders: an archive checked by readers that are not ours: Python's zipfile and Info-ZIP's unzip.
import Foundation
import Testing

/// A file for the readers to expect in an archive.
struct ExpectedFile {
    /// The name in the archive.
    var name: String
    /// A file holding the expected bytes; nil for an empty file (testzip reads it).
    var path: String?
    /// Modification time, seconds since the epoch, and the offset the DOS time was made with.
    var modified: Int64
    var utcOffset: Int
    /// The entry's CRC-32 was known beforehand: in the local header, no data descriptor, no bit 3.
    var knownChecksum = false
}

/// Runs `arguments` (found in PATH) with `environment` added; returns the exit status and the output (stdout and
/// stderr together).
func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: output, as: UTF8.self))
}

/// Whether Info-ZIP's unzip is installed (Debian's `unzip`, from scripts/install-deps --test).
let unzipInstalled = (try? run(["unzip", "-v"]).status) == 0

/// Checks `archive` (whose own bytes start `start` bytes into the file) with Python's zipfile (testzip, names,
/// bytes, DOS times, attributes) and with a walk of our own in Python over every record: local header, data, data
/// descriptor, central header extra fields and end records, against the ZIP64 rule written again in Python from
/// APPNOTE. Returns the script's output; fails the test when Python reports a problem.
@discardableResult
func checkWithPython(
    _ archive: String, files: [ExpectedFile], start: UInt64 = 0, forceZIP64: Bool,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> String {
    let spec: [String: Any] = [
        "start": start, "force": forceZIP64,
        "files": files.map { file -> [String: Any] in
            var item: [String: Any] = [
                "name": file.name, "modified": file.modified, "utcOffset": file.utcOffset, "known": file.knownChecksum,
            ]
            if let path = file.path { item["path"] = path }
            return item
        },
    ]
    let specPath = archive + ".json"
    try JSONSerialization.data(withJSONObject: spec).write(to: URL(fileURLWithPath: specPath))
    let (status, output) = try run(["python3", "-c", pythonChecker, archive, specPath])
    #expect(status == 0, "Python's check of \(archive) failed: \(output)", sourceLocation: sourceLocation)
    return output
}

/// `unzip -t` (Info-ZIP) on `archive`: every CRC-32 checked, quietly. Fails the test unless it says no errors.
func checkWithUnzip(_ archive: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let (status, output) = try run(["unzip", "-tq", archive], environment: ["LC_ALL": "C.UTF-8"])
    #expect(status == 0, "unzip -t \(archive): \(output)", sourceLocation: sourceLocation)
    #expect(output.contains("No errors detected"), "unzip -t \(archive): \(output)", sourceLocation: sourceLocation)
}

/// The checker run by `checkWithPython`: argv[1] the archive, argv[2] a JSON spec of what it must hold.
private let pythonChecker = #"""
    import json, struct, sys, time, zipfile

    archive, spec = sys.argv[1], json.load(open(sys.argv[2]))
    files, start, force = spec["files"], spec["start"], spec["force"]
    M32, M16 = 0xFFFFFFFF, 0xFFFF

    def fail(message):
        print(message)
        sys.exit(1)

    def expected_dos(modified, offset):
        t = time.gmtime(modified + offset)
        if t.tm_year < 1980:
            return (1980, 1, 1, 0, 0, 0)
        if t.tm_year > 2107:
            return (2107, 12, 31, 23, 59, 58)
        return (t.tm_year, t.tm_mon, t.tm_mday, t.tm_hour, t.tm_min, t.tm_sec // 2 * 2)

    def extra_fields(extra):
        fields, i = {}, 0
        while i < len(extra):
            tag, size = struct.unpack_from("<HH", extra, i)
            if tag in fields:
                fail(f"extra field {tag:#06x} twice")
            fields[tag] = extra[i + 4 : i + 4 + size]
            i += 4 + size
        if i != len(extra):
            fail("extra fields overrun their length")
        return fields

    with zipfile.ZipFile(archive) as z:
        bad = z.testzip()
        if bad is not None:
            fail(f"testzip: bad CRC-32 in {bad!r}")
        infos = z.infolist()
        names = [info.filename for info in infos]
        if names != [f["name"] for f in files]:
            fail(f"names {names!r}")
        for info, f in zip(infos, files):
            if "path" in f and z.read(info) != open(f["path"], "rb").read():
                fail(f"{info.filename!r}: bytes differ")
            if "path" not in f and info.file_size != 0:
                fail(f"{info.filename!r}: {info.file_size} bytes, expected none")
            flags = 0x800 if f["known"] else 0x808
            if info.compress_type != zipfile.ZIP_STORED or info.flag_bits & 0x808 != flags:
                fail(f"{info.filename!r}: method {info.compress_type}, flags {info.flag_bits:#x}")
            if info.date_time != expected_dos(f["modified"], f["utcOffset"]):
                fail(f"{info.filename!r}: DOS time {info.date_time}")
            if info.create_system != 3 or info.external_attr >> 16 != 0o100644:
                fail(f"{info.filename!r}: made by {info.create_system}, attributes {info.external_attr:#x}")
        directory_offset = z.start_dir

    raw = open(archive, "rb")
    position = start
    for info, f in zip(infos, files):
        if info.header_offset != position:
            fail(f"{info.filename!r}: header at {info.header_offset}, expected {position}")
        raw.seek(position)
        (sig, need, flags, method, _, _, crc, csize, usize, nlen, xlen) = struct.unpack("<IHHHHHIIIHH", raw.read(30))
        name = raw.read(nlen).decode("utf-8")
        fields = extra_fields(raw.read(xlen))
        zip64_sizes = force or info.file_size >= M32
        zip64_offset = force or info.header_offset >= M32
        # A known CRC-32 goes in the local header with the sizes; else they follow the data (bit 3) and are zero here.
        known = f["known"]
        want_crc, want_size = (info.CRC, info.file_size) if known else (0, 0)
        if sig != 0x04034B50 or name != info.filename or flags != (0x800 if known else 0x808) or method != 0 \
                or crc != want_crc:
            fail(f"{info.filename!r}: local header {sig:#x} {name!r} {flags:#x} {method} {crc}")
        if need != (45 if zip64_sizes or zip64_offset else 20):
            fail(f"{info.filename!r}: version needed {need}")
        if zip64_sizes != (1 in fields):
            fail(f"{info.filename!r}: local ZIP64 field present: {1 in fields}, expected {zip64_sizes}")
        if zip64_sizes and (fields[1] != struct.pack("<QQ", want_size, want_size) or csize != M32 or usize != M32):
            fail(f"{info.filename!r}: local ZIP64 sizes {fields[1].hex()} {csize:#x} {usize:#x}")
        if not zip64_sizes and (csize, usize) != (want_size, want_size):
            fail(f"{info.filename!r}: local sizes {csize} {usize}, expected {want_size}")
        in_range = -(2**31) <= f["modified"] < 2**31
        stamp = b"\x01" + struct.pack("<i", f["modified"]) if in_range else None
        if fields.get(0x5455) != stamp:
            fail(f"{info.filename!r}: local extended timestamp {fields.get(0x5455)}")
        central = extra_fields(info.extra)
        if central.get(0x5455) != stamp:
            fail(f"{info.filename!r}: central extended timestamp {central.get(0x5455)}")
        want = (struct.pack("<QQ", info.file_size, info.file_size) if zip64_sizes else b"") + (
            struct.pack("<Q", info.header_offset) if zip64_offset else b"")
        if central.get(1, b"") != want or (1 in central) != bool(want):
            fail(f"{info.filename!r}: central ZIP64 field {central.get(1)}, expected {want}")
        position += 30 + nlen + xlen + info.file_size
        if known:
            continue
        raw.seek(position)
        descriptor = raw.read(24 if zip64_sizes else 16)
        sig, crc, csize, usize = struct.unpack("<IIQQ" if zip64_sizes else "<IIII", descriptor)
        if (sig, crc, csize, usize) != (0x08074B50, info.CRC, info.file_size, info.file_size):
            fail(f"{info.filename!r}: data descriptor {descriptor.hex()}")
        position += len(descriptor)
    if position != directory_offset:
        fail(f"the central directory is at {directory_offset}, the last descriptor ends at {position}")

    raw.seek(0, 2)
    size = raw.tell()
    raw.seek(size - 22)
    sig, disk, cd_disk, here, total, cd_size, cd_offset, comment = struct.unpack("<IHHHHIIH", raw.read(22))
    cd_size_real = size - 22 - directory_offset
    raw.seek(size - 42)
    has_locator = raw.read(4) == b"PK\x06\x07"
    if has_locator:
        cd_size_real -= 76
    zip64_end = force or len(files) >= M16 or cd_size_real >= M32 or directory_offset >= M32
    if has_locator != zip64_end:
        fail(f"ZIP64 end records present: {has_locator}, expected {zip64_end}")
    if zip64_end:
        raw.seek(size - 42)
        locator = struct.unpack("<IIQI", raw.read(20))
        if locator != (0x07064B50, 0, size - 98, 1):
            fail(f"ZIP64 end of central directory locator {locator}")
        raw.seek(locator[2])
        record = struct.unpack("<IQHHIIQQQQ", raw.read(56))
        if record != (0x06064B50, 44, 0x033F, 45, 0, 0, len(files), len(files), cd_size_real, directory_offset):
            fail(f"ZIP64 end of central directory record {record}")
        if (here, total, cd_size, cd_offset) != (M16, M16, M32, M32):
            fail(f"end of central directory {here} {total} {cd_size} {cd_offset}, expected the ZIP64 markers")
    elif (here, total, cd_size, cd_offset) != (len(files), len(files), cd_size_real, directory_offset):
        fail(f"end of central directory {here} {total} {cd_size} {cd_offset}")
    if (sig, disk, cd_disk, comment) != (0x06054B50, 0, 0, 0):
        fail(f"end of central directory {sig:#x} {disk} {cd_disk} {comment}")
    print(f"ok: {len(files)} files, ZIP64 end: {zip64_end}")
    """#
