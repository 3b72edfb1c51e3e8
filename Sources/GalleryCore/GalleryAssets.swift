// GalleryAssets: the gallery's one stylesheet and one script, served from the booth itself.
/// The gallery's one stylesheet and one script: phone first, no framework, nothing from outside the booth (a party
/// venue may have no internet).
public enum GalleryAssets {
    /// `/static/gallery.css`.
    public static let css = """
        *{box-sizing:border-box}
        html,body{margin:0;background:#fffaf0;color:#1d2a33;font:16px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif}
        a{color:#0b63b6}
        header{padding:16px 16px 8px;background:#29b6f6;color:#fff}
        header h1{margin:0;font-size:1.5rem}
        header a{color:#fff;font-weight:600;margin-right:16px}
        .summary{margin:4px 0 8px;opacity:.9}
        main{padding:8px}
        h2{font-size:1.1rem;margin:16px 8px 4px;display:inline-block}
        .zip{font-size:.9rem;display:inline-block;white-space:nowrap;margin:0 8px}
        .grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(110px,1fr));gap:4px}
        .thumb{display:block;aspect-ratio:4/3;background:#e3eef5;border-radius:6px;overflow:hidden}
        .thumb img{width:100%;height:100%;object-fit:cover;display:block}
        .pages{display:flex;gap:16px;justify-content:center;padding:16px}
        .empty,.waiting{padding:32px 16px;text-align:center;font-size:1.2rem}
        .ask{max-width:420px;margin:10vh auto;padding:24px;text-align:center}
        .ask input{font-size:1.6rem;width:100%;padding:12px;text-align:center;letter-spacing:.2em;text-transform:uppercase;
        border:2px solid #29b6f6;border-radius:10px}
        .ask button{margin-top:16px;width:100%;font-size:1.2rem;padding:12px;border:0;border-radius:10px;background:#e53935;
        color:#fff;font-weight:700}
        .wrong{color:#c62828;font-weight:600}
        body.photo{background:#111;color:#eee}
        .viewer{height:calc(100vh - 56px);height:calc(100dvh - 56px);display:flex;align-items:center;justify-content:center;padding:0;touch-action:pan-y}
        .viewer img{max-width:100%;max-height:100%;object-fit:contain}
        .viewer.printed{height:calc(100vh - 104px);height:calc(100dvh - 104px)}
        .bar.printed{height:48px;background:#2e2e2e;border-bottom:1px solid #111}
        .bar form{flex:1 1 auto;display:flex;margin:0}
        .bar button{flex:1 1 auto;border:0;background:none;color:#fff;font:inherit;font-weight:600;
        text-decoration:underline;padding:0 6px;cursor:pointer}
        .bar{height:56px;display:flex;gap:0;align-items:stretch;justify-content:stretch;padding:0 4px;background:#222}
        .bar a{color:#fff;font-weight:600;flex:1 1 auto;display:flex;align-items:center;justify-content:center;
        white-space:nowrap;padding:0 6px}
        @media (max-width:360px){.bar a{font-size:.875rem;padding:0 4px}}
        body.slideshow{background:#000;color:#ccc}
        .show{height:100vh;height:100dvh;display:flex;align-items:center;justify-content:center;padding:0}
        .show img{max-width:100vw;max-height:100vh;object-fit:contain}
        .show img:not([src]){display:none}
        @media (min-width:700px){.grid{grid-template-columns:repeat(auto-fill,minmax(180px,1fr))}}

        """

    /// `/static/gallery.js`: swipe and arrow keys on a photo, the slideshow's timer and its live events, and the
    /// phone's time sent when the gallery asks for it (`data-clock="ask"`: the booth's clock is unset).
    public static let javascript = """
        "use strict";
        (function () {
          var viewer = document.querySelector(".viewer");
          if (viewer) {
            var go = function (where) { var url = viewer.dataset[where]; if (url) { location.href = url; } };
            document.addEventListener("keydown", function (e) {
              if (e.key === "ArrowLeft") { go("newer"); } else if (e.key === "ArrowRight") { go("older"); }
            });
            var startX = null;
            viewer.addEventListener("touchstart", function (e) { startX = e.changedTouches[0].clientX; });
            viewer.addEventListener("touchend", function (e) {
              if (startX === null) { return; }
              var dx = e.changedTouches[0].clientX - startX;
              startX = null;
              if (Math.abs(dx) > 50) { go(dx > 0 ? "newer" : "older"); }
            });
          }
          var show = document.querySelector(".show");
          if (show) {
            var photos = show.dataset.photos ? show.dataset.photos.split(" ") : [];
            var slide = document.getElementById("slide");
            var waiting = document.getElementById("waiting");
            var at = 0;
            var display = function (name) {
              slide.src = "/original/" + encodeURIComponent(name);
              slide.dataset.name = name;
              waiting.hidden = true;
            };
            var next = function () {
              if (photos.length === 0) { return; }
              at = (at + 1) % photos.length;
              display(photos[at]);
            };
            if (photos.length > 0) { display(photos[0]); }
            var timer = setInterval(next, 6000);
            var events = new EventSource("/events");
            events.addEventListener("photo", function (e) {
              photos.unshift(e.data);
              at = 0;
              display(e.data);
              clearInterval(timer);
              timer = setInterval(next, 6000);
            });
            if (document.documentElement.requestFullscreen) {
              show.addEventListener("click", function () { document.documentElement.requestFullscreen(); });
            }
          }
          if (document.body.dataset.clock === "ask") {
            fetch("/clock", {
              method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "t=" + Date.now()
            }).catch(function () {});
          }
        })();

        """
}
