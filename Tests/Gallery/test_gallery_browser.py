"""The gallery as guests use it: Selenium driving Debian's chromium headless against a `booth gallery` that serves
photos the booth (`booth simulate`) just took, on loopback only.

Each test gets a fresh store (three dated photos kept, one retake discarded, one undated photo), its own
`booth gallery` on 127.0.0.1 with port 0, and stops it with SIGTERM. Run with Tests/Gallery/run; set
HEYLOOK_SCREENSHOTS=1 to rewrite the screenshots in docs/images/.
"""
import hashlib
import http.client
import os
import pathlib
import re
import resource
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import unittest
import urllib.error
import urllib.parse
import urllib.request
import zipfile

from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, TimeoutException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

ROOT = pathlib.Path(__file__).resolve().parents[2]
BOOTH = pathlib.Path(os.environ.get("BOOTH_BIN") or ROOT / ".build/debug/booth")
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
SCREENSHOTS = os.environ.get("HEYLOOK_SCREENSHOTS") == "1"
IMAGES = ROOT / "docs/images"
CODE = "PARTY7"
HOST = "127.0.0.1"
# Every wait is bounded: a page, a download or an image that does not come fails the test after this long.
WAIT = 15

PHONE = {"width": 390, "height": 844, "pixelRatio": 2}
TABLET = {"width": 1024, "height": 768, "pixelRatio": 1}
PHONE_AGENT = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
               "Chrome/156.0 Mobile Safari/537.36")
TABLET_AGENT = ("Mozilla/5.0 (Linux; Android 14; Pixel Tablet) AppleWebKit/537.36 (KHTML, like Gecko) "
                "Chrome/156.0 Safari/537.36")

DATED = re.compile(r"^HeyLook_(\d{4}-\d{2}-\d{2})_\d{2}-\d{2}-\d{2}_(\d+)\.jpg$")
UNDATED = re.compile(r"^HeyLook_undated_(\d+)\.jpg$")

# Three dated photos with a retake between them (the second one goes to discarded/).
DATED_SCRIPT = "press\nwait 3\npress\nwait 4\nlong-press\nwait 4\npress\nwait 4\nquit\n"
ONE_PRESS = "press\nwait 3\nquit\n"

# urllib without the environment's proxies: every request goes straight to 127.0.0.1.
DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))
os.environ["NO_PROXY"] = os.environ["no_proxy"] = "127.0.0.1,localhost"


def day_of(name):
    """The day a photo's name says (`YYYY-MM-DD`), or `undated`."""
    if m := DATED.match(name):
        return m.group(1)
    if UNDATED.match(name):
        return "undated"
    raise AssertionError(f"not a photo name the booth makes: {name}")


def sequence_of(name):
    """The photo's running number (its order of taking)."""
    m = DATED.match(name) or UNDATED.match(name)
    if not m:
        raise AssertionError(f"not a photo name the booth makes: {name}")
    return int(m.groups()[-1])


def kept(photos):
    """The names of the store's kept photos (not its retakes)."""
    return sorted(p.name for p in photos.glob("HeyLook_*.jpg") if p.is_file() and not p.is_symlink())


def take_photos(photos, script, clock):
    """Runs the real booth (simulated hardware, virtual time) with `script` into `photos`; the names it added."""
    before = set(kept(photos)) if photos.exists() else set()
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as f:
        f.write(script)
        f.flush()
        run = subprocess.run(
            [str(BOOTH), "simulate", "--script", f.name, "--photos", str(photos), "--fast", "--clock", clock],
            capture_output=True, text=True, timeout=60)
    if run.returncode != 0:
        raise AssertionError(f"booth simulate failed ({run.returncode}): {run.stderr}{run.stdout}")
    return sorted(set(kept(photos)) - before, key=sequence_of)


def fill_store(photos):
    """Three dated photos kept and one discarded (a retake), then one undated photo."""
    take_photos(photos, DATED_SCRIPT, "synchronised")
    take_photos(photos, ONE_PRESS, "unsynchronised")
    discarded = [p.name for p in (photos / "discarded").glob("*.jpg")]
    names = kept(photos)
    assert len(names) == 4 and len(discarded) == 1, (names, discarded)
    assert sum(day_of(n) == "undated" for n in names) == 1, names
    return names, discarded[0]


def make_layout(photos, names, kind="strip"):
    """Draws the `kind` layout of `names` (photos in the store) with the real booth (`booth layout --preview`) and
    keeps it in the store's layouts/ folder under the name the booth gives it; its path."""
    folder = photos / "layouts"
    folder.mkdir(exist_ok=True)
    path = folder / (names[0][:-4] + f"-{kind}.jpg")
    run = subprocess.run([str(BOOTH), "layout", "--preview", str(path), "--layout", kind]
                         + [str(photos / n) for n in names], capture_output=True, text=True, timeout=60)
    if run.returncode != 0:
        raise AssertionError(f"booth layout failed ({run.returncode}): {run.stderr}{run.stdout}")
    return path


def newest_first(names):
    """The order the gallery shows: days newest first with undated photos last, then newest first within a day."""
    days = sorted({day_of(n) for n in names if day_of(n) != "undated"}, reverse=True)
    if any(day_of(n) == "undated" for n in names):
        days.append("undated")
    return [(day, sorted((n for n in names if day_of(n) == day), key=sequence_of, reverse=True)) for day in days]


class Gallery:
    """One `booth gallery` process on 127.0.0.1, port 0."""

    def __init__(self, photos, folder, config=None):
        self.photos = photos
        self.out = folder / "gallery.out"
        self.err = folder / "gallery.err"
        with open(self.out, "wb") as out, open(self.err, "wb") as err:
            self.process = subprocess.Popen(
                [str(BOOTH), "gallery", "--photos", str(photos), "--host", HOST, "--port", "0", "--code", CODE,
                 "--cache", str(folder / "cache")] + (["--config", str(config)] if config else []),
                stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        deadline = time.monotonic() + WAIT
        while True:
            text = self.out.read_text()
            if "\n" in text:
                break
            if self.process.poll() is not None:
                raise AssertionError(f"booth gallery exited {self.process.returncode}: {self.err.read_text()}")
            if time.monotonic() > deadline:
                self.stop()
                raise AssertionError(f"booth gallery printed no URL in {WAIT} s: {self.err.read_text()}")
            time.sleep(0.02)
        self.url = text.split("\n", 1)[0].strip()
        parts = urllib.parse.urlsplit(self.url)
        if parts.scheme != "http" or parts.hostname != HOST or not parts.port or parts.path != "/":
            self.stop()
            raise AssertionError(f"the first line is not the gallery's URL on {HOST}: {text!r}")
        self.port = parts.port

    def stop(self):
        """SIGTERM; the exit status (it must stop within the wait)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(WAIT)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(WAIT)
                raise AssertionError(f"booth gallery did not stop within {WAIT} s of SIGTERM")
        return self.process.returncode

    def request(self, method, path, headers=None, body=None, cookie=None):
        """One request with `path` sent exactly as given (no normalising): (status, headers, body)."""
        connection = http.client.HTTPConnection(HOST, self.port, timeout=WAIT)
        try:
            headers = dict(headers or {})
            if cookie:
                headers["Cookie"] = f"heylook={cookie}"
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            return response.status, response.headers, response.read()
        finally:
            connection.close()

    def cookie(self):
        """The access cookie the right code gives."""
        status, headers, _ = self.request(
            "POST", "/code", {"Content-Type": "application/x-www-form-urlencoded"}, f"code={CODE}")
        assert status == 303, status
        m = re.search(r"heylook=([^;]+)", headers.get("Set-Cookie", ""))
        assert m, headers
        return m.group(1)


def browser(viewport, downloads, resolve_all_to=None):
    """Headless chromium at `viewport` with touch, downloading into `downloads`, reaching nothing but loopback (every
    name resolving to `resolve_all_to`, a loopback address, when given)."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in (
        "--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--no-first-run",
        "--no-default-browser-check", "--no-proxy-server", "--disable-extensions", "--disable-sync",
        "--disable-background-networking", "--disable-component-update", "--disable-default-apps",
        "--disable-features=Translate,OptimizationHints,MediaRouter,AutofillServerCommunication",
        f"--host-resolver-rules=MAP * {resolve_all_to}" if resolve_all_to else
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
        f"--window-size={viewport['width']},{viewport['height']}",
    ):
        options.add_argument(argument)
    agent = PHONE_AGENT if viewport is PHONE else TABLET_AGENT
    options.add_experimental_option(
        "mobileEmulation", {"deviceMetrics": dict(viewport, touch=True), "userAgent": agent})
    options.add_experimental_option("prefs", {
        "download.default_directory": str(downloads), "download.prompt_for_download": False,
        "download.directory_upgrade": True, "safebrowsing.enabled": False,
    })
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(WAIT)
    driver.set_script_timeout(WAIT)
    driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
    return driver


