// InheritedSocketServer: serves HTTP on a listening socket systemd opened (socket activation), e.g. port 80.
import Glibc
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOExtras
import NIOPosix
import ServiceLifecycle

/// Serves a router on a listening socket that systemd opened and passed down (socket activation: descriptor 3,
/// `LISTEN_FDS=1`), so the gallery answers on port 80 with no capability of its own. Hummingbird binds only
/// addresses it opens itself; this runs its HTTP/1 channel on the inherited socket instead, with the same limits
/// and a graceful stop (the socket stops accepting, open requests finish).
struct InheritedSocketServer<Responder: HTTPResponder>: Service where Responder.Context == GalleryContext {
    let descriptor: Int32
    let responder: Responder
    let configuration: HTTP1Channel.Configuration
    /// What begins a `FileSpan` marker in a response body.
    let spanSecret: [UInt8]
    let maximumConnections: Int
    let logger: Logger

    /// The descriptor systemd passed this process (`sd_listen_fds`), or nil when it passed none; the variables are
    /// removed so a child process does not take them for its own.
    static func systemdDescriptor() -> Int32? {
        guard let pid = getenv("LISTEN_PID").flatMap({ pid_t(String(cString: $0)) }), pid == getpid(),
            let count = getenv("LISTEN_FDS").flatMap({ Int(String(cString: $0)) }), count >= 1
        else { return nil }
        unsetenv("LISTEN_PID")
        unsetenv("LISTEN_FDS")
        unsetenv("LISTEN_FDNAMES")
        return 3
    }

    func run() async throws {
        let responder = self.responder
        let logger = self.logger
        let http1 = HTTP1Channel(
            responder: { (request, writer: consuming ResponseWriter, channel) in
                let context = GalleryContext(source: .init(channel: channel, logger: logger))
                var response: Response
                do {
                    response = try await responder.respond(to: request, context: context)
                } catch {
                    response = Response(status: .internalServerError)
                }
                response.headers[.date] = GalleryServer.httpDate(Int(time(nil)))
                response.headers[.server] = "HeyLook gallery"
                try await writer.write(response: response.head, body: response.body)
            },
            configuration: configuration)
        let channel = GalleryHTTP1Channel(http1: http1, secret: spanSecret)
        let group = MultiThreadedEventLoopGroup.singleton
        let quiescing = ServerQuiescingHelper(group: group)
        let limit = maximumConnections
        let server = try await ServerBootstrap(group: group)
            .serverChannelInitializer { server in
                server.eventLoop.makeCompletedFuture {
                    try server.pipeline.syncOperations.addHandler(
                        AvailableConnectionsChannelHandler(maxConnections: limit))
                    try server.pipeline.syncOperations.addHandler(quiescing.makeServerChannelHandler(channel: server))
                }
            }
            .childChannelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
            .bind(NIOBSDSocket.Handle(descriptor), serverBackPressureStrategy: nil) { connection in
                channel.setup(channel: connection, logger: logger)
            }
        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { connections in
                do {
                    try await server.executeThenClose { inbound in
                        for try await connection in inbound {
                            connections.addTask { await channel.handle(value: connection, logger: logger) }
                        }
                    }
                } catch {
                    logger.error("gallery: accepting connections failed: \(error)")
                }
            }
        } onGracefulShutdown: {
            quiescing.initiateShutdown(promise: nil)
        }
    }
}
