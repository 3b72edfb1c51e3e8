// GalleryPage: the gallery's HTML pages, rendered on the server: the code page, the gallery, a photo, the slideshow.
import PhotoModel

/// The gallery's pages as HTML. Every page is complete without the network beyond the booth: one small CSS file
/// and one small script from the gallery itself, no font or framework. Every name is escaped.
public enum GalleryPage {
    /// The page asking for the event's code; `wrong` after a code that was not right.
    public static func code(wrong: Bool) -> String {
        document(
            title: "HeyLook photos", bodyClass: "code",
            """
            <main class="ask">
            <h1>HeyLook photos</h1>
            <p>Type the code the host gave you to see the photos.</p>
            <form method="post" action="/code">
            <input id="code" name="code" type="text" inputmode="text" autocomplete="off" autocapitalize="characters" \
            spellcheck="false" maxlength="32" required aria-label="Code" placeholder="CODE">
            <button id="enter" type="submit">See the photos</button>
            </form>
            \(wrong ? "<p id=\"wrong\" class=\"wrong\">That code is not right. Look again at the card.</p>" : "")
            </main>
            """)
    }

    /// Page `page` of the gallery: the day groups with their thumbnails (loaded lazily), a ZIP per day and for all.
    /// `askClock`: the page's script sends the phone's time (`PhoneClock`).
    public static func gallery(_ listing: GalleryListing, page: Int, pageSize: Int, askClock: Bool = false) -> String {
        let groups = listing.page(page, pageSize: pageSize)
        let pages = listing.pageCount(pageSize: pageSize)
        let total = listing.photos.reduce(Int64(0)) { $0 + $1.size }
        var html = """
            <header>
            <h1>HeyLook photos</h1>
            <p class="summary">\(count(listing.photos.count)) · \(megabytes(total))</p>
            <nav><a id="download-all" href="/zip/all" download>Download all (ZIP)</a> \
            <a id="slideshow" href="/slideshow">Slideshow</a></nav>
            </header>
            <main>

            """
        if listing.photos.isEmpty {
            html += "<p class=\"empty\">No photos yet. Press the big button!</p>\n"
        }
        for group in groups {
            let id = group.day ?? "undated"
            html += """
                <section class="day" id="day-\(id)">
                <h2>\(group.day.map(dayTitle) ?? "Without a date")</h2>
                <a class="zip" href="/zip/day/\(id)" download>Download this day (ZIP)</a>
                <div class="grid">

                """
            for photo in group.photos {
                let name = escape(photo.name)
                html += """
                    <a class="thumb" href="/photo/\(name)"><img src="/thumb/\(name)" loading="lazy" decoding="async" \
                    alt="\(escape(caption(photo)))"></a>

                    """
            }
            html += "</div>\n</section>\n"
        }
        html += "</main>\n<nav class=\"pages\">"
        if page > 1 { html += "<a id=\"newer\" href=\"/?page=\(page - 1)\">← Newer</a>" }
        if pages > 1 { html += " <span>Page \(page) of \(pages)</span> " }
        if page < pages { html += "<a id=\"older\" href=\"/?page=\(page + 1)\">Older →</a>" }
        html += "</nav>\n"
        return document(title: "HeyLook photos", bodyClass: "gallery", askClock: askClock, html)
    }

