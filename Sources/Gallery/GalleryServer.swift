// GalleryServer: `booth gallery`'s HTTP server: the code page, the gallery, photos, thumbnails, ZIPs, the slideshow.
import BoothSystem
import Dispatch
import GalleryCore
import Glibc
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOFileSystem
import NIOPosix
import PhotoModel
import PhotoStore
import ServiceLifecycle

/// `booth gallery`'s HTTP server, a process of its own beside the booth: it reads the photo store (never writes
/// it), learns of new photos from the kernel (inotify), and serves the pages, the originals (with Range and HEAD),
/// thumbnails, ZIPs made on the fly and the slideshow's events. Everything but the code page and its stylesheet
/// needs the access cookie; photos are found by name in the catalog, never by a path from the URL.
public struct GalleryServer: Sendable {
    /// What the server serves and where.
    public struct Options: Sendable {
        public var photos: String
        public var cache: String
        public var host: String
        public var port: Int
        public var code: String
        /// This machine's name: requests for it (or any `.local` name or an address) are served, others are sent to
        /// the gallery (`CaptivePortal`).
        public var hostname = HostName.current()
        /// Photos per gallery page.
        public var pageSize = 60
        /// Connections served at once; more wait in the kernel's queue.
        public var maximumConnections = 64
        /// Where to leave the `ClockMark` after setting the system clock from a phone; nil: never set it (a gallery
        /// run by hand on a laptop leaves its clock alone).
        public var clockMark: String?
        /// The booth's print socket (`print.from_gallery`, printing on): each photo's page has a Print button that
        /// asks the booth there; nil: no button.
        public var printSocket: String?
        /// How long a guest's print request waits for the booth's answer.
        public var printTimeoutMilliseconds: Int32 = 20_000
        /// Lines for the journal.
        public var log: @Sendable (String) -> Void = { _ in }

        public init(photos: String, cache: String, host: String, port: Int, code: String) {
            (self.photos, self.cache, self.host, self.port, self.code) = (photos, cache, host, port, code)
        }
    }

    public let options: Options
    let catalog: PhotoCatalog
    let thumbnails: ThumbnailStore
    let gate: AccessGate
    let clock: PhoneClockSetter?
    /// What begins a `FileSpan` marker in a response body (`FileSpanSender`), drawn at start.
    let spanSecret = FileSpan.randomSecret()
    /// The most file spans one write of a ZIP's body carries (a write is a hop to the channel's thread): half the
    /// files a connection holds open, so one write's files are sent while the next's are opened.
    static let spansPerWrite = FileSpanSender.filesOpenAtOnce / 2

    /// A server for `options`: lists the store once and opens the thumbnail cache; throws when either fails.
    public init(options: Options) throws(SystemError) {
        self.options = options
        catalog = try PhotoCatalog(directory: options.photos, clockMark: options.clockMark)
        thumbnails = try ThumbnailStore(directory: options.cache, photos: options.photos)
        gate = AccessGate(code: options.code, token: Self.randomToken())
        clock = options.clockMark.map { PhoneClockSetter(markPath: $0, log: options.log) }
    }

