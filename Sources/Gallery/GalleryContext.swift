// GalleryContext: a gallery request's context: Hummingbird's, plus the client's address the request budget keys on.
import Hummingbird
import NIOCore

/// A gallery request's context: Hummingbird's core context plus the client's address, which the per-client request
/// budget keys on.
struct GalleryContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The client's address (without its port), or "" when the channel has none.
    let client: String

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        client = source.channel.remoteAddress?.ipAddress ?? ""
    }
}
