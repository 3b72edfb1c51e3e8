// GalleryServer+Responses: the responses: files with Range, ZIPs made while sent, the slideshow's events, pages.
import BoothSystem
import GalleryCore
import Glibc
import Hummingbird
import HummingbirdCore
import NIOCore
import NIOFileSystem
import PhotoModel
import ServiceLifecycle

extension GalleryServer {
    /// A file of the store or the cache with ETag, Last-Modified and `immutable` caching (a photo's bytes never
    /// change under its name), and one Range.
    func file(
        _ path: String, request: Request, context: GalleryContext, disposition: String
    ) async throws
        -> Response
    {
        guard let info = try await FileSystem.shared.info(forFileAt: FilePath(path), infoAboutSymbolicLink: true),
            info.type == .regular
        else { throw HTTPError(.notFound) }
        let size = info.size
        let modified = info.lastDataModificationTime.seconds
        let etag = "\"\(String(modified, radix: 16))-\(String(size, radix: 16))\""
        var headers: HTTPFields = [
            .contentType: "image/jpeg", .acceptRanges: "bytes", .eTag: etag,
            .lastModified: Self.httpDate(modified), .cacheControl: "private, max-age=31536000, immutable",
            .contentDisposition: disposition,
        ]
        if request.headers[.ifNoneMatch] == etag { return Response(status: .notModified, headers: headers) }
        let range =
            request.headers[.ifRange].map { $0 == etag } ?? true
            ? ByteRange(header: request.headers[.range], size: size) : .whole
        switch range {
        case .whole:
            return Response(
                status: .ok, headers: headers, body: try await FileIO().loadFile(path: path, context: context))
        case .part(let first, let last):
            headers[.contentRange] = "bytes \(first)-\(last)/\(size)"
            let body = try await FileIO().loadFile(path: path, range: Int(first)...Int(last), context: context)
            return Response(status: .partialContent, headers: headers, body: body)
        case .unsatisfiable:
            headers[.contentRange] = "bytes */\(size)"
            return Response(status: .rangeNotSatisfiable, headers: headers)
        }
    }

    /// A ZIP of `photos` made while it is sent (no temporary file, no whole archive in memory), its length known
    /// before the first byte. A photo whose CRC-32 the index recorded at save has it in its local header, and its
    /// bytes go from the page cache to the socket by the kernel (a `FileSpan`: sendfile), never through the
    /// gallery; a photo the index lacks is read in pieces and summed on the way (its CRC-32 in a data descriptor).
    func zip(_ photos: [GalleryPhoto], folders: Bool, named: String, channel: any Channel) throws -> Response {
        var entries: [(ZipEntry, FileSpan)] = []
        for photo in photos {
            let path = "\(options.photos)/\(photo.name)"
            guard let info = FileStatus(path: path), info.isRegularFile else { continue }
            let name = folders ? "\(photo.day ?? PhotoName.undated)/\(photo.name)" : photo.name
            // A ZIP's DOS time is wall-clock time: the local time zone's offset at the photo's time.
            // A photo saved undated but dated since by a phone: the time it was taken, not the file's wrong one.
            let seconds = photo.dated ?? info.modifiedSeconds
            // The index's checksum holds for the file of the size it recorded (the store never rewrites a photo).
            let entry = try ZipEntry(
                name: name, size: UInt64(info.size), modified: seconds,
                utcOffset: WallTime(seconds: seconds, local: true).utcOffset,
                checksum: info.size == photo.size ? photo.checksum : nil)
            let span = FileSpan(
                path: path, device: info.identity.device, inode: info.identity.inode, offset: 0,
                length: UInt64(info.size))
            entries.append((entry, span))
        }
        let files = entries
        let secret = spanSecret
        let length = ZipStreamWriter.length(of: files.map(\.0))
        let headers: HTTPFields = [
            .contentType: "application/zip", .contentDisposition: "attachment; filename=\"\(named)\"",
            .cacheControl: "no-store",
        ]
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody(contentLength: Int(length)) { writer in
                var zip = ZipStreamWriter()
                // Parts not yet handed to the channel, and how many of them are file spans: the parts of several
                // photos go in one write, once the channel has room for their files (FileSpanSender).
                var parts: [ByteBuffer] = []
                var spans = 0
                func handOver() async throws {
                    try await FileSpanSender.room(for: spans, on: channel)
                    try await writer.write(contentsOf: parts)
                    (parts, spans) = ([], 0)
                }
                for (entry, span) in files {
                    parts.append(ByteBuffer(bytes: try zip.begin(entry)))
                    if entry.checksum != nil {
                        // Nothing to sum: the kernel sends the file's bytes from the page cache (FileSpanSender).
                        try zip.dataSent(count: span.length)
                        if span.length > 0 {
                            parts.append(ByteBuffer(bytes: span.marker(secret: secret)))
                            spans += 1
                        }
                        // No data descriptor (the header holds the checksum): nothing to add when it is empty.
                        let end = try zip.end()
                        if !end.isEmpty { parts.append(ByteBuffer(bytes: end)) }
                        if spans >= Self.spansPerWrite { try await handOver() }
                        continue
                    }
                    try await handOver()
                    try await FileSystem.shared.withFileHandle(forReadingAt: FilePath(span.path)) { handle in
                        for try await chunk in handle.readChunks(chunkLength: .kibibytes(256)) {
                            try chunk.withUnsafeReadableBytes { try zip.data($0) }
                            try await writer.write(chunk)
                        }
                    }
                    parts.append(ByteBuffer(bytes: try zip.end()))
                }
                parts.append(ByteBuffer(bytes: try zip.finish()))
                try await handOver()
                try await writer.finish(nil)
            })
    }

    /// The slideshow's events: `event: photo` with the name of each photo the booth saves, and a comment every
    /// 15 s so a phone that vanished is noticed; ends when the client goes or the server stops.
    func events(_ request: Request, _ context: GalleryContext) async -> Response {
        let stream = await catalog.subscribe()
        let headers: HTTPFields = [.contentType: "text/event-stream", .cacheControl: "no-store"]
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                do {
                    try await request.body.consumeWithCancellationOnInboundClose { _ in
                        try await writer.write(ByteBuffer(string: ": connected\n\n"))
                        try await withThrowingTaskGroup(of: Void.self) { group in
                            let (beats, beat) = AsyncStream.makeStream(of: String.self)
                            group.addTask {
                                while !Task.isCancelled {
                                    try await Task.sleep(for: .seconds(15))
                                    beat.yield(": still here\n\n")
                                }
                            }
                            group.addTask {
                                for await name in stream.cancelOnGracefulShutdown() {
                                    beat.yield("event: photo\ndata: \(name)\n\n")
                                }
                                beat.finish()
                            }
                            for await text in beats { try await writer.write(ByteBuffer(string: text)) }
                            group.cancelAll()
                        }
                    }
                } catch is CancellationError {
                    return
                }
                try await writer.finish(nil)
            })
    }

    static func html(_ page: String) -> Response {
        text(page, type: "text/html; charset=utf-8", cache: "no-store")
    }

    static func text(_ text: String, type: String, cache: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: type, .cacheControl: cache],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// An HTTP date (`Sun, 06 Nov 1994 08:49:37 GMT`).
    static func httpDate(_ seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        var buffer = [CChar](repeating: 0, count: 64)
        let n = strftime(&buffer, buffer.count, "%a, %d %b %Y %H:%M:%S GMT", &parts)
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// 128 random bits as hex, from the kernel (the system generator is getrandom on Linux).
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }
}