def wait_for(driver, what, condition, timeout=WAIT):
    """Waits for `condition(driver)` to be truthy; fails naming `what` after `timeout` seconds. A look that a
    navigation aborted (the page being replaced, as after a form's submit) is looked at again."""
    try:
        return WebDriverWait(
            driver, timeout, poll_frequency=0.05, ignored_exceptions=(NoSuchElementException, WebDriverException)
        ).until(condition)
    except TimeoutException:
        raise AssertionError(f"{what}: not within {timeout} s (at {driver.current_url})") from None


def loaded(driver, image):
    """Whether `image` has finished loading a picture (not a broken one)."""
    return driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0;", image)


def overflow(driver):
    """How far the page is wider than the screen (a sideways scroll on a phone), and the links that wrap or that the
    screen's edge cuts (a bar's link past its right side)."""
    return driver.execute_script("""
        var lines = function (a) {
          var range = document.createRange();
          range.selectNodeContents(a);
          return new Set(Array.from(range.getClientRects()).map(function (r) { return Math.round(r.bottom); })).size;
        };
        // The page's width as the phone lays it out (innerWidth grows when the browser zooms out to fit a page
        // wider than the screen).
        var screen = document.documentElement.clientWidth;
        var wrapped = Array.from(document.querySelectorAll('header a, nav a, a.zip')).filter(function (a) {
          var box = a.getBoundingClientRect();
          return lines(a) > 1 || box.left < 0 || box.right > screen + 0.5;
        }).map(function (a) { return a.id || a.textContent; });
        return [document.documentElement.scrollWidth - screen, wrapped];
    """)


