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
final class FileSpanSender: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let secret: [UInt8]

    init(secret: [UInt8]) { self.secret = secret }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .body(.byteBuffer(let buffer)) = unwrapOutboundIn(data),
            let span = buffer.withUnsafeReadableBytes({ FileSpan(marker: $0, secret: secret) })
        else {
            context.write(data, promise: promise)
            return
        }
        let fd: Int32
        do {
            fd = try FileToSend.open(
                span.path, identity: FileIdentity(device: span.device, inode: span.inode),
                end: span.offset + span.length)
        } catch {
            promise?.fail(error)
            context.close(promise: nil)
            return
        }
        let handle = NIOFileHandle(_deprecatedTakingOwnershipOfDescriptor: fd)
        let region = FileRegion(
            fileHandle: handle, readerIndex: Int(span.offset), endIndex: Int(span.offset + span.length))
        let loop = context.eventLoop
        let sent = loop.makePromise(of: Void.self)
        // Closed on the loop's next turn: the channel completes the write while it still holds the descriptor (a
        // close then fails, and the handle would be dropped open).
        sent.futureResult.whenComplete { _ in loop.execute { try? handle.close() } }
        if let promise { sent.futureResult.cascade(to: promise) }
        context.write(wrapOutboundOut(.body(.fileRegion(region))), promise: sent)
    }
}
