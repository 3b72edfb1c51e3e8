// HeaderOverflowAnswer: answers a request whose headers are over the decoder's limits with 431, then closes.
import Hummingbird
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Answers a request whose headers are over the HTTP decoder's limits (a field over 8 KiB, all of them over
/// 16 KiB, more than 64) with `431 Request Header Fields Too Large` and closes the connection. Without it the
/// decoder's error reaches Hummingbird, which answers every parse error alike with 400. Other errors pass on.
final class HeaderOverflowAnswer: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parse = error as? HTTPParserError, parse == .headerOverflow else {
            context.fireErrorCaught(error)
            return
        }
        let head = HTTPResponse(
            status: .requestHeaderFieldsTooLarge, headerFields: [.connection: "close", .contentLength: "0"])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }
}