def wait_for_download(folder, timeout=WAIT):
    """The one file a download put in `folder`, once Chromium has finished writing it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        files = [p for p in folder.iterdir() if p.is_file()]
        done = [p for p in files if not p.name.endswith(".crdownload")]
        if done and len(done) == len(files):
            if len(done) != 1:
                raise AssertionError(f"one download expected, got {[p.name for p in done]}")
            return done[0]
        time.sleep(0.05)
    raise AssertionError(f"no finished download in {folder} within {timeout} s: {list(folder.iterdir())}")


def sha256(data):
    return hashlib.sha256(data).hexdigest()


class GalleryCase(unittest.TestCase):
    """A fresh store, its gallery and (on demand) a browser, all stopped after the test."""

    maxDiff = None
    # The booth's config for the gallery (`{folder}` the test's folder), or None for none.
    config = None

    def setUp(self):
        self.folder = pathlib.Path(tempfile.mkdtemp(prefix="heylook-gallery-"))
        self.addCleanup(shutil.rmtree, self.folder, ignore_errors=True)
        self.photos = self.folder / "photos"
        self.names, self.discarded = fill_store(self.photos)
        self.downloads = self.folder / "downloads"
        self.downloads.mkdir()
        config = None
        if self.config:
            config = self.folder / "booth.toml"
            config.write_text(self.config.format(folder=self.folder))
        self.gallery = Gallery(self.photos, self.folder, config)
        # Cleanups, not tearDown: they run even when setUp fails after this point. Last in, first out: the browser
        # quits, then the gallery gets SIGTERM.
        self.addCleanup(self.stop_gallery)
        self.driver = None
        self.addCleanup(self.quit_browser)

    def stop_gallery(self):
        status = self.gallery.stop()
        self.assertEqual(status, 0, f"exit status after SIGTERM; stderr: {self.gallery.err.read_text()}")

    def quit_browser(self):
        if self.driver is not None:
            self.driver.quit()
            self.driver = None

    def open_browser(self, viewport=PHONE):
        self.driver = browser(viewport, self.downloads)
        return self.driver

    def enter_code(self, code=CODE):
        """Types `code` on the code page and sends it, as a guest would."""
        driver = self.driver
        driver.get(self.gallery.url)
        field = wait_for(driver, "the code field", lambda d: d.find_element(By.CSS_SELECTOR, "input#code"))
        field.send_keys(code)
        driver.find_element(By.CSS_SELECTOR, "button#enter").click()

    def open_gallery(self):
        self.enter_code()
        wait_for(self.driver, "the gallery after the code", lambda d: d.find_elements(By.CSS_SELECTOR, "a.thumb"))

    def store_bytes(self, name):
        return (self.photos / name).read_bytes()

    def copy_in_by_hand(self, name):
        """Copies the first kept photo into the store as `name`, as a person might, and waits until the gallery serves
        its page. The gallery hears of the store's changes from inotify, in order: whatever was put in the store before
        this has been heard of too, so a test can then check what the gallery made of it (a busy machine can take
        longer than any fixed sleep)."""
        shutil.copyfile(self.photos / self.names[0], self.photos / name)
        cookie = self.gallery.cookie()
        deadline = time.monotonic() + WAIT
        while True:
            status, _, _ = self.gallery.request("GET", f"/photo/{name}", cookie=cookie)
            if status == 200:
                return
            if time.monotonic() > deadline:
                raise AssertionError(f"the gallery did not serve {name}, copied in by hand, within {WAIT} s "
                                     f"(GET /photo/{name}: {status})")
            time.sleep(0.05)


class CodeGateTests(GalleryCase):
    """Without the code: nothing but the code page."""

    def status(self, path, cookie=None):
        request = urllib.request.Request(self.gallery.url.rstrip("/") + path)
        if cookie:
            request.add_header("Cookie", f"heylook={cookie}")
        try:
            with DIRECT.open(request, timeout=WAIT) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def test_without_the_code_only_the_code_page(self):
        name = self.names[0]
        day = day_of(name)
        layout = make_layout(self.photos, [name]).name
        for path in (f"/photo/{name}", f"/original/{name}", f"/original/{name}?download=1", f"/thumb/{name}",
                     f"/layout/{layout}", "/zip/all", f"/zip/day/{day}", "/zip/day/undated", "/events"):
            for cookie in (None, "0" * 32):
                with self.subTest(path=path, cookie=cookie):
                    status, body = self.status(path, cookie)
                    self.assertEqual(status, 401)
                    self.assertNotIn(b"\xff\xd8", body[:2], "a JPEG without the code")
        for path in ("/", "/slideshow"):
            with self.subTest(path=path):
                status, body = self.status(path)
                self.assertEqual(status, 200)
                self.assertIn(b'id="code"', body)
                self.assertNotIn(name.encode(), body, "a photo's name on the code page")

        driver = self.open_browser()
        for path in ("/", "/slideshow"):
            driver.get(self.gallery.url.rstrip("/") + path)
            wait_for(driver, f"the code field at {path}", lambda d: d.find_elements(By.CSS_SELECTOR, "input#code"))
            self.assertEqual(driver.find_elements(By.CSS_SELECTOR, "a.thumb, img#slide, img#photo"), [])
            self.assertNotIn(name, driver.page_source)

    def test_a_gallery_run_by_hand_leaves_the_clock_alone(self):
        # Without --set-clock (the installed unit's), no page asks for the phone's time and /clock sets nothing;
        # the rig's system-hotspot sets the clock through timedated from a phone.
        form = {"Content-Type": "application/x-www-form-urlencoded"}
        status, _, _ = self.gallery.request("POST", "/clock", form, "t=4000000000000")
        self.assertEqual(status, 401)
        status, headers, _ = self.gallery.request("POST", "/code", form, f"code={CODE}")
        cookie = {"Cookie": headers["Set-Cookie"].split(";")[0]}
        status, _, body = self.gallery.request("POST", "/clock", {**cookie, **form}, "t=4000000000000")
        self.assertEqual(status, 404, body)
        status, _, page = self.gallery.request("GET", "/", cookie)
        self.assertEqual(status, 200)
        self.assertNotIn(b"data-clock", page)

    def test_a_wrong_code_asks_again(self):
        status, _, body = self.gallery.request(
            "POST", "/code", {"Content-Type": "application/x-www-form-urlencoded"}, "code=WRONG1")
        self.assertEqual(status, 403)
        self.assertIn(b'id="wrong"', body)

        driver = self.open_browser()
        self.enter_code("WRONG1")
        wrong = wait_for(driver, "#wrong after a wrong code", lambda d: d.find_element(By.CSS_SELECTOR, "#wrong"))
        self.assertTrue(wrong.is_displayed())
        self.assertTrue(driver.find_element(By.CSS_SELECTOR, "input#code").is_displayed())
        self.assertEqual(driver.find_elements(By.CSS_SELECTOR, "a.thumb"), [])
        self.assertIsNone(driver.get_cookie("heylook"))

    def test_the_right_code_sets_a_strict_http_only_cookie(self):
        status, headers, _ = self.gallery.request(
            "POST", "/code", {"Content-Type": "application/x-www-form-urlencoded"}, f"code={CODE}")
        self.assertEqual(status, 303)
        self.assertEqual(headers.get("Location"), "/")
        attributes = [a.strip().lower() for a in headers.get("Set-Cookie", "").split(";")]
        self.assertTrue(attributes[0].startswith("heylook="), attributes)
        self.assertIn("httponly", attributes)
        self.assertIn("samesite=strict", attributes)

    def test_the_join_cards_code_opens_the_gallery_signed_in(self):
        """`booth card` for this gallery, its QR codes read by zbarimg, the gallery's link opened as a phone's camera
        app opens it: the gallery, signed in, no code typed. The same link with a wrong code asks for the code."""
        cards = self.folder / "card"
        cards.mkdir()
        made = subprocess.run(
            [str(BOOTH), "card", "--url", self.gallery.url, "--code", CODE, "--wifi-name", "HeyLook-TEST",
             "--wifi-password", "duck;apple,rain", "--output", str(cards)],
            capture_output=True, text=True, timeout=WAIT)
        self.assertEqual(made.returncode, 0, made.stderr)
        read = subprocess.run(["zbarimg", "--quiet", "--raw", str(cards / "join-card.png")],
                              capture_output=True, text=True, timeout=WAIT)
        self.assertEqual(read.returncode, 0, "zbarimg read no QR code on the card (scripts/install-deps --test)")
        texts = sorted(read.stdout.split())
        self.assertEqual(texts[0], "WIFI:T:WPA;S:HeyLook-TEST;P:duck\\;apple\\,rain;;")
        link = texts[1]
        self.assertEqual(link, f"{self.gallery.url}?code={CODE}")

        driver = self.open_browser()
        driver.get(link)
        wait_for(driver, "the gallery from the card's link", lambda d: d.find_elements(By.CSS_SELECTOR, "a.thumb"))
        self.assertEqual(driver.current_url, self.gallery.url, "the code stays in the address bar")
        self.assertIsNotNone(driver.get_cookie("heylook"))

        driver.delete_all_cookies()
        driver.get(f"{self.gallery.url}?code=WRONG1")
        wait_for(driver, "#wrong after a wrong code in the link", lambda d: d.find_element(By.CSS_SELECTOR, "#wrong"))
        self.assertEqual(driver.find_elements(By.CSS_SELECTOR, "a.thumb"), [])
        self.assertIsNone(driver.get_cookie("heylook"))

    def test_a_phones_connectivity_check_lands_on_the_code_page(self):
        """As on the booth's own Wi-Fi, where every name resolves to the booth: the operating systems' checks, and any
        site typed, are sent to the gallery at the address they came in on; the booth's own names are served."""
        probes = [("captive.apple.com", "/hotspot-detect.html"), ("connectivitycheck.gstatic.com", "/generate_204"),
                  ("www.msftconnecttest.com", "/connecttest.txt"), ("example.com", "/some/page?x=1")]
        for host, path in probes:
            with self.subTest(host=host):
                status, headers, _ = self.gallery.request("GET", path, {"Host": host})
                self.assertEqual(status, 302)
                self.assertEqual(headers.get("Location"), self.gallery.url)
                self.assertEqual(headers.get("Cache-Control"), "no-store")
        for host in (f"{HOST}:{self.gallery.port}", f"localhost:{self.gallery.port}", "booth.local"):
            with self.subTest(host=host):
                status, _, body = self.gallery.request("GET", "/", {"Host": host})
                self.assertEqual(status, 200)
                self.assertIn(b'id="code"', body)

        # A browser whose every name resolves to the booth, as a phone's captive-portal sheet opens the check's URL.
        self.driver = browser(PHONE, self.downloads, resolve_all_to=HOST)
        self.driver.get(f"http://captive.apple.com:{self.gallery.port}/hotspot-detect.html")
        wait_for(self.driver, "the code page after the check", lambda d: d.find_elements(By.CSS_SELECTOR, "input#code"))
        self.assertEqual(self.driver.current_url, self.gallery.url)
        self.enter_code()
        wait_for(self.driver, "the gallery after the code", lambda d: d.find_elements(By.CSS_SELECTOR, "a.thumb"))


