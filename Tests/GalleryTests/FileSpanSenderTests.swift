// FileSpanSenderTests: a span marker becomes a file region of the file planned; other bytes pass; a changed file stops.
import BoothSystem
import BoothTestSupport
import GalleryCore
import Glibc
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing

@testable import Gallery

/// Faults planted and the tests that failed: every body part passed on unchanged (no region), the region's indexes
/// off by the offset, the file not closed after the write, the connection left open after a failed open.
@Suite struct FileSpanSenderTests {
    /// Reads what a file region holds as it passes to the socket (the sender closes the file once it is written).
    final class RegionReader: ChannelOutboundHandler {
        typealias OutboundIn = HTTPServerResponsePart
        var bytes: [UInt8]?

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            if case .body(.fileRegion(let region)) = unwrapOutboundIn(data) {
                var read = [UInt8](repeating: 0, count: region.readableBytes)
                let count = try? region.fileHandle.withUnsafeFileDescriptor { fd in
                    read.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(region.readerIndex)) }
                }
                bytes = count == read.count ? read : nil
            }
            context.write(data, promise: promise)
        }
    }

    /// A channel with the sender (and a reader of its regions), and a file of 1000 bytes to send from.
    static func setUp() throws -> (EmbeddedChannel, [UInt8], String, FileIdentity) {
        let secret = FileSpan.randomSecret()
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandlers([RegionReader(), FileSpanSender(secret: secret)])
        let path = "\(temporaryDirectory())/a.jpg"
        try DurableFile().write((0..<1000).map { UInt8($0 % 251) }, path: path)
        var info = stat()
        try #require(lstat(path, &info) == 0)
        return (channel, secret, path, FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)))
    }

    @Test func aMarkerBecomesARegionOfTheFileAndTheFileIsClosedOnceSent() throws {
        let (channel, secret, path, identity) = try Self.setUp()
        let span = FileSpan(
            path: path, device: identity.device, inode: identity.inode, offset: 100, length: 900)
        let marker = ByteBuffer(bytes: span.marker(secret: secret))
        let written = channel.write(HTTPServerResponsePart.body(.byteBuffer(marker)))
        channel.flush()
        let part = try #require(try channel.readOutbound(as: HTTPServerResponsePart.self))
        guard case .body(.fileRegion(let region)) = part else {
            Issue.record("a file region was expected, not \(part)")
            return
        }
        #expect(region.readerIndex == 100 && region.endIndex == 1000)
        let reader = try channel.pipeline.syncOperations.handler(type: RegionReader.self)
        #expect(reader.bytes == (100..<1000).map { UInt8($0 % 251) }, "the bytes of the file planned, from its offset")
        try written.wait()
        channel.embeddedEventLoop.run()
        #expect(!region.fileHandle.isOpen, "the file is closed once the region is written")

        // Ordinary bytes, and a marker of another secret, pass unchanged.
        let other = span.marker(secret: FileSpan.randomSecret())
        for bytes in [Array("<html>".utf8), other] {
            channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: bytes))), promise: nil)
            let passed = try #require(try channel.readOutbound(as: HTTPServerResponsePart.self))
            #expect(passed == .body(.byteBuffer(ByteBuffer(bytes: bytes))))
        }
        #expect(try channel.finish().isClean)
    }

    /// Holds every write's promise until the test lets it complete (a socket that takes its time).
    final class SlowSocket: ChannelOutboundHandler {
        typealias OutboundIn = HTTPServerResponsePart
        var held: [EventLoopPromise<Void>] = []

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            held.append(promise ?? context.eventLoop.makePromise())
        }

        func flush(context: ChannelHandlerContext) {}
    }

    /// What a future came to, seen from the test (an embedded loop runs on the test's own thread).
    final class Outcome: @unchecked Sendable {
        var succeeded = false
        var error: (any Error)?

        init(_ future: EventLoopFuture<Void>) {
            future.whenComplete { result in
                switch result {
                case .success: self.succeeded = true
                case .failure(let error): self.error = error
                }
            }
        }
    }

    @Test func aWriterWaitsForRoomUntilTheFilesBeforeAreSent() throws {
        let (_, secret, path, identity) = try Self.setUp()
        let channel = EmbeddedChannel()
        let socket = SlowSocket()
        let sender = FileSpanSender(secret: secret, openAtOnce: 2)
        try channel.pipeline.syncOperations.addHandlers([socket, sender])
        let span = FileSpan(path: path, device: identity.device, inode: identity.inode, offset: 0, length: 1000)
        let marker = HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: span.marker(secret: secret))))
        let loop = channel.embeddedEventLoop

        #expect(Outcome(sender.room(for: 2, on: loop)).succeeded, "nothing open: room at once")
        channel.write(marker, promise: nil)
        channel.write(marker, promise: nil)
        channel.flush()
        #expect(sender.open == 2)
        let first = Outcome(sender.room(for: 1, on: loop))
        #expect(!first.succeeded, "two files open of two: the writer waits")
        socket.held[0].succeed()
        loop.run()
        #expect(sender.open == 1 && first.succeeded, "one sent and closed: the writer goes")
        channel.write(marker, promise: nil)
        channel.flush()
        let second = Outcome(sender.room(for: 2, on: loop))
        socket.held[1].succeed()
        loop.run()
        #expect(sender.open == 1 && !second.succeeded, "two more do not fit beside one")
        socket.held[2].succeed()
        loop.run()
        #expect(sender.open == 0 && second.succeeded)

        channel.write(marker, promise: nil)
        channel.flush()
        let gone = Outcome(sender.room(for: 2, on: loop))
        #expect(!gone.succeeded && gone.error == nil)
        _ = try? channel.finish()
        #expect(gone.error as? ChannelError == .ioOnClosedChannel, "a closed connection fails the writers waiting")
    }

    @Test func aFileReplacedSinceItWasPlannedClosesTheConnection() throws {
        let (channel, secret, path, identity) = try Self.setUp()
        try DurableFile().write([1, 2, 3], path: path, replacing: true)
        let span = FileSpan(path: path, device: identity.device, inode: identity.inode, offset: 0, length: 3)
        let written = channel.writeAndFlush(
            HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: span.marker(secret: secret)))))
        let error = #expect(throws: SystemError.self) { try written.wait() }
        #expect(error?.errno == ESTALE)
        #expect(try channel.readOutbound(as: HTTPServerResponsePart.self) == nil, "nothing of it is sent")
        #expect(!channel.isActive, "the connection is closed: the client sees a short download")
    }
}
