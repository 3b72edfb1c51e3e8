// GalleryContext: a gallery request's context: Hummingbird's, plus the connection's two addresses.
import GalleryCore
import Hummingbird
import NIOCore

/// A gallery request's context: Hummingbird's core context plus the client's address, which the per-client request
/// budget keys on, and the booth's own address the request came in on, where the captive portal sends a phone.
struct GalleryContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The client's address (without its port; an IPv4 one as IPv4, not mapped into IPv6), or "" when the channel
    /// has none.
    let client: String
    /// The booth's address and port this connection came in on ("" and 0 when the channel has none).
    let localAddress: String
    let localPort: Int
    /// The connection's channel (a ZIP's body waits on it for room to open files: `FileSpanSender.room`).
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        client = CaptivePortal.unmapped(source.channel.remoteAddress?.ipAddress ?? "")
        localAddress = CaptivePortal.unmapped(source.channel.localAddress?.ipAddress ?? "")
        localPort = source.channel.localAddress?.port ?? 0
        channel = source.channel
    }
}
