// RequestBudgetMiddleware: answers 429 to a client that asks faster than its budget allows.
import BoothSystem
import BoothTime
import GalleryCore
import Hummingbird
import Synchronization

/// Answers "429 Too Many Requests" (with Retry-After) to a client that asks faster than `RequestBudget` allows, so
/// one phone reloading in a loop cannot crowd the others out; everything else passes on.
final class RequestBudgetMiddleware: RouterMiddleware, Sendable {
    typealias Context = GalleryContext
    private let budget: Mutex<RequestBudget>
    private let clock = KernelClock()

    init(_ budget: RequestBudget) { self.budget = Mutex(budget) }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    )
        async throws -> Response
    {
        let instant = clock.now()
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
