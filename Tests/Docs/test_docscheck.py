"""Tests of the docs check: each check fails on the fault it is named for, and passes the same page without it."""
import pathlib
import tempfile
import unittest

import docscheck

HELP = """OVERVIEW: HeyLook Booth

USAGE: booth <subcommand>

OPTIONS:
  --version               Show the version.
  -h, --help              Show help information.

SUBCOMMANDS:
  simulate (default)      Run the booth with simulated hardware (interactive in
                          a terminal, or from a script).
  photos                  List the photos.

  See 'booth help <subcommand>' for detailed help.
"""
PHOTOS_HELP = """USAGE: booth photos [--config <config>] [--photos <photos>]

OPTIONS:
  --config <config>       The config file (default: /etc/heylook/booth.toml if
                          it exists, else built-in defaults).
  --photos <photos>       The photos folder.
  --version               Show the version.
  -h, --help              Show help information.
"""
MAN = r""".TH BOOTH 1 2026-11-26 "heylook-booth 0.6.0" "HeyLook Booth"
.SH COMMANDS
.SS simulate
.TP
.BI \-\-script " FILE"
a script.
.SS photos
.TP
.BI \-\-config " FILE"
the config.
.TP
.BI \-\-photos " DIR"
the photos folder (instead of
.BR \-\-config 's).
.SH FILES
.TP
.B \-\-notacommandoption
"""
TOML = """[booth]
photos_dir = "/var/lib/heylook/photos"
[gpio]
button = 17
# flash = 12                   # optional
"""


