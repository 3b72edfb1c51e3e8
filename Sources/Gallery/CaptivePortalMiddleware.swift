// CaptivePortalMiddleware: sends a request meant for another site to the gallery (the booth's Wi-Fi's sign-in page).
import GalleryCore
import Hummingbird

/// Answers a request whose `Host` is not the booth's (a phone's connectivity check, any site typed on the booth's own
/// Wi-Fi) with "302 Found" to the gallery at the address the request came in on; `CaptivePortal` decides.
struct CaptivePortalMiddleware: RouterMiddleware {
    typealias Context = GalleryContext
    let portal: CaptivePortal

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    )
        async throws -> Response
    {
        let host = request.head.authority  // The Host header (HTTP/1.1).
        guard let target = portal.redirect(host: host, localAddress: context.localAddress, localPort: context.localPort)
        else { return try await next(request, context) }
        // Never cached: the same phone on another network must reach the real site.
        return Response(status: .found, headers: [.location: target, .cacheControl: "no-store"])
    }
}
