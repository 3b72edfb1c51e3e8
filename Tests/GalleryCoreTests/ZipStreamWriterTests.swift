// ZipStreamWriterTests: streamed archives read back by Python's zipfile and Info-ZIP, ZIP64, lengths, refusals.
import BoothTestSupport
import Checksum
import Foundation
import Glibc
import Testing

@testable import GalleryCore

/// Faults planted in the writer and the tests that failed: a ZIP64 switch at > instead of >= the marker (the rule
/// and fake-size tests; for the count, also the 65,535-file one), 4-byte sizes in a ZIP64 data descriptor, a zero
/// CRC-32 in the descriptor, no CRC-32 update, zero local sizes with ZIP64, no UTF-8 flag, real values instead of
/// the markers in a ZIP64 end record (the reader tests), `length(of:)` always counting the timestamp (lengths), the
/// offset's ZIP64 field left out (the writer traps on the 32-bit field), the UTC offset ignored or seconds not halved
/// (DOS times and the reader tests), an overrun let through (changed size), `..` allowed (refused names), bit 3 or a
/// descriptor kept for a known checksum, or the known checksum left out of the local header (the known-checksum test
/// and the readers' walk).
@Suite(.timeLimit(.minutes(3))) struct ZipStreamWriterTests {
    /// A file to zip: its entry and its bytes.
    struct Source {
        var entry: ZipEntry
        var bytes: [UInt8]
    }

    /// The archive of `sources`, streamed in chunks of `chunk` bytes (or random sizes from `random`), as the
    /// server would; also checks the writer's count against `length(of:)`.
    static func archive(
        _ sources: [Source], writer: inout ZipStreamWriter, chunk: Int? = nil, random: inout SplitMix64
    ) throws -> [UInt8] {
        var out: [UInt8] = []
        for source in sources {
            out += try writer.begin(source.entry)
            var at = 0
            while at < source.bytes.count {
                let size = chunk ?? Int(random.next() % 70_000) + 1
                let piece = Array(source.bytes[at..<min(at + size, source.bytes.count)])
                try writer.data(piece)
                out += piece
                at += piece.count
            }
            out += try writer.end()
        }
        out += try writer.finish()
        #expect(writer.count == UInt64(out.count))
        return out
    }

    /// Writes `bytes` at `offset` in a new file at `path` (what comes before is a hole: no disk used).
    static func write(_ bytes: [UInt8], to path: String, at offset: UInt64 = 0) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(fd >= 0, "open \(path): \(errno)")
        defer { close(fd) }
        var done = 0
        while done < bytes.count {
            let n = bytes[done...].withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(offset) + off_t(done)) }
            try #require(n > 0, "pwrite \(path): \(errno)")
            done += n
        }
    }

    /// A few small files of random bytes: an empty one, one of more than a 256 KiB chunk, a UTF-8 name, a folder
    /// prefix, and times before 1980 (DOS clamps), in summer with an offset, and after 2038 (no extended timestamp).
    static func smallSources(random: inout SplitMix64) throws -> [Source] {
        func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) } }
        return [
            Source(entry: try ZipEntry(name: "a.jpg", size: 1000, modified: 1_795_000_001), bytes: bytes(1000)),
            Source(entry: try ZipEntry(name: "empty.jpg", size: 0, modified: 31_536_000), bytes: []),
            Source(
                entry: try ZipEntry(name: "Ünïcødé_😀.jpg", size: 70_001, modified: 1_784_500_000, utcOffset: 7200),
                bytes: bytes(70_001)),
            Source(
                entry: try ZipEntry(
                    name: "2026-11-22/HeyLook_2026-11-22_14-03-07_000042.jpg", size: 300_000, modified: 1_795_356_187,
                    utcOffset: 3600), bytes: bytes(300_000)),
            Source(
                entry: try ZipEntry(
                    name: "2026-11-22/later.jpg", size: 17, modified: 7_258_118_400, utcOffset: -18_000),
                bytes: bytes(17)),
        ]
    }

    /// `sources` with the CRC-32 of every other one (from the first) given in its entry, as the photo index gives it.
    static func knowingChecksums(_ sources: [Source]) throws -> [Source] {
        try sources.enumerated().map { index, source in
            guard index % 2 == 0 else { return source }
            let entry = source.entry
            return Source(
                entry: try ZipEntry(
                    name: entry.name, size: entry.size, modified: entry.modified, utcOffset: entry.utcOffset,
                    checksum: CRC32.checksum(source.bytes)),
                bytes: source.bytes)
        }
    }

    /// Writes each source's bytes to a file in `folder`; what the readers expect.
    static func expected(_ sources: [Source], in folder: String) throws -> [ExpectedFile] {
        try sources.enumerated().map { index, source in
            let path = "\(folder)/source-\(index)"
            try write(source.bytes, to: path)
            return ExpectedFile(
                name: source.entry.name, path: path, modified: source.entry.modified, utcOffset: source.entry.utcOffset,
                knownChecksum: source.entry.checksum != nil)
        }
    }

    @Test(arguments: [false, true], [false, true])
    func smallFilesReadBackInPythonAndInfoZIP(forceZIP64: Bool, knownChecksums: Bool) throws {
        try #require(unzipInstalled, "Info-ZIP unzip is missing: scripts/install-deps --test installs Debian's unzip")
        var random = SplitMix64(seed: 25)
        let plain = try Self.smallSources(random: &random)
        let sources = knownChecksums ? try Self.knowingChecksums(plain) : plain
        let folder = temporaryDirectory()
        defer { _ = system("rm -rf '\(folder)'") }
        var writer = ZipStreamWriter(forceZIP64: forceZIP64)
        let bytes = try Self.archive(sources, writer: &writer, chunk: 256 * 1024, random: &random)
        #expect(UInt64(bytes.count) == ZipStreamWriter.length(of: sources.map(\.entry), forceZIP64: forceZIP64))
        let path = "\(folder)/photos.zip"
        try Self.write(bytes, to: path)

        let files = try Self.expected(sources, in: folder)
        let report = try checkWithPython(path, files: files, forceZIP64: forceZIP64)
        #expect(report.contains("ZIP64 end: \(forceZIP64 ? "True" : "False")"))
        try checkWithUnzip(path)

        // Info-ZIP extracts the UTF-8 names into folders, the same bytes, and the extended timestamp's exact time.
        let out = "\(folder)/out"
        let (status, output) = try run(["unzip", "-q", "-o", path, "-d", out], environment: ["LC_ALL": "C.UTF-8"])
        #expect(status == 0, "unzip: \(output)")
        for source in sources {
            let extracted = "\(out)/\(source.entry.name)"
            #expect(readFile(extracted) == source.bytes, "\(extracted)")
            var info = stat()
            #expect(stat(extracted, &info) == 0)
            if Int32(exactly: source.entry.modified) != nil {
                #expect(Int64(info.st_mtim.tv_sec) == source.entry.modified, "mtime of \(extracted)")
            }
        }
    }

    @Test func bytesInRandomChunksMakeTheSameArchive() throws {
        var random = SplitMix64(seed: 7)
        let sources = try Self.smallSources(random: &random)
        var whole = ZipStreamWriter()
        var pieces = ZipStreamWriter()
        let inOneChunk = try Self.archive(sources, writer: &whole, chunk: 1 << 30, random: &random)
        let inRandomChunks = try Self.archive(sources, writer: &pieces, random: &random)
        #expect(inOneChunk == inRandomChunks)
    }

    /// 65,535 files (the 16-bit count's marker value): ZIP64 end records, which both readers follow.
    @Test func sixtyFiveThousandFiveHundredThirtyFiveFilesUseZIP64EndRecords() throws {
        try #require(unzipInstalled, "Info-ZIP unzip is missing: scripts/install-deps --test installs Debian's unzip")
        let count = ZIP64Rule.marker16
        let entries = try (0..<count).map { try ZipEntry(name: "d/\($0).jpg", size: 0, modified: 1_795_356_187) }
        var writer = ZipStreamWriter()
        var bytes: [UInt8] = []
        for entry in entries {
            bytes += try writer.begin(entry)
            bytes += try writer.end()
        }
        bytes += try writer.finish()
        #expect(UInt64(bytes.count) == ZipStreamWriter.length(of: entries))
        #expect(
            bytes.suffix(22).starts(with: [0x50, 0x4B, 5, 6]) && bytes.suffix(42).starts(with: [0x50, 0x4B, 6, 7]))
        // One fewer fits the plain end record: 76 bytes less, besides the file's own records (local 30 + name 11
        // + timestamp 9, descriptor 16, central 46 + 11 + 9).
        let oneFewer = ZipStreamWriter.length(of: Array(entries.dropLast()))
        let oneFile: UInt64 = 30 + 11 + 9 + 16 + 46 + 11 + 9
        #expect(oneFewer == ZipStreamWriter.length(of: entries) - oneFile - 76)

        let folder = temporaryDirectory()
        defer { _ = system("rm -rf '\(folder)'") }
        let path = "\(folder)/many.zip"
        try Self.write(bytes, to: path)
        let files = entries.map { ExpectedFile(name: $0.name, path: nil, modified: $0.modified, utcOffset: 0) }
        #expect(try checkWithPython(path, files: files, forceZIP64: false).contains("ZIP64 end: True"))
        try checkWithUnzip(path)
    }

    /// Local headers at and past 4 GiB - 1 without 4 GiB of data: the archive starts after a hole in a sparse file
    /// (offsets count from the file's start, as after a self-extractor), placed so the second header lands exactly
    /// on 0xFFFFFFFF. Its offset and every later one go in ZIP64 fields, and the end records are ZIP64.
    @Test func offsetsPastFourGiBUseZIP64FieldsThatBothReadersFollow() throws {
        try #require(unzipInstalled, "Info-ZIP unzip is missing: scripts/install-deps --test installs Debian's unzip")
        var random = SplitMix64(seed: 4)
        let sources = try Self.knowingChecksums(try Self.smallSources(random: &random))
        let first =
            ZipStreamWriter.length(of: [sources[0].entry]) - 22 - 46 - 9 - UInt64(sources[0].entry.name.utf8.count)
        let start = ZIP64Rule.marker32 - first
        var writer = ZipStreamWriter(rule: ZIP64Rule(), startingAt: start)
        let bytes = try Self.archive(sources, writer: &writer, chunk: 4096, random: &random)
        #expect(
            UInt64(bytes.count)
                == ZipStreamWriter.length(of: sources.map(\.entry), rule: ZIP64Rule(), startingAt: start))
        #expect(UInt64(bytes.count) > ZipStreamWriter.length(of: sources.map(\.entry)))

        let folder = temporaryDirectory()
        defer { _ = system("rm -rf '\(folder)'") }
        let path = "\(folder)/far.zip"
        try Self.write(bytes, to: path, at: start)
        let files = try Self.expected(sources, in: folder)
        let report = try checkWithPython(path, files: files, start: start, forceZIP64: false)
        #expect(report.contains("ZIP64 end: True"))
        try checkWithUnzip(path)
    }

    /// `length(of:)` equals what the writer makes, for random shapes: no file or many, names of every length and
    /// script, empty and odd sizes, times in and out of the DOS and 32-bit ranges, forced ZIP64 or not, and archives
    /// starting around 4 GiB so that ZIP64 offsets begin mid-archive.
    @Test func lengthEqualsTheBytesWrittenForManyShapes() throws {
        var random = SplitMix64(seed: 2026)
        let letters = Array("abcXYZ019_-. éüßЖ中😀")
        for shape in 0..<300 {
            let count = shape % 17 == 0 ? 0 : Int(random.next() % 12) + 1
            var sources: [Source] = []
            for index in 0..<count {
                let length = Int(random.next() % 40) + 1
                let base = String((0..<length).map { _ in letters[Int(random.next() % UInt64(letters.count))] })
                let name = (random.next() % 2 == 0 ? "2026-11-\(index)/" : "") + "f\(index)" + base
                let size = [0, 1, 2, 255, 4096, Int(random.next() % 9000)][Int(random.next() % 6)]
                let modified = [0, -1, 315_532_800, 1_795_356_187, 2_147_483_647, 2_147_483_648, -2_147_483_649][
                    Int(random.next() % 7)]
                let entry = try ZipEntry(
                    name: name, size: UInt64(size), modified: Int64(modified),
                    utcOffset: Int(Int64(random.next() % 100_000) - 50_000),
                    checksum: random.next() % 2 == 0 ? UInt32(truncatingIfNeeded: random.next()) : nil)
                sources.append(
                    Source(entry: entry, bytes: (0..<size).map { _ in UInt8(truncatingIfNeeded: random.next()) }))
            }
            let rule = ZIP64Rule(force: random.next() % 3 == 0)
            let start: UInt64 = [0, 0, ZIP64Rule.marker32 - random.next() % 30_000, ZIP64Rule.marker32 + 5][
                Int(random.next() % 4)]
            var writer = ZipStreamWriter(rule: rule, startingAt: start)
            let bytes = try Self.archive(sources, writer: &writer, random: &random)
            let planned = ZipStreamWriter.length(of: sources.map(\.entry), rule: rule, startingAt: start)
            #expect(
                UInt64(bytes.count) == planned, "shape \(shape): \(count) files, force \(rule.force), start \(start)")
        }
    }

    @Test func theZIP64RuleSwitchesAtTheMarkerValues() {
        let rule = ZIP64Rule()
        #expect(!rule.sizes(0) && !rule.sizes(0xFFFF_FFFE))
        #expect(rule.sizes(0xFFFF_FFFF) && rule.sizes(0x1_0000_0000) && rule.sizes(.max))
        #expect(!rule.offset(0) && !rule.offset(0xFFFF_FFFE))
        #expect(rule.offset(0xFFFF_FFFF) && rule.offset(0x1_0000_0000))
        #expect(!rule.end(entryCount: 65_534, directorySize: 0xFFFF_FFFE, directoryOffset: 0xFFFF_FFFE))
        #expect(rule.end(entryCount: 65_535, directorySize: 0, directoryOffset: 0))
        #expect(rule.end(entryCount: 1_000_000, directorySize: 0, directoryOffset: 0))
        #expect(rule.end(entryCount: 1, directorySize: 0xFFFF_FFFF, directoryOffset: 0))
        #expect(rule.end(entryCount: 1, directorySize: 0, directoryOffset: 0xFFFF_FFFF))
        let forced = ZIP64Rule(force: true)
        #expect(forced.sizes(0) && forced.offset(0) && forced.end(entryCount: 0, directorySize: 0, directoryOffset: 0))
    }

    /// Lengths with sizes no test writes: one byte more at 4 GiB - 1 costs the ZIP64 fields (20 bytes in the local
    /// header, 8 in the descriptor, 20 in the central header), counted by hand from APPNOTE.
    @Test func lengthCountsZIP64FieldsForFakeSizes() throws {
        func entry(_ size: UInt64) throws -> ZipEntry {
            try ZipEntry(name: "x.jpg", size: size, modified: 1_795_356_187)
        }
        // local 30 + 5 + 9, data, descriptor 16, central 46 + 5 + 9, end 22.
        #expect(ZipStreamWriter.length(of: [try entry(10)]) == 44 + 10 + 16 + 60 + 22)
        // The central directory starts past 4 GiB - 1 already: ZIP64 end records (56 + 20) either way.
        let below = ZipStreamWriter.length(of: [try entry(0xFFFF_FFFE)])
        #expect(below == 44 + 0xFFFF_FFFE + 16 + 60 + 22 + 76)
        #expect(ZipStreamWriter.length(of: [try entry(0xFFFF_FFFF)]) == below + 1 + 20 + 8 + 20)
        // A second file after a 5 GiB one: its offset goes in a ZIP64 field too (4 + 8 bytes).
        let big = 5 << 30 as UInt64
        #expect(
            ZipStreamWriter.length(of: [try entry(big), try entry(1)])
                == (44 + 20) + big + 24 + (60 + 20) + 44 + 1 + 16 + (60 + 12) + 22 + 76)
        // The 5 GiB file's header says so before any byte is read: sizes 0xFFFFFFFF and a ZIP64 field of zeros.
        var writer = ZipStreamWriter()
        let header = try writer.begin(try entry(big))
        #expect(Array(header[18..<26]) == [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(Array(header[35..<39]) == [1, 0, 16, 0] && header[39..<55].allSatisfy { $0 == 0 })
        #expect(Array(header[4..<6]) == [45, 0])
    }

    /// With the checksum known the writer sums nothing: the local header carries it and the sizes, no descriptor
    /// follows, and a wrong one (a photo changed behind the index's back) is what both readers then report.
    @Test func aKnownChecksumGoesInTheLocalHeaderAndReadersCheckIt() throws {
        try #require(unzipInstalled, "Info-ZIP unzip is missing: scripts/install-deps --test installs Debian's unzip")
        let bytes = Array("a photo's bytes".utf8)
        let right = CRC32.checksum(bytes)
        for (checksum, valid) in [(right, true), (right ^ 1, false)] {
            let entry = try ZipEntry(
                name: "a.jpg", size: UInt64(bytes.count), modified: 1_795_356_187, checksum: checksum)
            var writer = ZipStreamWriter()
            let header = try writer.begin(entry)
            #expect(Array(header[6..<8]) == [0, 8], "bit 11 only, no bit 3")
            #expect(Array(header[14..<18]) == withUnsafeBytes(of: checksum.littleEndian, Array.init))
            #expect(Array(header[18..<26]) == [15, 0, 0, 0, 15, 0, 0, 0])
            try writer.data(bytes)
            #expect(try writer.end().isEmpty)
            let archive = header + bytes + (try writer.finish())
            #expect(UInt64(archive.count) == ZipStreamWriter.length(of: [entry]))

            let folder = temporaryDirectory()
            defer { _ = system("rm -rf '\(folder)'") }
            let path = "\(folder)/known.zip"
            try Self.write(archive, to: path)
            let (status, output) = try run(["unzip", "-tq", path], environment: ["LC_ALL": "C.UTF-8"])
            #expect((status == 0) == valid, "unzip -t: \(output)")
            #expect(output.contains("bad CRC") == !valid, "unzip -t: \(output)")
        }
        // The size is still counted: one byte more than declared stops the archive.
        var writer = ZipStreamWriter()
        _ = try writer.begin(try ZipEntry(name: "b.jpg", size: 2, modified: 0, checksum: 7))
        #expect(throws: ZipError.sizeChanged(name: "b.jpg", declared: 2, read: 3)) { try writer.data([1, 2, 3]) }
    }

    @Test func bytesSentByTheKernelCountAsTheSameArchive() throws {
        let bytes = Array("a photo's bytes".utf8)
        let entry = try ZipEntry(
            name: "a.jpg", size: UInt64(bytes.count), modified: 1_795_356_187, checksum: CRC32.checksum(bytes))
        var passed = ZipStreamWriter()
        var archive = try passed.begin(entry)
        try passed.data(bytes)
        archive += try bytes + passed.end() + passed.finish()
        var sent = ZipStreamWriter()
        let header = try sent.begin(entry)
        try sent.dataSent(count: 10)
        try sent.dataSent(count: UInt64(bytes.count - 10))
        let rest = try sent.end() + sent.finish()
        #expect(header + bytes + rest == archive)
        #expect(sent.count == UInt64(archive.count))

        var over = ZipStreamWriter()
        _ = try over.begin(entry)
        #expect(throws: ZipError.sizeChanged(name: "a.jpg", declared: UInt64(bytes.count), read: 16)) {
            try over.dataSent(count: 16)
        }
        // Without a known checksum the bytes must be summed: they cannot be sent around the writer.
        var unknown = ZipStreamWriter()
        _ = try unknown.begin(try ZipEntry(name: "b.jpg", size: 3, modified: 0))
        #expect(
            throws: ZipError.outOfOrder(
                "dataSent(count:) for b.jpg, whose checksum is not known: pass its bytes to data(_:)")
        ) { try unknown.dataSent(count: 3) }
        var none = ZipStreamWriter()
        #expect(throws: ZipError.outOfOrder("dataSent(count:) with no file begun: call begin(_:) first")) {
            try none.dataSent(count: 1)
        }
    }

    @Test func aFileThatChangesWhileZippedStopsTheArchive() throws {
        var grew = ZipStreamWriter()
        _ = try grew.begin(try ZipEntry(name: "a.jpg", size: 10, modified: 0))
        try grew.data([UInt8](repeating: 1, count: 6))
        #expect(throws: ZipError.sizeChanged(name: "a.jpg", declared: 10, read: 11)) {
            try grew.data([UInt8](repeating: 1, count: 5))
        }
        #expect(grew.count == 30 + 5 + 9 + 6, "the chunk that overran is not counted: the server does not send it")
        // Nothing more can be written: every call says why.
        #expect(throws: ZipError.sizeChanged(name: "a.jpg", declared: 10, read: 11)) { try grew.end() }
        #expect(throws: ZipError.sizeChanged(name: "a.jpg", declared: 10, read: 11)) { try grew.finish() }

        var shrank = ZipStreamWriter()
        _ = try shrank.begin(try ZipEntry(name: "b.jpg", size: 10, modified: 0))
        try shrank.data([UInt8](repeating: 1, count: 9))
        let error = #expect(throws: ZipError.self) { try shrank.end() }
        #expect(error == .sizeChanged(name: "b.jpg", declared: 10, read: 9))
        #expect(
            error?.description
                == "b.jpg changed while it was being zipped: its size was 10 bytes when the download began but 9 bytes "
                + "were read; the download stopped there, so no corrupt ZIP is saved: download it again")
        #expect(throws: ZipError.sizeChanged(name: "b.jpg", declared: 10, read: 9)) {
            try shrank.begin(try ZipEntry(name: "c.jpg", size: 0, modified: 0))
        }
    }

    @Test func unsafeNamesAreRefused() throws {
        let refused = [
            "", "/etc/passwd", "../x.jpg", "a/../../x.jpg", "a/..", "..", "./x.jpg", "a//x.jpg", "a/", "a\\x.jpg",
            "..\\x.jpg", "x\u{0}.jpg", "x\n.jpg", "x\u{7F}.jpg", String(repeating: "a", count: 65_536),
        ]
        for name in refused {
            #expect(throws: ZipError.self, "\(name.prefix(20))") { try ZipEntry(name: name, size: 0, modified: 0) }
        }
        let error = #expect(throws: ZipError.self) { try ZipEntry(name: "a/../x\u{0}.jpg", size: 0, modified: 0) }
        #expect(
            error?.description
                == "the name \"a/../x\\u{0}.jpg\" cannot go in a ZIP: it contains NUL; name files in an archive by "
                + "the photo index only")
        for name in [
            "a..b.jpg", "...jpg", ".hidden.jpg", "2026-11-22/x.jpg", "Ünïcødé_😀.jpg",
            String(repeating: "é", count: 32_767),
        ] {
            #expect(try ZipEntry(name: name, size: 0, modified: 0).name == name)
        }
    }

    @Test func callsOutOfOrderAreErrors() throws {
        let entry = try ZipEntry(name: "a.jpg", size: 0, modified: 0)
        var writer = ZipStreamWriter()
        #expect(throws: ZipError.outOfOrder("data(_:) with no file begun: call begin(_:) first")) {
            try writer.data([])
        }
        #expect(throws: ZipError.self) { try writer.end() }
        _ = try writer.begin(entry)
        #expect(throws: ZipError.outOfOrder("begin(a.jpg) while a.jpg is open: call end() first")) {
            try writer.begin(entry)
        }
        #expect(throws: ZipError.self) { try writer.finish() }
        _ = try writer.end()
        _ = try writer.finish()
        #expect(throws: ZipError.outOfOrder("begin(a.jpg) after finish(): the archive is complete")) {
            try writer.begin(entry)
        }
        #expect(throws: ZipError.self) { try writer.finish() }
    }

    @Test func dosTimesAreWallClockTimeInTwoSecondSteps() {
        // 2026-11-22 14:03:07 UTC, an hour east: 15:03:06 (seconds halved).
        let stamp = DOSDateTime(seconds: 1_795_356_187, utcOffset: 3600)
        #expect(stamp.date == UInt16(46 << 9 | 11 << 5 | 22) && stamp.time == UInt16(15 << 11 | 3 << 5 | 3))
        #expect(DOSDateTime(seconds: 315_532_800, utcOffset: 0) == DOSDateTime(time: 0, date: 1 << 5 | 1))
        // Before 1980, after 2107, and at the far ends of Int64: clamped, no trap.
        let first = DOSDateTime(time: 0, date: 1 << 5 | 1)
        let last = DOSDateTime(time: 23 << 11 | 59 << 5 | 29, date: 127 << 9 | 12 << 5 | 31)
        #expect(DOSDateTime(seconds: 315_532_799, utcOffset: 0) == first)
        #expect(DOSDateTime(seconds: 315_532_800, utcOffset: -1) == first)
        #expect(DOSDateTime(seconds: .min, utcOffset: .min) == first)
        #expect(DOSDateTime(seconds: 4_354_819_199, utcOffset: 0) == last)  // 2107-12-31 23:59:59
        #expect(DOSDateTime(seconds: 4_354_819_200, utcOffset: 0) == last)
        #expect(DOSDateTime(seconds: .max, utcOffset: .max) == last)
    }

    /// The calendar arithmetic against Foundation's Gregorian calendar, day by day from 1900 to 2110 (DOS times'
    /// range, and 1900, 2000 and 2100: century years with and without a leap day), then every 97th day from 1600
    /// (Foundation's calendar is Julian before 1582) to 2400.
    @Test func civilDatesMatchFoundationsCalendar() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let daily = stride(from: Int64(-25_567), through: 51_135, by: 1)
        for days in Array(daily) + Array(stride(from: Int64(-135_140), through: 157_054, by: 97)) {
            let date = Date(timeIntervalSince1970: TimeInterval(days * 86_400))
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            let civil = DOSDateTime.civil(days: days)
            if civil.year != Int64(parts.year!) || civil.month != Int64(parts.month!) || civil.day != Int64(parts.day!)
            {
                Issue.record("day \(days): \(civil), Foundation says \(parts)")
                return
            }
        }
    }
}