class DocsCheckTests(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.root = pathlib.Path(self.dir.name)
        (self.root / "docs").mkdir()
        (self.root / "deploy").mkdir()
        (self.root / "deploy/booth.toml").write_text(TOML)

    def tearDown(self):
        self.dir.cleanup()

    def page(self, name, text):
        path = self.root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        return path

    def test_a_link_to_a_missing_file_or_heading_fails(self):
        self.page("docs/a.md", "# Title\n\n## Two words\n")
        good = self.page("README.md", "[a](docs/a.md), [b](docs/a.md#two-words), [web](https://example.org/x)\n")
        self.assertEqual(docscheck.check_links([good], self.root), [])
        bad = self.page("README.md", "[a](docs/b.md)\n\n![pic](docs/images/x.png)\n[c](docs/a.md#three)\n"
                                     '<img src="docs/images/y.png" alt="y" width="200">\n')
        problems = docscheck.check_links([bad], self.root)
        self.assertEqual(len(problems), 4, problems)
        self.assertIn("README.md:5: link to docs/images/y.png", problems[3])
        self.assertIn("README.md:1: link to docs/b.md", problems[0])
        self.assertIn("README.md:3: link to docs/images/x.png", problems[1])
        self.assertIn("no heading '#three'", problems[2])

    def test_links_in_code_are_not_links(self):
        page = self.page("README.md", "```\n[a](nowhere.md)\n```\n`[b](nowhere.md)`\n")
        self.assertEqual(docscheck.check_links([page], self.root), [])

    def test_a_key_the_config_lacks_fails_and_files_are_not_keys(self):
        keys = docscheck.config_keys(self.root)
        self.assertEqual(keys, {"booth.photos_dir", "gpio.button", "gpio.flash"})
        good = self.page("docs/c.md", "`gpio.button`, `gpio.flash = 12`, `booth.toml`, `booth.1`, prose booth.nokey,\n"
                                      "`HeyLook/.heylook-export.lock`, `$RIG_OUT/booth.log`, `After=sound.target`\n")
        self.assertEqual(docscheck.check_keys([good], self.root, keys), [])
        bad = self.page("docs/c.md", "set `gpio.buton = 17`\n")
        problems = docscheck.check_keys([bad], self.root, keys)
        self.assertEqual(len(problems), 1, problems)
        self.assertIn("docs/c.md:1: `gpio.buton` is not a config key", problems[0])

    def test_a_command_the_booth_lacks_fails(self):
        commands = docscheck.help_commands(HELP)
        self.assertEqual(commands, {"simulate", "photos"})
        good = self.page("docs/d.md", "`booth photos`, `scripts/booth simulate`, `sudo booth photos`,\n"
                                      "```sh\nbooth --version   # the booth is ready\n```\n`heylook-booth stats`,\n"
                                      "`rig_gpio_click booth button`, `x=$(booth photos | wc -l)`,\n"
                                      "`sudo -u booth booth photos`\n")
        self.assertEqual(docscheck.check_commands([good], self.root, commands), [])
        bad = self.page("docs/d.md", "run `booth gallery --port 0`\n```\n.build/release/booth snap\n"
                                     "printf 'x' | sudo -u booth booth hotspot on\n```\n")
        problems = docscheck.check_commands([bad], self.root, commands)
        self.assertEqual(len(problems), 3, problems)
        self.assertIn("docs/d.md:1: `booth gallery` is not a command", problems[0])
        self.assertIn("docs/d.md:3: `booth snap`", problems[1])
        self.assertIn("docs/d.md:4: `booth hotspot`", problems[2])

    def test_a_readme_over_200_lines_fails(self):
        self.page("README.md", "line\n" * 200)
        self.assertEqual(docscheck.check_readme(self.root), [])
        self.page("README.md", "line\n" * 201)
        self.assertEqual(len(docscheck.check_readme(self.root)), 1)

    def test_the_readme_names_the_booths_version(self):
        self.page("README.md", "# Booth\n\n**Status:** version 0.10.4 ([changelog](CHANGELOG.md)), Apache-2.0.\n")
        self.assertEqual(docscheck.booth_version("HeyLook Booth 0.10.4 (built with libgpiod 1.6.3)\n"), "0.10.4")
        self.assertEqual(docscheck.check_version(self.root, "0.10.4"), [])
        self.assertEqual(docscheck.check_version(self.root, "0.11.0"), [
            "README.md: the status line names version 0.10.4, booth --version says 0.11.0"])
        self.page("README.md", "# Booth\n\nA booth.\n")
        self.assertEqual(docscheck.check_version(self.root, "0.10.4"), [
            "README.md: the status line names version (none), booth --version says 0.10.4"])

    def test_the_man_page_must_match_the_help(self):
        commands = docscheck.help_commands(HELP)
        options = {"simulate": {"--script"}, "photos": docscheck.help_options(PHOTOS_HELP)}
        self.assertEqual(options["photos"], {"--config", "--photos"})
        version = "HeyLook Booth 0.6.0 (built with libgpiod 1.6.3)\n"
        self.assertEqual(docscheck.check_man(MAN, version, commands, options), [])
        # A command the help has and the page lacks; an option the page lacks; one it names that the help lacks.
        problems = docscheck.check_man(MAN, version, commands | {"stats"}, options | {"stats": set()})
        self.assertEqual(problems, ["deploy/debian/booth.1: no section for `booth stats` (COMMANDS, .SS stats)"])
        problems = docscheck.check_man(MAN, version, commands, options | {"simulate": {"--script", "--fast"}})
        self.assertEqual(len(problems), 1, problems)
        self.assertIn("`booth simulate` lacks --fast", problems[0])
        problems = docscheck.check_man(MAN, version, commands, options | {"photos": {"--config"}})
        self.assertEqual(len(problems), 1, problems)
        self.assertIn("names --photos, which booth photos --help lacks", problems[0])
        problems = docscheck.check_man(MAN, version, {"photos"}, options)
        self.assertEqual(problems, ["deploy/debian/booth.1: section simulate is not a command of booth --help"])
        problems = docscheck.check_man(MAN, "HeyLook Booth 0.7.0 (built with libgpiod 2.3)\n", commands, options)
        self.assertEqual(len(problems), 1, problems)
        self.assertIn("names version 0.6.0, booth --version says 0.7.0", problems[0])


if __name__ == "__main__":
    unittest.main()