    /// One photo, sized for the screen, with its neighbours (swipe or arrow keys), a download of the original, and
    /// the print layouts named after it (the strip or grid of the burst it began, its captioned page), each opened as
    /// the printed page.
    public static func photo(
        _ photo: GalleryPhoto, newer: GalleryPhoto?, older: GalleryPhoto?, layouts: [LayoutName] = [],
        printable: Bool = false
    ) -> String {
        let name = escape(photo.name)
        // The printed pages and the Print button get a bar of their own above the photo's: the photo's bar is full
        // on a small phone.
        var layoutLinks = layouts.map { layout in
            let label = "Printed " + (["strip": "strip", "grid": "grid"][layout.kind] ?? "page")
            return
                "<a class=\"layout\" id=\"layout-\(escape(layout.kind))\" href=\"/layout/\(escape(layout.fileName))\">"
                + "\(label)</a>"
        }
        if printable {
            layoutLinks.insert(
                "<form method=\"post\" action=\"/print/\(name)\"><button id=\"print\" type=\"submit\">Print</button></form>",
                at: 0)
        }
        let newerLink = newer.map { "/photo/\(escape($0.name))" }
        let olderLink = older.map { "/photo/\(escape($0.name))" }
        let printed =
            layoutLinks.isEmpty ? "" : "<nav class=\"bar printed\">\n\(layoutLinks.joined(separator: "\n"))\n</nav>\n"
        return document(
            title: caption(photo), bodyClass: "photo",
            """
            <main class="viewer\(layoutLinks.isEmpty ? "" : " printed")" data-newer="\(newerLink ?? "")" \
            data-older="\(olderLink ?? "")">
            <img id="photo" src="/original/\(name)" alt="\(escape(caption(photo)))">
            </main>
            \(printed)<nav class="bar">
            <a id="back" href="/">All photos</a>
            \(newerLink.map { "<a id=\"newer\" href=\"\($0)\">← Newer</a>" } ?? "")
            \(olderLink.map { "<a id=\"older\" href=\"\($0)\">Older →</a>" } ?? "")
            <a id="download" href="/original/\(name)?download=1" download="\(name)">Download</a>
            </nav>
            """)
    }

    /// What became of a guest's print of `photo` (`answer`, the booth's), with the way back to the photo.
    public static func printed(_ photo: GalleryPhoto, answer: GalleryPrint.Answer) -> String {
        let (heading, text): (String, String) =
            switch answer {
            case .sent: ("Printing", "The booth sent \(caption(photo)) to the printer. Pick it up at the booth.")
            case .waiting:
                ("Waiting for the printer", "The printer is not ready yet: \(caption(photo)) prints as soon as it is.")
            case .refused(let reason):
                (
                    "Not printed",
                    "The booth did not print \(caption(photo)): \(reason)" + (reason.hasSuffix(".") ? "" : ".")
                )
            }
        let name = escape(photo.name)
        return document(
            title: heading, bodyClass: "code",
            """
            <main class="ask">
            <h1 id="answer">\(escape(heading))</h1>
            <p id="reason">\(escape(text))</p>
            <p><a id="back" href="/photo/\(name)">Back to the photo</a></p>
            </main>
            """)
    }

    /// The slideshow: full screen, one photo after another; a photo the booth saves is shown at once.
    public static func slideshow(_ listing: GalleryListing, recent: Int = 50) -> String {
        let names = listing.photos.prefix(recent).map { escape($0.name) }.joined(separator: " ")
        return document(
            title: "HeyLook slideshow", bodyClass: "slideshow",
            """
            <main class="show" data-photos="\(names)">
            <img id="slide" alt="">
            <p id="waiting" class="waiting">Photos appear here as they are taken.</p>
            </main>
            """)
    }

    /// `text` safe in HTML text and attribute values.
    public static func escape(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(c)
            }
        }
        return out
    }

    /// "Photo 42, 14:03:07" (or "Photo 42" undated).
    static func caption(_ photo: GalleryPhoto) -> String {
        "Photo \(photo.sequence)" + (photo.time.map { ", \($0)" } ?? "")
    }

    /// "22 November 2026" for "2026-11-22".
    static func dayTitle(_ day: String) -> String {
        let parts = day.split(separator: "-").compactMap { Int($0) }
        let months = [
            "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
            "November", "December",
        ]
        guard parts.count == 3, (1...12).contains(parts[1]) else { return day }
        return "\(parts[2]) \(months[parts[1] - 1]) \(parts[0])"
    }

    static func count(_ n: Int) -> String { n == 1 ? "1 photo" : "\(n) photos" }

    static func megabytes(_ bytes: Int64) -> String {
        let tenths = (bytes * 10 + 524_288) / 1_048_576
        return "\(tenths / 10).\(tenths % 10) MB"
    }

    private static func document(title: String, bodyClass: String, askClock: Bool = false, _ body: String) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escape(title))</title>
        <link rel="stylesheet" href="/static/gallery.css">
        <script src="/static/gallery.js" defer></script>
        </head>
        <body class="\(bodyClass)"\(askClock ? " data-clock=\"ask\"" : "")>
        \(body)
        </body>
        </html>

        """
    }
}
