// FileSpanSender: turns a response body's FileSpan markers into file regions the kernel sends (sendfile).
import BoothSystem
import GalleryCore
import NIOCore
import NIOHTTP1

/// Sits under the HTTP types codec, where a response's body parts are NIO's `IOData`: a body part that is a
/// `FileSpan` marker made with this gallery's secret becomes a `FileRegion` of that file, which the channel sends
/// with sendfile, and the file is closed once it is sent (or the connection is gone). Every other part passes as it
/// is. A file that is no longer the one planned (replaced, shortened, a link) cannot be sent: the write fails and
/// the connection closes, so the client sees a download short of its Content-Length rather than wrong bytes.
///
/// A region holds its file open until it is sent, and a body's writer may run ahead of the socket (NIO's
/// backpressure stops it only once the channel says it is full, a turn of the loop later), so a writer of many spans
/// asks for `room` first: a connection holds at most `openAtOnce` files open.
final class FileSpanSender: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// The files a connection holds open at most, unless told otherwise.
    static let filesOpenAtOnce = 16

    private let secret: [UInt8]
    private let openAtOnce: Int
    /// Regions written and not yet sent: the files this connection holds open.
    private(set) var open = 0
    /// Writers waiting for room, with the files each will open.
    private var waiting: [(files: Int, promise: EventLoopPromise<Void>)] = []

    init(secret: [UInt8], openAtOnce: Int = FileSpanSender.filesOpenAtOnce) {
        self.secret = secret
        self.openAtOnce = max(1, openAtOnce)
    }

    /// Succeeds once `files` more files fit beside those open (at once when none is open), in the order asked. For the
    /// connection's one response writer at a time: room given is not held for it.
    func room(for files: Int, on loop: any EventLoop) -> EventLoopFuture<Void> {
        if waiting.isEmpty && fits(files) { return loop.makeSucceededVoidFuture() }
        let promise = loop.makePromise(of: Void.self)
        waiting.append((files, promise))
        return promise.futureResult
    }

    /// The room a writer of `files` spans on `channel` waits for (on the channel's loop): fails when the channel has
    /// no sender.
    static func room(for files: Int, on channel: any Channel) async throws {
        guard files > 0 else { return }
        try await channel.eventLoop.flatSubmit {
            do {
                return try channel.pipeline.syncOperations.handler(type: FileSpanSender.self)
                    .room(for: files, on: channel.eventLoop)
            } catch {
                return channel.eventLoop.makeFailedFuture(error)
            }
        }.get()
    }

    /// The connection is gone: writers still waiting for room fail.
    func handlerRemoved(context: ChannelHandlerContext) {
        let gone = waiting
        waiting = []
        for writer in gone { writer.promise.fail(ChannelError.ioOnClosedChannel) }
    }

    private func fits(_ files: Int) -> Bool { open == 0 || open + files <= openAtOnce }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .body(.byteBuffer(let buffer)) = unwrapOutboundIn(data),
            let span = buffer.withUnsafeReadableBytes({ FileSpan(marker: $0, secret: secret) })
        else {
            context.write(data, promise: promise)
            return
        }
        let fd: BoothSystem.FileDescriptor
        do {
            fd = try FileToSend.open(
                span.path, identity: FileIdentity(device: span.device, inode: span.inode),
                end: span.offset + span.length)
        } catch {
            promise?.fail(error)
            context.close(promise: nil)
            return
        }
        let handle = NIOFileHandle(_deprecatedTakingOwnershipOfDescriptor: fd.rawValue)
        let region = FileRegion(
            fileHandle: handle, readerIndex: Int(span.offset), endIndex: Int(span.offset + span.length))
        let loop = context.eventLoop
        let sent = loop.makePromise(of: Void.self)
        open += 1
        // Closed on the loop's next turn: the channel completes the write while it still holds the descriptor (a
        // close then fails, and the handle would be dropped open).
        let sender = NIOLoopBound(self, eventLoop: loop)
        sent.futureResult.whenComplete { _ in
            loop.execute {
                try? handle.close()
                sender.value.sent()
            }
        }
        if let promise { sent.futureResult.cascade(to: promise) }
        context.write(wrapOutboundOut(.body(.fileRegion(region))), promise: sent)
    }

    /// A region was sent (or failed) and its file closed: writers waiting for room go, in order.
    private func sent() {
        open -= 1
        while let first = waiting.first, fits(first.files) {
            waiting.removeFirst()
            first.promise.succeed()
        }
    }
}