    /// Serves until SIGTERM or SIGINT; `onRunning` gets the port it listens on (the one asked for, or the one the
    /// kernel chose for port 0).
    public func run(onRunning: @escaping @Sendable (Int) async -> Void) async throws {
        let watch = try DirectoryWatch(options.photos)
        let catalog = self.catalog
        let thumbnails = self.thumbnails
        thumbnails.prepare(await catalog.listing.photos.map(\.name))
        // The folder's events arrive on a dispatch source; a burst (a save's temp name, rename and index) becomes
        // one new listing.
        let source = DispatchSource.makeReadSource(fileDescriptor: watch.descriptor, queue: .global(qos: .utility))
        source.setEventHandler {
            let changed = (try? watch.changes()).map { $0.overflowed || !$0.names.isEmpty } ?? true
            guard changed else { return }
            Task {
                guard let removed = try? await catalog.refresh() else { return }
                thumbnails.remove(removed)
                thumbnails.prepare(await catalog.listing.photos.map(\.name))
            }
        }
        source.resume()
        defer { source.cancel() }

        var logger = Logger(label: "heylook.gallery")
        logger.logLevel = .warning
        let port = options.port
        // Limits: a request's headers at most 16 KiB, a field 8 KiB, 64 fields (else 431: HeaderOverflowAnswer),
        // complete within 10 s of waiting for them (a client trickling a request is closed: RequestHeadDeadline),
        // an idle connection closed after 30 s, at most `maximumConnections` at once (more wait in the kernel),
        // and a request budget per client (429).
        let http1 = HTTP1Channel.Configuration(
            additionalChannelHandlers: [HeaderOverflowAnswer(), RequestHeadDeadline(limit: .seconds(10))],
            idleTimeout: .seconds(30),
            httpDecoderConfiguration: .init(
                maxHeaderFieldSize: 8 * 1024, maxHeaderListSize: 16 * 1024, maxHeaderFieldCount: 64))
        if let descriptor = InheritedSocketServer<RouterResponder<GalleryContext>>.systemdDescriptor() {
            let server = InheritedSocketServer(
                descriptor: descriptor, responder: router().buildResponder(), configuration: http1,
                spanSecret: spanSecret,
                maximumConnections: options.maximumConnections, logger: logger)
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
            }
            let inheritedPort =
                bound == 0
                ? Int(
                    UInt16(
                        bigEndian: withUnsafeBytes(of: address) {
                            $0.load(fromByteOffset: 2, as: UInt16.self)
                        })) : port
            await onRunning(inheritedPort)
            let group = ServiceGroup(
                services: [server], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
            try await group.run()
        } else {
            let app = Application(
                router: router(),
                server: HTTPServerBuilder { [spanSecret] responder in
                    GalleryHTTP1Channel(
                        http1: HTTP1Channel(responder: responder, configuration: http1), secret: spanSecret)
                },
                configuration: .init(
                    address: .hostname(options.host, port: options.port), serverName: "HeyLook gallery",
                    availableConnectionsDelegate: MaximumAvailableConnections(options.maximumConnections)),
                onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) },
                logger: logger)
            try await app.runService()
        }
        await catalog.finishAll()
    }

    /// The routes. HEAD is every GET without its body.
    func router() -> Router<GalleryContext> {
        let router = Router(context: GalleryContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: RequestBudgetMiddleware(RequestBudget()))
        router.add(middleware: CaptivePortalMiddleware(portal: CaptivePortal(hostname: options.hostname)))
        let server = self
        router.get("/static/gallery.css") { _, _ in
            Self.text(GalleryAssets.css, type: "text/css; charset=utf-8", cache: "public, max-age=3600")
        }
        router.get("/static/gallery.js") { _, _ in
            Self.text(GalleryAssets.javascript, type: "text/javascript; charset=utf-8", cache: "public, max-age=3600")
        }
        router.post("/code") { request, _ in try await server.enter(request) }
        router.get("/") { request, _ in
            guard server.admitted(request) else {
                // The join card's link carries the code (`/?code=K7PQ2M`): a scan signs the guest in.
                guard let typed = request.uri.queryParameters["code"] else {
                    return Self.html(GalleryPage.code(wrong: false))
                }
                return server.signIn(typed: String(typed))
            }
            let page = request.uri.queryParameters["page"].flatMap { Int($0) } ?? 1
            return Self.html(
                GalleryPage.gallery(
                    await server.catalog.listing, page: max(1, page), pageSize: server.options.pageSize,
                    askClock: await server.clock?.wanted() ?? false))
        }
        router.post("/clock") { request, context in try await server.phoneTime(request, context) }
        router.get("/photo/:name") { request, context in
            let (_, photo) = try await server.photo(request, context)
            let neighbours = await server.catalog.listing.neighbours(of: photo.name)
            return Self.html(
                GalleryPage.photo(
                    photo, newer: neighbours.newer, older: neighbours.older, layouts: server.layouts(of: photo),
                    printable: server.options.printSocket != nil))
        }
        router.post("/print/:name") { request, context in
            let (_, photo) = try await server.photo(request, context)
            guard let socket = server.options.printSocket else {
                throw HTTPError(.notFound, message: "this gallery does not print")
            }
            var response = Self.html(
                GalleryPage.printed(photo, answer: await server.askToPrint(photo.name, at: socket)))
            response.headers[.cacheControl] = "no-store"
            return response
        }
        router.get("/layout/:name") { request, context in
            let (name, _) = try await server.layout(request, context)
            let download = request.uri.queryParameters["download"] != nil
            return try await server.file(
                "\(PhotoStore.layoutsDirectory(of: server.options.photos))/\(name)", request: request,
                context: context, disposition: download ? "attachment; filename=\"\(name)\"" : "inline")
        }
        router.get("/original/:name") { request, context in
            let (_, photo) = try await server.photo(request, context)
            let download = request.uri.queryParameters["download"] != nil
            return try await server.file(
                "\(server.options.photos)/\(photo.name)", request: request, context: context,
                disposition: download ? "attachment; filename=\"\(photo.name)\"" : "inline")
        }
        router.get("/thumb/:name") { request, context in
            let (_, photo) = try await server.photo(request, context)
            let path: String
            do {
                path = try await server.thumbnails.thumbnail(for: photo.name)
            } catch {
                throw HTTPError(.unprocessableContent, message: "no thumbnail for \(photo.name): \(error)")
            }
            return try await server.file(path, request: request, context: context, disposition: "inline")
        }
        router.get("/zip/all") { request, context in
            guard server.admitted(request) else { throw HTTPError(.unauthorized) }
            let listing = await server.catalog.listing
            return try server.zip(
                listing.photos.reversed(), folders: true, named: "HeyLook photos.zip", channel: context.channel)
        }
        router.get("/zip/day/:day") { request, context in
            guard server.admitted(request) else { throw HTTPError(.unauthorized) }
            let asked = try context.parameters.require("day")
            let day: String? = asked == PhotoName.undated ? nil : asked
            let photos = await server.catalog.listing.photos(onDay: day)
            guard !photos.isEmpty else { throw HTTPError(.notFound, message: "no photos on \(asked)") }
            return try server.zip(photos, folders: false, named: "HeyLook \(asked).zip", channel: context.channel)
        }
        router.get("/slideshow") { request, _ in
            guard server.admitted(request) else { return Self.html(GalleryPage.code(wrong: false)) }
            return Self.html(GalleryPage.slideshow(await server.catalog.listing))
        }
        router.get("/events") { request, context in
            guard server.admitted(request) else { throw HTTPError(.unauthorized) }
            return await server.events(request, context)
        }
        return router
    }

    // MARK: Access

    func admitted(_ request: Request) -> Bool { gate.admits(cookie: request.cookies[AccessGate.cookieName]?.value) }

    /// The code form: the right code sets the cookie and goes to the gallery; a wrong one asks again.
    func enter(_ request: Request) async throws -> Response {
        var request = request
        let body = try await request.collectBody(upTo: 1024)
        return signIn(typed: AccessGate.formValue("code", in: Array(buffer: body)) ?? "")
    }

    /// The code `typed` (on the form or in the card's link): the right one sets the cookie and goes to the gallery; a
    /// wrong one asks again.
    func signIn(typed: String) -> Response {
        guard gate.accepts(typed) else {
            var response = Self.html(GalleryPage.code(wrong: true))
            response.status = .forbidden
            return response
        }
        var response = Response(status: .seeOther, headers: [.location: "/"])
        response.setCookie(
            Cookie(name: AccessGate.cookieName, value: gate.token, path: "/", httpOnly: true, sameSite: .strict))
        return response
    }

    /// A signed-in phone's time (`t=MILLISECONDS`): the answer is `PhoneClock`'s word for what was done. 401 without
    /// the cookie, 404 when this gallery does not set the clock, 400 for a body that is not a time, 503 when timedated
    /// or polkit refused (the reason in the body and the journal).
    func phoneTime(_ request: Request, _ context: GalleryContext) async throws -> Response {
        guard admitted(request) else { throw HTTPError(.unauthorized) }
        guard let clock else { throw HTTPError(.notFound, message: "this gallery does not set the clock") }
        var request = request
        let body = try await request.collectBody(upTo: 64)
        guard let phone = PhoneClock.phoneTime(body: String(buffer: body)) else {
            throw HTTPError(.badRequest, message: "send the phone's time as t=MILLISECONDS since 1970")
        }
        do {
            let decision = try await clock.offer(phone: phone, from: context.client)
            // The photos saved undated earlier in this boot have their dates from now on.
            if case .set = decision { _ = try? await catalog.refresh() }
            return Self.text(PhoneClock.word(decision) + "\n", type: "text/plain; charset=utf-8", cache: "no-store")
        } catch {
            options.log("the clock could not be set from a phone (\(context.client)): \(error)")
            throw HTTPError(.serviceUnavailable, message: "the clock could not be set: \(error)")
        }
    }

    /// The photo the URL's name parameter names, for an admitted request; 401 without the cookie, 404 for a name the
    /// catalog does not have (a traversal, a retake, anything else).
    func photo(_ request: Request, _ context: GalleryContext) async throws -> (String, GalleryPhoto) {
        guard admitted(request) else { throw HTTPError(.unauthorized) }
        let name = try context.parameters.require("name")
        guard let photo = await catalog.listing.photo(named: name) else {
            throw HTTPError(.notFound, message: "no photo of that name")
        }
        return (name, photo)
    }

    /// The print layout the URL's name parameter names, for an admitted request: a layout's name (`LayoutName`) whose
    /// photo the catalog has; 401 without the cookie, 404 otherwise (a traversal, a retake's layout, anything else).
    func layout(_ request: Request, _ context: GalleryContext) async throws -> (String, LayoutName) {
        guard admitted(request) else { throw HTTPError(.unauthorized) }
        let name = try context.parameters.require("name")
        guard let layout = LayoutName(fileName: name), await catalog.listing.photo(named: layout.photo.fileName) != nil
        else { throw HTTPError(.notFound, message: "no layout of that name") }
        return (name, layout)
    }

    /// The print layouts named after `photo` kept in the store's `layouts/` folder (regular files; a link is not
    /// one), looked up when its page is asked for: the booth writes them after the photo, as it prints.
    func layouts(of photo: GalleryPhoto) -> [LayoutName] {
        guard let name = PhotoName(fileName: photo.name) else { return [] }
        let folder = PhotoStore.layoutsDirectory(of: options.photos)
        return LayoutName.kinds.map { LayoutName(photo: name, kind: $0) }.filter { layout in
            var info = stat()
            return lstat("\(folder)/\(layout.fileName)", &info) == 0 && info.st_mode & S_IFMT == S_IFREG
        }
    }

    /// Asks the booth at `socket` to print the kept photo `name` (on a thread of its own: the booth answers once the
    /// photo's pages were handed to CUPS); the answer, or a refusal saying the booth did not answer.
    func askToPrint(_ name: String, at socket: String) async -> GalleryPrint.Answer {
        let timeout = options.printTimeoutMilliseconds
        let log = options.log
        return await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                let answer: GalleryPrint.Answer
                do throws(SystemError) {
                    let message = try PacketSocket.ask(
                        GalleryPrint.request(photo: name), at: socket, limit: GalleryPrint.messageLimit,
                        timeoutMilliseconds: timeout)
                    answer =
                        GalleryPrint.Answer(message: message)
                        ?? .refused("the booth gave no answer: ask the host to look at the booth")
                } catch {
                    log("a guest's print of \(name) did not reach the booth (\(socket)): \(error)")
                    answer = .refused(
                        error.errno == ETIMEDOUT
                            ? "the booth did not answer in time: the print may still come, ask the host"
                            : "the booth is not taking prints now: ask the host")
                }
                continuation.resume(returning: answer)
            }
        }
    }

    // MARK: Responses

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
            var info = stat()
            let path = "\(options.photos)/\(photo.name)"
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            let name = folders ? "\(photo.day ?? PhotoName.undated)/\(photo.name)" : photo.name
            // A ZIP's DOS time is wall-clock time: the local time zone's offset at the photo's time.
            // A photo saved undated but dated since by a phone: the time it was taken, not the file's wrong one.
            let seconds = photo.dated ?? Int64(info.st_mtim.tv_sec)
            // The index's checksum holds for the file of the size it recorded (the store never rewrites a photo).
            let entry = try ZipEntry(
                name: name, size: UInt64(info.st_size), modified: seconds,
                utcOffset: WallTime(seconds: seconds, local: true).utcOffset,
                checksum: Int64(info.st_size) == photo.size ? photo.checksum : nil)
            let span = FileSpan(
                path: path, device: UInt64(info.st_dev), inode: UInt64(info.st_ino), offset: 0,
                length: UInt64(info.st_size))
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
