// RequestBudgetMiddleware: answers 429 to a client that asks faster than its budget allows.
import BoothCore
import GalleryCore
import Glibc
import Hummingbird
import Synchronization

/// Answers "429 Too Many Requests" (with Retry-After) to a client that asks faster than `RequestBudget` allows, so
/// one phone reloading in a loop cannot crowd the others out; everything else passes on.
final class RequestBudgetMiddleware: RouterMiddleware, Sendable {
    typealias Context = GalleryContext
    private let budget: Mutex<RequestBudget>

    init(_ budget: RequestBudget) { self.budget = Mutex(budget) }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    )
        async throws -> Response
    {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let instant = Instant(nanoseconds: Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec))
        let (admitted, wait) = budget.withLock { ($0.admit(context.client, at: instant), $0.wait(context.client)) }
        guard admitted else {
            return Response(
                status: .tooManyRequests,
                headers: [.retryAfter: String(wait), .contentType: "text/plain; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: "Too many requests: wait a second and try again.\n")))
        }
        return try await next(request, context)
    }
}
