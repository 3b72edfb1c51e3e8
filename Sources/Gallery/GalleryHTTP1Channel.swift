// GalleryHTTP1Channel: Hummingbird's HTTP/1 channel with the FileSpanSender placed under its HTTP types codec.
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1 channel, with `FileSpanSender` added between NIO's HTTP/1 encoder and the HTTP types codec
/// (Hummingbird's own extra handlers go above the codec, where a body part can only be bytes, not a file region).
struct GalleryHTTP1Channel: ServerChildChannel {
    let http1: HTTP1Channel
    let secret: [UInt8]

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1Channel.Value> {
        let secret = self.secret
        return http1.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let operations = channel.pipeline.syncOperations
            let codec = try operations.handler(type: HTTP1ToHTTPServerCodec.self)
            try operations.addHandler(FileSpanSender(secret: secret), position: .before(codec))
            return value
        }
    }

    func handle(value: HTTP1Channel.Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}
