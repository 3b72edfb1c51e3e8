// GalleryServer+Access: who gets in (the code, the cookie), the phone's time, the photo or layout a URL names, prints.
import BoothSystem
import Dispatch
import GalleryCore
import Glibc
import Hummingbird
import PhotoModel
import PhotoStore

extension GalleryServer {
    func admitted(_ request: Request) -> Bool { gate.admits(cookie: request.cookies[AccessGate.cookieName]?.value) }

    /// The code form: the right code sets the cookie and goes to the gallery; a wrong one asks again.
    func enter(_ request: Request) async throws -> Response {
        var request = request
        let body = try await request.collectBody(upTo: 1024)
        return signIn(typed: AccessGate.formValue("code", in: Array(buffer: body)) ?? "")
    }

    /// The code `typed` (on the form or in the card's link): the right one sets the cookie and goes to the gallery; a
    /// wrong one asks again.
    func signIn(typed: String) -> Response {
        guard gate.accepts(typed) else {
            var response = Self.html(GalleryPage.code(wrong: true))
            response.status = .forbidden
            return response
        }
        var response = Response(status: .seeOther, headers: [.location: "/"])
        response.setCookie(
            Cookie(name: AccessGate.cookieName, value: gate.token, path: "/", httpOnly: true, sameSite: .strict))
        return response
    }

    /// A signed-in phone's time (`t=MILLISECONDS`): the answer is `PhoneClock`'s word for what was done. 401 without
    /// the cookie, 404 when this gallery does not set the clock, 400 for a body that is not a time, 503 when timedated
    /// or polkit refused (the reason in the body and the journal).
    func phoneTime(_ request: Request, _ context: GalleryContext) async throws -> Response {
        guard admitted(request) else { throw HTTPError(.unauthorized) }
        guard let clock else { throw HTTPError(.notFound, message: "this gallery does not set the clock") }
        var request = request
        let body = try await request.collectBody(upTo: 64)
        guard let phone = PhoneClock.phoneTime(body: String(buffer: body)) else {
            throw HTTPError(.badRequest, message: "send the phone's time as t=MILLISECONDS since 1970")
        }
        do {
            let decision = try await clock.offer(phone: phone, from: context.client)
            // The photos saved undated earlier in this boot have their dates from now on.
            if case .set = decision { _ = try? await catalog.refresh() }
            return Self.text(PhoneClock.word(decision) + "\n", type: "text/plain; charset=utf-8", cache: "no-store")
        } catch {
            options.log("the clock could not be set from a phone (\(context.client)): \(error)")
            throw HTTPError(.serviceUnavailable, message: "the clock could not be set: \(error)")
        }
    }

    /// The photo the URL's name parameter names, for an admitted request; 401 without the cookie, 404 for a name the
    /// catalog does not have (a traversal, a retake, anything else).
    func photo(_ request: Request, _ context: GalleryContext) async throws -> (String, GalleryPhoto) {
        guard admitted(request) else { throw HTTPError(.unauthorized) }
        let name = try context.parameters.require("name")
        guard let photo = await catalog.listing.photo(named: name) else {
            throw HTTPError(.notFound, message: "no photo of that name")
        }
        return (name, photo)
    }

    /// The print layout the URL's name parameter names, for an admitted request: a layout's name (`LayoutName`) whose
    /// photo the catalog has; 401 without the cookie, 404 otherwise (a traversal, a retake's layout, anything else).
    func layout(_ request: Request, _ context: GalleryContext) async throws -> (String, LayoutName) {
        guard admitted(request) else { throw HTTPError(.unauthorized) }
        let name = try context.parameters.require("name")
        guard let layout = LayoutName(fileName: name), await catalog.listing.photo(named: layout.photo.fileName) != nil
        else { throw HTTPError(.notFound, message: "no layout of that name") }
        return (name, layout)
    }

    /// The print layouts named after `photo` kept in the store's `layouts/` folder (regular files; a link is not
    /// one), looked up when its page is asked for: the booth writes them after the photo, as it prints.
    func layouts(of photo: GalleryPhoto) -> [LayoutName] {
        guard let name = PhotoName(fileName: photo.name) else { return [] }
        let folder = PhotoStore.layoutsDirectory(of: options.photos)
        return LayoutName.kinds.map { LayoutName(photo: name, kind: $0) }.filter { layout in
            FileStatus(path: "\(folder)/\(layout.fileName)")?.isRegularFile == true
        }
    }

    /// Asks the booth at `socket` to print the kept photo `name` (on a thread of its own: the booth answers once the
    /// photo's pages were handed to CUPS); the answer, or a refusal saying the booth did not answer.
    func askToPrint(_ name: String, at socket: String) async -> GalleryPrint.Answer {
        let timeout = options.printTimeout
        let log = options.log
        return await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                let answer: GalleryPrint.Answer
                do throws(SystemError) {
                    let message = try PacketSocket.ask(
                        GalleryPrint.request(photo: name), at: socket, limit: GalleryPrint.messageLimit,
                        timeout: timeout)
                    answer =
                        GalleryPrint.Answer(message: message)
                        ?? .refused("the booth gave no answer: ask the host to look at the booth")
                } catch {
                    log("a guest's print of \(name) did not reach the booth (\(socket)): \(error)")
                    answer = .refused(
                        error.errno == ETIMEDOUT
                            ? "the booth did not answer in time: the print may still come, ask the host"
                            : "the booth is not taking prints now: ask the host")
                }
                continuation.resume(returning: answer)
            }
        }
    }
}