class BrowsingTests(GalleryCase):
    """With the code, at a phone's size: the gallery, a photo, swipes, downloads."""

    def test_the_gallery_shows_every_kept_photo_newest_first_by_day(self):
        driver = self.open_browser()
        # No cache, so the figures below count the CSS and JS too (the code page would have cached them).
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
        started = time.monotonic()
        self.open_gallery()

        # The first page's cost, as the phone loaded it: the page, its CSS and JS, and the thumbnails in view.
        wait_for(driver, "the thumbnails in view", lambda d: all(
            loaded(d, img) for img in d.find_elements(By.CSS_SELECTOR, "a.thumb img")
            if d.execute_script("var r = arguments[0].getBoundingClientRect(); return r.top < innerHeight;", img)))
        figures = driver.execute_script("""
            var nav = performance.getEntriesByType('navigation')[0];
            var res = performance.getEntriesByType('resource');
            var thumbs = res.filter(function (r) { return r.name.indexOf('/thumb/') >= 0; });
            var sum = function (list) { return list.reduce(function (s, r) { return s + r.transferSize; }, 0); };
            return {page: nav.transferSize, body: nav.decodedBodySize, assets: sum(res) - sum(thumbs),
                    thumbs: sum(thumbs), count: thumbs.length,
                    first: Math.min.apply(null, thumbs.map(function (r) { return r.responseEnd; }))};
        """)
        total = figures["page"] + figures["assets"] + figures["thumbs"]
        print(f"\n  first gallery page: {total} bytes = page {figures['page']} (HTML {figures['body']}) + "
              f"CSS/JS {figures['assets']} + {figures['count']} thumbnails {figures['thumbs']}; "
              f"first thumbnail loaded {figures['first']:.0f} ms after the navigation started "
              f"({(time.monotonic() - started) * 1000:.0f} ms from typing the code to all in view loaded)")

        self.assertEqual(overflow(driver)[0], 0, "the gallery wider than the phone")
        sections = driver.find_elements(By.CSS_SELECTOR, "section.day")
        shown = []
        for section in sections:
            heading = section.find_element(By.TAG_NAME, "h2")
            self.assertTrue(heading.text.strip(), "a day without a heading")
            names = []
            for img in section.find_elements(By.CSS_SELECTOR, "a.thumb > img"):
                src = img.get_attribute("src")
                self.assertEqual(img.get_attribute("loading"), "lazy")
                self.assertTrue(src.startswith(self.gallery.url + "thumb/"), src)
                name = urllib.parse.unquote(src.rsplit("/", 1)[1])
                link = img.find_element(By.XPATH, "..").get_attribute("href")
                self.assertEqual(link, self.gallery.url + "photo/" + name)
                names.append(name)
            days = {day_of(n) for n in names}
            self.assertEqual(len(days), 1, f"one day per section: {names}")
            day = days.pop()
            zip_link = section.find_element(By.CSS_SELECTOR, "a.zip").get_attribute("href")
            self.assertEqual(zip_link, self.gallery.url + f"zip/day/{day}")
            shown.append((day, names))
        self.assertEqual(shown, newest_first(self.names))
        self.assertNotIn(self.discarded, driver.page_source, "a retake shown")
        for section, (day, _) in zip(sections, shown):
            heading = section.find_element(By.TAG_NAME, "h2").text
            if day != "undated":
                year, _, date = day.split("-")
                self.assertIn(year, heading, f"the heading of {day}")
                self.assertRegex(heading, rf"\b{int(date)}\b", f"the heading of {day}")

        header = driver.find_element(By.TAG_NAME, "header")
        self.assertEqual(header.find_element(By.CSS_SELECTOR, "a#download-all").get_attribute("href"),
                         self.gallery.url + "zip/all")
        self.assertTrue(header.find_element(By.CSS_SELECTOR, "a#slideshow").is_displayed())

        for img in driver.find_elements(By.CSS_SELECTOR, "a.thumb > img"):
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", img)
            wait_for(driver, f"thumbnail {img.get_attribute('src')} loaded", lambda d: loaded(d, img))
            width, height = driver.execute_script("return [arguments[0].naturalWidth, arguments[0].naturalHeight];",
                                                  img)
            self.assertEqual(max(width, height), 320, "a thumbnail is 320 px on its long side (JPEGThumbnail.defaultLongEdge)")
            self.assertTrue(img.is_displayed())
            self.assertGreater(img.size["width"], 80, "a thumbnail too small to tap")

    def swipe(self, from_x, to_x, y):
        """A finger on the screen moving horizontally, as real touch events."""
        finger = PointerInput(interaction.POINTER_TOUCH, "finger")
        actions = ActionBuilder(self.driver, mouse=finger, duration=50)
        actions.pointer_action.move_to_location(from_x, y).pointer_down()
        for step in range(1, 5):
            actions.pointer_action.move_to_location(from_x + (to_x - from_x) * step // 4, y)
        actions.pointer_action.pointer_up()
        actions.perform()

    def wait_for_photo(self, name):
        driver = self.driver
        wait_for(driver, f"the page of {name}", lambda d: d.current_url == self.gallery.url + "photo/" + name)
        photo = wait_for(driver, f"img#photo of {name}", lambda d: d.find_element(By.CSS_SELECTOR, "img#photo"))
        self.assertEqual(photo.get_attribute("src"), self.gallery.url + "original/" + name)
        wait_for(driver, f"img#photo of {name} loaded", lambda d: loaded(d, photo))
        return photo

    def test_a_photo_swipes_to_the_older_and_the_arrow_key_back(self):
        driver = self.open_browser()
        self.open_gallery()
        order = [name for _, names in newest_first(self.names) for name in names]
        first, second = order[0], order[1]
        driver.find_element(By.CSS_SELECTOR, "a.thumb").click()
        photo = self.wait_for_photo(first)
        width, height = photo.size["width"], photo.size["height"]
        self.assertLessEqual(width, PHONE["width"], "the photo wider than the screen")
        self.assertLessEqual(height, PHONE["height"], "the photo taller than the screen")
        self.assertGreater(width, PHONE["width"] * 0.9, "the photo does not fill the screen's width")
        for link in ("a#back", "a#older", "a#download"):
            self.assertTrue(driver.find_element(By.CSS_SELECTOR, link).is_displayed(), link)
        self.assertEqual(overflow(driver)[0], 0, "the photo page wider than the phone")
        self.assertEqual(driver.find_element(By.CSS_SELECTOR, "a#older").get_attribute("href"),
                         self.gallery.url + "photo/" + second)

        # A short move is not a swipe.
        self.swipe(220, 190, 400)
        time.sleep(0.3)
        self.assertEqual(driver.current_url, self.gallery.url + "photo/" + first)

        self.swipe(330, 60, 400)
        self.wait_for_photo(second)
        self.assertEqual(driver.find_element(By.CSS_SELECTOR, "a#newer").get_attribute("href"),
                         self.gallery.url + "photo/" + first)

        ActionChains(driver).send_keys(Keys.ARROW_LEFT).perform()
        self.wait_for_photo(first)
        ActionChains(driver).send_keys(Keys.ARROW_RIGHT).perform()
        self.wait_for_photo(second)

        # The oldest photo of the first day continues into the undated group, and back.
        last = order[-1]
        driver.get(self.gallery.url + "photo/" + order[-2])
        self.wait_for_photo(order[-2])
        self.swipe(330, 60, 400)
        self.wait_for_photo(last)
        self.swipe(60, 330, 400)
        self.wait_for_photo(order[-2])

        driver.find_element(By.CSS_SELECTOR, "a#back").click()
        wait_for(driver, "the gallery from a#back", lambda d: d.find_elements(By.CSS_SELECTOR, "a.thumb"))

    def test_download_the_original(self):
        driver = self.open_browser()
        self.open_gallery()
        name = newest_first(self.names)[0][1][1]
        driver.get(self.gallery.url + "photo/" + name)
        self.wait_for_photo(name)
        link = driver.find_element(By.CSS_SELECTOR, "a#download")
        self.assertEqual(link.get_attribute("download"), name)
        # No print.from_gallery: no Print button, and nothing to post to.
        self.assertEqual(driver.find_elements(By.CSS_SELECTOR, "button#print"), [])
        status, _, _ = self.gallery.request("POST", f"/print/{name}", cookie=self.gallery.cookie())
        self.assertEqual(status, 404)
        link.click()
        file = wait_for_download(self.downloads)
        self.assertEqual(file.name, name)
        data = file.read_bytes()
        self.assertEqual(len(data), (self.photos / name).stat().st_size)
        self.assertEqual(sha256(data), sha256(self.store_bytes(name)))

    # Mutations: serving /layout/ from the photos folder instead of layouts/ failed it (404), and so did a photo page
    # that offered links alone as layouts (no link).
    def test_a_bursts_strip_opens_from_its_first_photos_page(self):
        dated = newest_first(self.names)[0][1]
        first, second = dated[-1], dated[-2]
        strip = make_layout(self.photos, [first, second])
        driver = self.open_browser()
        self.open_gallery()
        driver.get(self.gallery.url + "photo/" + second)
        self.wait_for_photo(second)
        self.assertEqual(driver.find_elements(By.CSS_SELECTOR, "a.layout"), [], "a layout on a photo it is not named after")
        driver.get(self.gallery.url + "photo/" + first)
        self.wait_for_photo(first)
        links = driver.find_elements(By.CSS_SELECTOR, "a.layout")
        self.assertEqual([(a.get_attribute("id"), a.text) for a in links], [("layout-strip", "Printed strip")])
        links[0].click()
        wait_for(driver, "the strip's page", lambda d: d.current_url == self.gallery.url + "layout/" + strip.name)
        image = wait_for(driver, "the strip shown", lambda d: d.find_element(By.TAG_NAME, "img"))
        wait_for(driver, "the strip loaded", lambda d: loaded(d, image))
        self.assertEqual(driver.execute_script("return arguments[0].naturalWidth", image), 1200)
        self.assertEqual(driver.execute_script("return arguments[0].naturalHeight", image), 1800)
        status, headers, body = self.gallery.request("GET", f"/layout/{strip.name}?download=1", cookie=self.gallery.cookie())
        self.assertEqual(status, 200)
        self.assertEqual(sha256(body), sha256(strip.read_bytes()))
        self.assertIn(f'filename="{strip.name}"', headers.get("content-disposition", ""))

    def test_download_everything_and_one_day_as_zip(self):
        driver = self.open_browser()
        self.open_gallery()
        driver.find_element(By.CSS_SELECTOR, "a#download-all").click()
        everything = wait_for_download(self.downloads)
        self.assertTrue(everything.name.endswith(".zip"), everything.name)
        test = subprocess.run(["unzip", "-t", str(everything)], capture_output=True, text=True, timeout=60)
        self.assertEqual(test.returncode, 0, test.stdout + test.stderr)
        with zipfile.ZipFile(everything) as archive:
            self.assertIsNone(archive.testzip())
            entries = archive.namelist()
            self.assertEqual(sorted(entries), sorted(f"{day_of(n)}/{n}" for n in self.names))
            for entry in entries:
                info = archive.getinfo(entry)
                self.assertEqual(info.compress_type, zipfile.ZIP_STORED, f"{entry} compressed")
                name = entry.split("/", 1)[1]
                self.assertEqual(sha256(archive.read(entry)), sha256(self.store_bytes(name)), entry)
        print(f"\n  download all: {everything.name!r}, {everything.stat().st_size} bytes, {len(entries)} photos")
        everything.unlink()

        section = driver.find_elements(By.CSS_SELECTOR, "section.day")[0]
        day = newest_first(self.names)[0][0]
        day_link = section.find_element(By.CSS_SELECTOR, "a.zip")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", day_link)
        day_link.click()
        one_day = wait_for_download(self.downloads)
        self.assertTrue(one_day.name.endswith(".zip"), one_day.name)
        test = subprocess.run(["unzip", "-t", str(one_day)], capture_output=True, text=True, timeout=60)
        self.assertEqual(test.returncode, 0, test.stdout + test.stderr)
        expected = sorted(n for n in self.names if day_of(n) == day)
        with zipfile.ZipFile(one_day) as archive:
            self.assertEqual(sorted(archive.namelist()), expected)
            for name in expected:
                self.assertEqual(sha256(archive.read(name)), sha256(self.store_bytes(name)), name)

        # The undated group's ZIP, by URL with the browser's cookie.
        cookie = driver.get_cookie("heylook")["value"]
        status, _, body = self.gallery.request("GET", "/zip/day/undated", cookie=cookie)
        self.assertEqual(status, 200)
        (self.folder / "undated.zip").write_bytes(body)
        with zipfile.ZipFile(self.folder / "undated.zip") as archive:
            undated = [n for n in self.names if day_of(n) == "undated"]
            self.assertEqual(archive.namelist(), undated)
            self.assertEqual(archive.read(undated[0]), self.store_bytes(undated[0]))

    # A ZIP that sent no photo by sendfile would pass this too: FileSpanSenderTests and the strace in
    # docs/dev/benchmarks.md show the sendfile path.
    def test_a_zip_holds_a_photo_the_index_lacks(self):
        # A photo copied in by hand has no CRC-32 in the index: the ZIP sums it on the way (a data descriptor),
        # while the booth's own photos, whose CRC-32 the index holds, go by the kernel (sendfile).
        copied = "HeyLook_2026-01-02_03-04-06_000078.jpg"
        self.copy_in_by_hand(copied)
        status, _, body = self.gallery.request("GET", "/zip/day/2026-01-02", cookie=self.gallery.cookie())
        self.assertEqual(status, 200)
        (self.folder / "copied.zip").write_bytes(body)
        test = subprocess.run(["unzip", "-t", str(self.folder / "copied.zip")], capture_output=True, text=True,
                              timeout=60)
        self.assertEqual(test.returncode, 0, test.stdout + test.stderr)
        with zipfile.ZipFile(self.folder / "copied.zip") as archive:
            self.assertIn(copied, archive.namelist())
            self.assertEqual(archive.read(copied), self.store_bytes(copied))
            self.assertNotEqual(archive.getinfo(copied).flag_bits & 0x08, 0, "a data descriptor follows it")


    # Mutation: without FileSpanSender's room, a ZIP's writer ran ahead of the socket and opened every photo at once,
    # and this download stopped short (at 0.78 MB of 2.2).
    def test_a_zip_of_more_photos_than_the_gallery_may_open_at_once(self):
        added = take_photos(self.photos, "press\nwait 3\n" * 60 + "quit\n", "synchronised")
        names = self.names + added
        cache = self.folder / "cache"
        deadline = time.monotonic() + 60
        while len(list(cache.glob("*.jpg"))) < len(names):  # thumbnails made: nothing else opens photos
            self.assertLess(time.monotonic(), deadline, "thumbnails not made within 60 s")
            time.sleep(0.1)
        pid = self.gallery.process.pid
        in_use = len(os.listdir(f"/proc/{pid}/fd"))
        spare = 16 + 8  # FileSpanSender.filesOpenAtOnce, and the connection and what a request opens
        _, hard = resource.prlimit(pid, resource.RLIMIT_NOFILE)
        resource.prlimit(pid, resource.RLIMIT_NOFILE, (in_use + spare, hard))
        self.assertLess(in_use + spare, in_use + len(names), "the store holds more photos than the limit leaves")
        status, headers, body = self.gallery.request("GET", "/zip/all", cookie=self.gallery.cookie())
        self.assertEqual(status, 200)
        self.assertEqual(len(body), int(headers["Content-Length"]), "the whole archive, not a short one")
        (self.folder / "many.zip").write_bytes(body)
        with zipfile.ZipFile(self.folder / "many.zip") as archive:
            self.assertEqual(sorted(archive.namelist()), sorted(f"{day_of(n)}/{n}" for n in names))
            for name in names:
                self.assertEqual(archive.read(f"{day_of(name)}/{name}"), self.store_bytes(name), name)
        print(f"\n  ZIP of {len(names)} photos with {spare} descriptors to spare: {len(body)} bytes")


class LayoutTests(GalleryCase):
    """On small phones nothing is wider than the screen and no link breaks over two lines."""

    # Mutation: the first stylesheet failed it: at 390 px "Download this day (ZIP)" broke after "day" beside the
    # day's heading, and at 360 px the photo page's bar wrapped "← Newer" and "Older →" onto two lines.
    def test_no_sideways_scroll_and_no_wrapped_link_on_small_phones(self):
        problems = []
        for width, height in ((390, 844), (360, 740)):
            self.driver = driver = browser({"width": width, "height": height, "pixelRatio": 2}, self.downloads)
            self.open_gallery()
            wider, wrapped = overflow(driver)
            if wider or wrapped:
                problems.append(f"gallery at {width} px: {wider} px too wide, wrapped {wrapped}")
            # The fullest bar: both neighbours, the download, and a strip and a grid named after the photo.
            name = newest_first(self.names)[0][1][1]
            for kind in ("strip", "grid"):
                make_layout(self.photos, [name], kind)
            driver.get(self.gallery.url + "photo/" + name)
            wait_for(driver, "the photo page", lambda d: len(d.find_elements(By.CSS_SELECTOR, "a.layout")) == 2)
            wider, wrapped = overflow(driver)
            if wider or wrapped:
                problems.append(f"photo page at {width} px: {wider} px too wide, wrapped {wrapped}")
            driver.quit()
            self.driver = None
        self.assertEqual(problems, [])


class SlideshowTests(GalleryCase):
    """The slideshow on a tablet shows a photo the booth takes after it opened."""

    def test_the_slideshow_shows_a_new_photo(self):
        driver = self.open_browser(TABLET)
        # Counts the slideshow's event streams that opened (instrumentation only: the page's own code runs as is).
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
            (function () {
              var Original = window.EventSource;
              window.__opened = 0;
              window.EventSource = function (url, init) {
                var source = new Original(url, init);
                source.addEventListener('open', function () { window.__opened += 1; });
                return source;
              };
              window.EventSource.prototype = Original.prototype;
            })();
        """})
        self.open_gallery()
        driver.find_element(By.CSS_SELECTOR, "a#slideshow").click()
        slide = wait_for(driver, "img#slide", lambda d: d.find_element(By.CSS_SELECTOR, "main.show img#slide"))
        # It starts with the gallery's first photo: the newest of the newest day.
        first = newest_first(self.names)[0][1][0]
        wait_for(driver, "the gallery's first photo on the slideshow", lambda d: d.execute_script(
            "return arguments[0].getAttribute('src');", slide) == f"/original/{first}" and loaded(d, slide))
        wait_for(driver, "the slideshow's event stream open", lambda d: d.execute_script("return window.__opened;") > 0)

        started = time.monotonic()
        new = take_photos(self.photos, ONE_PRESS, "synchronised")
        taken = time.monotonic()
        self.assertEqual(len(new), 1, new)
        name = new[0]
        saved_at = (self.photos / name).stat().st_mtime
        wait_for(driver, f"{name} on the slideshow", lambda d: d.execute_script(
            "return arguments[0].getAttribute('src');", slide) == f"/original/{name}" and loaded(d, slide),
            timeout=5)
        seen = time.monotonic()
        since_saved = time.time() - saved_at
        print(f"\n  slideshow: {name} shown {since_saved * 1000:.0f} ms after the file was saved "
              f"({(seen - taken) * 1000:.0f} ms after booth simulate exited, {(seen - started) * 1000:.0f} ms "
              f"after it started)")
        self.assertEqual(driver.execute_script("return window.__opened;"), 1, "the event stream reconnected")
        self.assertTrue(slide.is_displayed())
        size = slide.size
        self.assertLessEqual(size["width"], TABLET["width"])
        self.assertLessEqual(size["height"], TABLET["height"])


class FakeBooth:
    """The booth's side of the print socket, for the gallery's tests (the real booth's is tested in
    GalleryPrintDeskTests): answers each request with the next of `answers` and keeps the requests."""

    def __init__(self, path, answers):
        self.requests = []
        self.answers = list(answers)
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.listener.bind(str(path))
        self.listener.listen(4)
        self.listener.settimeout(WAIT)
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self):
        while self.answers:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            with connection:
                connection.settimeout(WAIT)
                self.requests.append(connection.recv(1024))
                connection.send(self.answers.pop(0))

    def close(self):
        self.listener.close()
        self.thread.join(WAIT)


class PrintButtonTests(GalleryCase):
    """With `print.from_gallery`, a photo's page has a Print button: the booth is asked, and its answer shown."""

    config = ('[booth]\nstate_file = "{folder}/state/state.toml"\n'
              '[print]\nmode = "on-request"\nfrom_gallery = true\n')

    def setUp(self):
        super().setUp()
        (self.folder / "state").mkdir()
        self.socket = self.folder / "state" / "print.sock"

    def print_photo(self, name):
        driver = self.driver
        driver.get(self.gallery.url + "photo/" + name)
        button = wait_for(driver, "the Print button", lambda d: d.find_element(By.CSS_SELECTOR, "button#print"))
        self.assertEqual(button.text, "Print")
        button.click()
        heading = wait_for(driver, "the booth's answer", lambda d: d.find_element(By.CSS_SELECTOR, "h1#answer"))
        return heading.text, driver.find_element(By.CSS_SELECTOR, "p#reason").text

    # Mutation: a gallery that sent the photo's path instead of its name failed it (the request the booth got).
    def test_a_guest_prints_a_photo_and_is_told_what_the_booth_did(self):
        name = newest_first(self.names)[0][1][0]
        booth = FakeBooth(self.socket, [b"sent 1", b"refused " + name.encode() + b" was printed 1 time already"])
        self.addCleanup(booth.close)
        self.open_browser()
        self.open_gallery()
        heading, reason = self.print_photo(name)
        self.assertEqual(heading, "Printing")
        self.assertIn("Pick it up at the booth", reason)
        self.assertEqual(booth.requests, [b"print " + name.encode()])
        heading, reason = self.print_photo(name)
        self.assertEqual(heading, "Not printed")
        self.assertIn(f"{name} was printed 1 time already", reason)
        self.driver.find_element(By.CSS_SELECTOR, "a#back").click()
        wait_for(self.driver, "back to the photo", lambda d: d.current_url == self.gallery.url + "photo/" + name)
        # Without the cookie, nothing is asked.
        status, _, _ = self.gallery.request("POST", f"/print/{name}")
        self.assertEqual(status, 401)
        self.assertEqual(len(booth.requests), 2)

    def test_a_booth_that_does_not_answer_is_said_so(self):
        self.open_browser()
        self.open_gallery()
        heading, reason = self.print_photo(self.names[0])
        self.assertEqual(heading, "Not printed")
        self.assertIn("not taking prints now", reason)

    def test_a_retake_or_a_name_that_is_no_photo_is_not_asked_for(self):
        booth = FakeBooth(self.socket, [b"sent 1"])
        self.addCleanup(booth.close)
        cookie = self.gallery.cookie()
        for name in (self.discarded, "..%2Findex.txt", "HeyLook_undated_999999.jpg"):
            with self.subTest(name=name):
                status, _, _ = self.gallery.request("POST", f"/print/{name}", cookie=cookie)
                self.assertIn(status, (400, 404))
        self.assertEqual(booth.requests, [])


class HostileRequestTests(GalleryCase):
    """With the cookie, names that are not a kept photo's are refused, and odd requests get a clear status."""

    def setUp(self):
        super().setUp()
        self.cookie = self.gallery.cookie()
        self.name = self.names[0]

    def assertRefused(self, path, leaked=b"heylook-index"):
        status, _, body = self.gallery.request("GET", path, cookie=self.cookie)
        self.assertIn(status, (400, 404), f"GET {path}")
        self.assertNotIn(leaked, body, f"GET {path} leaked a file")
        self.assertFalse(body.startswith(b"\xff\xd8"), f"GET {path} answered a JPEG")

    def test_traversal_nul_and_absolute_names_are_refused(self):
        for route in ("original", "thumb", "photo", "layout"):
            for name in ("..%2Findex.txt", "%2e%2e%2findex.txt", "%2e%2e%2fstate.toml", "%2E%2E%2Fbooth-id",
                         "..%5cindex.txt", "..%252Findex.txt", f"{self.name}%00", f"{self.name}%00.txt", "%00",
                         "%2Fetc%2Fpasswd", urllib.parse.quote(str(self.photos / "index.txt"), safe=""),
                         "discarded%2F" + self.discarded, self.name.upper(), self.name + "%20", "index.txt",
                         "booth-id", ".index.lock", "discarded", "."):
                with self.subTest(route=route, name=name):
                    self.assertRefused(f"/{route}/{name}", leaked=b"root:x:0:0")
                    self.assertRefused(f"/{route}/{name}")
        # Raw paths, not normalised by any client.
        for path in ("/original/../index.txt", "/original/./../index.txt", "/original/..", "/thumb/../index.txt",
                     "/original//etc/passwd", "/original/../../../../etc/passwd", f"/original/../photos/{self.name}",
                     "/zip/day/..%2F..%2Fetc", "/zip/day/../index.txt", "/zip/day/2026-13-45", "/zip/day/%00"):
            with self.subTest(path=path):
                status, _, body = self.gallery.request("GET", path, cookie=self.cookie)
                self.assertIn(status, (400, 404), f"GET {path}")
                self.assertNotIn(b"heylook-index", body)
                self.assertNotIn(b"root:x:0:0", body)

    def test_a_layout_is_served_only_while_its_photo_is_kept(self):
        kept = make_layout(self.photos, [self.name])
        status, _, body = self.gallery.request("GET", f"/layout/{kept.name}", cookie=self.cookie)
        self.assertEqual((status, sha256(body)), (200, sha256(kept.read_bytes())))
        # A layout named after a retake, after no photo, or under a name that is no layout's; one that is a link.
        retake = make_layout(self.photos, [self.name])
        retake = retake.rename(retake.with_name(self.discarded[:-4] + "-strip.jpg"))
        secret = self.folder / "secret.jpg"
        secret.write_bytes(b"\xff\xd8 not a layout of the party")
        linked = self.photos / "layouts" / (self.names[1][:-4] + "-grid.jpg")
        linked.symlink_to(secret)
        for name in (retake.name, "HeyLook_2026-01-01_00-00-00_999999-strip.jpg", self.name[:-4] + "-poster.jpg",
                     self.name, "index.txt", linked.name):
            with self.subTest(name=name):
                self.assertRefused(f"/layout/{name}", leaked=b"not a layout of the party")
        status, _, body = self.gallery.request("GET", f"/photo/{self.names[1]}", cookie=self.cookie)
        self.assertEqual(status, 200)
        self.assertNotIn(b"a class=\"layout\"", body, "a link offered as a layout")
        # The photo deleted (cleanup), its layout is no longer served.
        (self.photos / self.name).unlink()
        deadline = time.monotonic() + WAIT
        while self.gallery.request("GET", f"/layout/{kept.name}", cookie=self.cookie)[0] == 200:
            self.assertLess(time.monotonic(), deadline, f"{kept.name} still served {WAIT} s after its photo went")
            time.sleep(0.05)

    def test_a_retake_or_a_missing_photo_is_not_served(self):
        for route in ("photo", "original", "thumb"):
            for name in (self.discarded, "HeyLook_2026-01-01_00-00-00_999999.jpg", "HeyLook_undated_999999.jpg"):
                with self.subTest(route=route, name=name):
                    self.assertRefused(f"/{route}/{name}")
        # Photos that leave the store after the gallery listed them and made their thumbnails: one a retake (moved
        # to discarded/ as the booth does), one deleted. Both go, thumbnails included.
        retake, deleted = self.names[1], self.names[2]
        for name in (retake, deleted):
            status, _, _ = self.gallery.request("GET", f"/thumb/{name}", cookie=self.cookie)
            self.assertEqual(status, 200)
            self.assertTrue((self.folder / "cache" / name).exists(), f"no thumbnail of {name} in the cache")
        os.rename(self.photos / retake, self.photos / "discarded" / retake)
        (self.photos / deleted).unlink()
        for name in (retake, deleted):
            deadline = time.monotonic() + WAIT
            while (self.gallery.request("GET", f"/original/{name}", cookie=self.cookie)[0] == 200
                   or (self.folder / "cache" / name).exists()):
                self.assertLess(time.monotonic(), deadline, f"{name} or its thumbnail still there {WAIT} s after")
                time.sleep(0.05)
            for route in ("photo", "original", "thumb"):
                with self.subTest(route=route, gone=name):
                    self.assertRefused(f"/{route}/{name}")
        status, _, body = self.gallery.request("GET", "/", cookie=self.cookie)
        self.assertEqual(status, 200)
        self.assertNotIn(retake.encode(), body)
        self.assertNotIn(deleted.encode(), body)
        self.assertIn(self.names[0].encode(), body)

    def test_a_raw_kept_beside_a_photo_is_never_served_listed_or_zipped(self):
        # A camera over USB shooting RAW+JPEG: the booth keeps the RAW beside its photo, under its name (PhotoStore).
        # Guests get the photo; the RAW is for the photographer's stick alone.
        raw = self.name[:-4] + ".cr2"
        (self.photos / raw).write_bytes(b"II*\x00 the camera's RAW of the party")
        self.copy_in_by_hand("HeyLook_2026-01-02_03-04-06_000078.jpg")  # heard of after the RAW
        for route in ("original", "thumb", "photo", "layout"):
            with self.subTest(route=route):
                self.assertRefused(f"/{route}/{raw}", leaked=b"the camera's RAW")
        for path in ("/", f"/photo/{self.name}", "/zip/all", f"/zip/day/{day_of(self.name)}"):
            with self.subTest(path=path):
                status, _, body = self.gallery.request("GET", path, cookie=self.cookie)
                self.assertEqual(status, 200, f"GET {path}")
                self.assertNotIn(b"the camera's RAW", body, f"GET {path} holds the RAW")
                self.assertNotIn(raw.encode(), body, f"GET {path} names the RAW")
        status, _, body = self.gallery.request("GET", f"/original/{self.name}", cookie=self.cookie)
        self.assertEqual((status, sha256(body)), (200, sha256(self.store_bytes(self.name))))

    def test_a_symlink_in_the_store_is_not_followed(self):
        secret = self.folder / "secret.jpg"
        secret.write_bytes(b"\xff\xd8 not a photo of the party")
        link = "HeyLook_2026-01-02_03-04-05_000077.jpg"
        (self.photos / link).symlink_to(secret)
        self.copy_in_by_hand("HeyLook_2026-01-02_03-04-06_000078.jpg")  # heard of after the link
        for route in ("original", "thumb"):
            with self.subTest(route=route):
                status, _, body = self.gallery.request("GET", f"/{route}/{link}", cookie=self.cookie)
                self.assertNotEqual(status, 200)
                self.assertNotIn(b"not a photo of the party", body)
        status, _, body = self.gallery.request("GET", "/zip/all", cookie=self.cookie)
        self.assertEqual(status, 200)
        self.assertNotIn(b"not a photo of the party", body)
        self.assertNotIn(link.encode(), body)

    def test_a_huge_header_is_refused_and_the_server_goes_on(self):
        # 431 Request Header Fields Too Large, by name (HeaderOverflowAnswer; without it, 400): a field over
        # 8 KiB, headers over 16 KiB in all, more than 64 fields.
        status, _, _ = self.gallery.request("GET", "/", {"X-Padding": "a" * 20_000}, cookie=self.cookie)
        self.assertEqual(status, 431)
        many = {f"X-Header-{i}": "b" * 200 for i in range(100)}
        status, _, _ = self.gallery.request("GET", "/", many, cookie=self.cookie)
        self.assertEqual(status, 431)
        numerous = {f"X-H-{i}": "c" for i in range(70)}
        status, _, _ = self.gallery.request("GET", "/", numerous, cookie=self.cookie)
        self.assertEqual(status, 431)
        status, _, body = self.gallery.request("GET", "/", cookie=self.cookie)
        self.assertEqual(status, 200)
        self.assertIn(self.name.encode(), body)

    def test_a_client_asking_too_fast_is_told_to_wait(self):
        # The budget: a burst of 240, then 30 a second (RequestBudget). Eight threads ask as fast as they can (so a
        # busy machine still asks faster than 30 a second) until one is refused, 3,000 requests at most.
        lock, statuses, retry = threading.Lock(), [], []
        def ask():
            for _ in range(375):
                status, headers, _ = self.gallery.request("GET", "/static/gallery.css")
                with lock:
                    statuses.append(status)
                    if status == 429:
                        retry.append(headers.get("Retry-After"))
                        return
        threads = [threading.Thread(target=ask) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(WAIT * 4)
        self.assertTrue(set(statuses) <= {200, 429}, set(statuses))
        self.assertIn(429, statuses, f"no request of {len(statuses)} was refused")
        self.assertGreaterEqual(statuses.count(200), 240, "the burst is served")
        self.assertTrue(retry[0] and retry[0].isdigit(), f"Retry-After: {retry[0]!r}")
        time.sleep(int(retry[0]))
        status, _, _ = self.gallery.request("GET", "/static/gallery.css")
        self.assertEqual(status, 200, "after waiting, the client is served again")

    def test_a_request_trickled_a_byte_at_a_time_is_closed(self):
        # Slowloris: the head must be complete within 10 s of waiting for it (RequestHeadDeadline), though every
        # byte restarts the idle timeout. One byte a second for at most 25 s.
        with socket.create_connection((HOST, self.gallery.port), timeout=WAIT) as slow:
            slow.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            started, closed = time.monotonic(), None
            slow.settimeout(1.0)
            while closed is None and time.monotonic() - started < 25:
                try:
                    if slow.recv(1024) == b"":
                        closed = time.monotonic() - started
                except socket.timeout:
                    try:
                        slow.sendall(b"a")
                    except OSError:
                        closed = time.monotonic() - started
                except OSError:
                    closed = time.monotonic() - started
        print(f"\n  a request trickled a byte a second was closed after {closed} s")
        self.assertIsNotNone(closed, "the trickled request was never closed")
        self.assertGreaterEqual(closed, 9)
        status, _, _ = self.gallery.request("GET", "/", cookie=self.cookie)
        self.assertEqual(status, 200, "the server goes on")

    def test_range_and_head_on_an_original(self):
        data = self.store_bytes(self.name)
        status, headers, body = self.gallery.request(
            "GET", f"/original/{self.name}", {"Range": "bytes=0-99"}, cookie=self.cookie)
        self.assertEqual(status, 206)
        self.assertEqual(headers.get("Content-Range"), f"bytes 0-99/{len(data)}")
        self.assertEqual(body, data[:100])
        status, headers, body = self.gallery.request(
            "GET", f"/original/{self.name}", {"Range": "bytes=-10"}, cookie=self.cookie)
        self.assertEqual((status, body), (206, data[-10:]))
        status, headers, _ = self.gallery.request(
            "GET", f"/original/{self.name}", {"Range": f"bytes={len(data)}-"}, cookie=self.cookie)
        self.assertEqual(status, 416)

        status, headers, body = self.gallery.request("GET", f"/original/{self.name}", cookie=self.cookie)
        self.assertEqual((status, len(body)), (200, len(data)))
        self.assertEqual(body, data)
        etag = headers.get("ETag")
        self.assertTrue(etag)
        status, _, body = self.gallery.request(
            "GET", f"/original/{self.name}", {"If-None-Match": etag}, cookie=self.cookie)
        self.assertEqual((status, body), (304, b""))

        # HEAD, read off the socket: the headers of the GET, and not one byte of body.
        with socket.create_connection((HOST, self.gallery.port), timeout=WAIT) as s:
            s.sendall(f"HEAD /original/{self.name} HTTP/1.1\r\nHost: {HOST}\r\nCookie: heylook={self.cookie}\r\n"
                      "Connection: close\r\n\r\n".encode())
            raw = b""
            while chunk := s.recv(65536):
                raw += chunk
        head, _, rest = raw.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        self.assertRegex(lines[0], r"^HTTP/1\.1 200 ")
        fields = {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:])}
        self.assertEqual(int(fields["content-length"]), len(data))
        self.assertEqual(fields.get("etag"), etag)
        self.assertEqual(rest, b"", "HEAD sent a body")


