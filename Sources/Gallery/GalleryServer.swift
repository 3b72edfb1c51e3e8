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
        public var printTimeout: Duration = .seconds(20)
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
        let source = DispatchSource.makeReadSource(
            fileDescriptor: watch.descriptor.rawValue, queue: .global(qos: .utility))
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
}
