// GalleryPrintDesk: takes the gallery's print requests on the booth's print socket and answers each once handed over.
import BoothCore
import BoothSystem
import BoothTime
import PhotoModel
import PhotoStore

/// The booth's side of the gallery's Print button (`print.from_gallery`): a socket (`PacketSocket`, mode 0660, so the
/// gallery's user reaches it through the booth's group) watched by the loop. A request names a photo; a kept one is
/// printed by the booth's printer like the print button's photos (its layout, its copies, counted against the same
/// limits) and the answer (`GalleryPrint.Answer`) goes back once its pages were sent, refused or set to wait. Anything
/// else is refused at once, worded for the guest. Nothing here waits: at most `maximumConnections` are held, and one
/// that sends no request within `requestTimeout` is closed.
final class GalleryPrintDesk {
    /// The most connections held at once (a guest's request is answered within seconds).
    static let maximumConnections = 8
    /// How long a connection may take to send its request.
    static let requestTimeout: Duration = .seconds(5)

    private let listener: PacketSocket
    private let path: String
    private let loop: EventLoop
    private let printer: PhotoPrinter
    private let store: PhotoStore
    private let asked: (String) -> Void
    /// The connections not answered yet, by descriptor, with the timer that closes a silent one.
    private var connections: [FileDescriptor: (socket: PacketSocket, timeout: EventLoop.TimerToken?)] = [:]

    /// Listens at `path` for requests to print photos of `store` through `printer`; `asked` hears of each photo asked
    /// for, on the loop's thread.
    init(
        path: String, loop: EventLoop, printer: PhotoPrinter, store: PhotoStore, asked: @escaping (String) -> Void
    ) throws(SystemError) {
        listener = try PacketSocket.listen(at: path, mode: 0o660)
        self.path = path
        self.loop = loop
        self.printer = printer
        self.store = store
        self.asked = asked
        try loop.register(readable: listener.descriptor) { [unowned self] in self.acceptAll() }
    }

    /// Stops taking requests: the socket goes; the requests being printed are answered as their pages are handed over.
    func close() {
        loop.unregister(listener.descriptor)
        for (fd, connection) in connections where connection.timeout != nil { drop(fd) }
        _ = SystemFileOperations().unlink(path)
    }

    private func acceptAll() {
        while true {
            let accepted: PacketSocket?
            do {
                accepted = try listener.accept()
            } catch {
                Log.error("print: the gallery's print socket \(path) failed: \(error)")
                return
            }
            guard let socket = accepted else { return }
            guard connections.count < Self.maximumConnections else {
                socket.send(GalleryPrint.Answer.refused("the booth is busy with other prints: try again").message)
                continue
            }
            let fd = socket.descriptor
            let timeout = loop.schedule(at: loop.now().advanced(by: Self.requestTimeout)) { [unowned self] in
                self.drop(fd)
            }
            connections[fd] = (socket, timeout)
            do {
                try loop.register(readable: fd) { [unowned self] in self.read(fd) }
            } catch {
                drop(fd)
            }
        }
    }

    private func read(_ fd: FileDescriptor) {
        guard let connection = connections[fd] else { return }
        let message: (bytes: [UInt8], truncated: Bool)?
        do {
            message = try connection.socket.receive(limit: GalleryPrint.messageLimit)
        } catch {
            drop(fd)
            return
        }
        guard let message else { return }
        guard !message.bytes.isEmpty else {
            drop(fd)
            return
        }
        loop.unregister(fd)
        if let timeout = connection.timeout { loop.cancel(timeout) }
        connections[fd]?.timeout = nil
        guard !message.truncated, let name = GalleryPrint.photo(inRequest: message.bytes) else {
            answer(fd, .refused("the gallery asked for something the booth does not print"))
            return
        }
        guard store.records().contains(where: { $0.name == name && $0.state == .kept }) else {
            answer(fd, .refused("\(name) is not a photo the booth keeps (a retake, or deleted)"))
            return
        }
        asked(name)
        printer.print(["\(store.directory)/\(name)"]) { [weak self] outcome in
            self?.answer(fd, Self.answer(for: outcome))
        }
    }

    /// The guest's answer for what became of a photo's pages.
    static func answer(for outcome: PhotoPrinter.Outcome) -> GalleryPrint.Answer {
        if outcome.sent > 0 { return .sent(pages: outcome.sent) }
        if outcome.waiting > 0 { return .waiting }
        return .refused(outcome.refusals.first ?? "nothing was printed")
    }

    private func answer(_ fd: FileDescriptor, _ answer: GalleryPrint.Answer) {
        connections[fd]?.socket.send(answer.message)
        drop(fd)
    }

    private func drop(_ fd: FileDescriptor) {
        guard let connection = connections.removeValue(forKey: fd) else { return }
        if let timeout = connection.timeout {
            loop.cancel(timeout)
            loop.unregister(fd)
        }
    }
}