class ScreenshotTests(GalleryCase):
    """The screenshots in docs/images, rewritten only with HEYLOOK_SCREENSHOTS=1 (so CI never changes them)."""

    def setUp(self):
        if not SCREENSHOTS:
            self.skipTest("HEYLOOK_SCREENSHOTS=1 rewrites docs/images/gallery-*.png")
        super().setUp()

    def save(self, name):
        path = IMAGES / name
        self.assertTrue(self.driver.save_screenshot(str(path)), name)
        print(f"\n  screenshot {path.relative_to(ROOT)} ({path.stat().st_size} bytes)")

    def wait_for_thumbnails(self):
        wait_for(self.driver, "every thumbnail loaded", lambda d: all(
            loaded(d, img) for img in d.find_elements(By.CSS_SELECTOR, "a.thumb img")))

    def test_screenshots(self):
        driver = self.open_browser(PHONE)
        driver.get(self.gallery.url)
        wait_for(driver, "the code field", lambda d: d.find_element(By.CSS_SELECTOR, "input#code"))
        self.save("gallery-phone-code.png")
        self.open_gallery()
        self.wait_for_thumbnails()
        self.save("gallery-phone.png")
        driver.quit()
        self.driver = None

        self.driver = driver = self.open_browser(TABLET)
        self.open_gallery()
        self.wait_for_thumbnails()
        self.save("gallery-tablet.png")
        name = newest_first(self.names)[0][1][0]
        driver.find_element(By.CSS_SELECTOR, "a.thumb").click()
        wait_for(driver, "the photo page", lambda d: d.current_url.endswith("/photo/" + name))
        photo = driver.find_element(By.CSS_SELECTOR, "img#photo")
        wait_for(driver, "the photo loaded", lambda d: loaded(d, photo))
        self.save("gallery-photo.png")


if __name__ == "__main__":
    unittest.main()
