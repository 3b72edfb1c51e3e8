#!/usr/bin/env python3
"""The docs check: the manual says only what the booth has (scripts/check-docs runs it; scripts/test runs that).

Checks, each named in its failures:
- links: every relative link and image in the Markdown files resolves to a file (and its #anchor to a heading);
- keys: every config key the docs name (`table.key`) is one the config reader has (deploy/booth.toml names them all,
  as ConfigDocsTests checks);
- commands: every `booth COMMAND` the docs show is a command of `booth --help`;
- readme: README.md is at most 200 lines;
- version: the README's status line names `booth --version`'s version;
- man: the man page has a section for every command of `booth --help` and no other, each command's options are
  those of `booth COMMAND --help`, and its version is `booth --version`'s;
- wiring: docs/images/wiring.svg is what scripts/draw-wiring draws from deploy/booth.toml now.
"""
import argparse
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
TABLES = ("booth", "sound", "countdown", "camera", "export", "gpio")
KEY = re.compile(r"^(%s)\.([a-z][a-z0-9_]*)$" % "|".join(TABLES))
# Names that look like keys but are files (`booth.toml`, `booth.1`).
FILE_SUFFIXES = {"toml", "1", "md", "service", "socket", "rules", "jpg", "png", "svg", "sh", "py", "swift", "txt",
                 "jsonl", "json", "deb", "wav", "log", "out", "err", "lock", "target", "mount", "timer", "conf", "gz"}
README_LIMIT = 200


def markdown_files(root):
    """The Markdown files the checks read: the README, the changelog, docs/ and the rig's README."""
    files = [root / "README.md", root / "CHANGELOG.md", root / "Tests/Rig/README.md"]
    files += sorted((root / "docs").rglob("*.md"))
    return [f for f in files if f.exists()]


def strip_code_blocks(text):
    """The text with fenced code blocks blanked (links inside code are not links), line numbers kept."""
    out, fenced = [], False
    for line in text.split("\n"):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            out.append("")
        else:
            out.append("" if fenced else line)
    return out


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"`|\*\*|\[|\]\([^)]*\)", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    found, counts = set(), {}
    for line in strip_code_blocks(path.read_text(encoding="utf-8")):
        match = re.match(r"^#{1,6} (.+)$", line)
        if match:
            base = slug(match[1])
            n = counts.get(base, 0)
            counts[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
    return found


LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)|<img\s[^>]*\bsrc=\"([^\"]+)\"")


def check_links(files, root):
    problems = []
    for path in files:
        for number, line in enumerate(strip_code_blocks(path.read_text(encoding="utf-8")), 1):
            for markdown, html in LINK.findall(re.sub(r"`[^`]*`", "", line)):
                target = markdown or html
                if re.match(r"^[a-z][a-z0-9+.-]*:", target):
                    continue  # http:, https:, mailto:: not checked (the machines reach no web)
                file_part, _, anchor = target.partition("#")
                where = f"{path.relative_to(root)}:{number}"
                resolved = (path.parent / file_part).resolve() if file_part else path
                if not resolved.exists():
                    problems.append(f"{where}: link to {target}: {file_part} does not exist")
                elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
                    problems.append(f"{where}: link to {target}: no heading '#{anchor}' in {file_part or path.name}")
    return problems


def code_spans(text):
    """Inline code spans and the lines of fenced code blocks, with their line numbers."""
    fenced = False
    for number, line in enumerate(text.split("\n"), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            yield number, re.sub(r"(^|\s)#.*$", "", line)  # a shell comment is prose
        else:
            for span in re.findall(r"`([^`]+)`", line):
                yield number, span


def config_keys(root):
    """Every key deploy/booth.toml names, set or commented out (the optional lines)."""
    keys, table = set(), ""
    for line in (root / "deploy/booth.toml").read_text(encoding="utf-8").split("\n"):
        match = re.match(r"^\[([a-z]+)\]", line)
        if match:
            table = match[1]
            continue
        match = re.match(r"^#?\s*([a-z][a-z0-9_]*)\s*=", line)
        if match and table:
            keys.add(f"{table}.{match[1]}")
    return keys


def check_keys(files, root, keys):
    problems = []
    for path in files:
        for number, span in code_spans(path.read_text(encoding="utf-8")):
            # A key stands alone: not inside a path or a longer name (`HeyLook/.heylook-export.lock`).
            for token in re.findall(r"(?<![\w./-])(?:%s)\.[a-z][a-z0-9_]*\b" % "|".join(TABLES), span):
                if not KEY.match(token) or token.rsplit(".", 1)[1] in FILE_SUFFIXES:
                    continue
                if token not in keys and not re.search(re.escape(token) + r"[/.-]", span):
                    problems.append(f"{path.relative_to(root)}:{number}: `{token}` is not a config key "
                                    f"(deploy/booth.toml lists them)")
    return problems


# `booth COMMAND` where booth is what a shell runs: the first word of a line, of a pipeline's stage or of `$(...)`,
# after `sudo`, or as a path (`scripts/booth`, `.build/release/booth`); not an argument (`rig_gpio_click booth button`).
COMMAND = re.compile(r"(?:^|[|;&(]|\$\()\s*(?:sudo\s+(?:-[ugCDhpr]\s+\S+\s+|-\S+\s+)*)?(?:\S*/)?booth\s+([a-z][a-z-]*)\b",
                     re.M)


def check_commands(files, root, commands):
    problems = []
    for path in files:
        for number, span in code_spans(path.read_text(encoding="utf-8")):
            for name in COMMAND.findall(span.strip()):
                if name not in commands:
                    problems.append(f"{path.relative_to(root)}:{number}: `booth {name}` is not a command of "
                                    f"booth --help ({', '.join(sorted(commands))})")
    return problems


def check_readme(root):
    lines = (root / "README.md").read_text(encoding="utf-8").count("\n")
    return [] if lines <= README_LIMIT else [f"README.md: {lines} lines; at most {README_LIMIT} (the rest in docs/)"]


def booth_version(version_text):
    """The version `booth --version` prints ("HeyLook Booth 0.10.4 (built with …)"), or "(none)"."""
    version = re.search(r"HeyLook Booth (\S+)", version_text)
    return version[1] if version else "(none)"


def check_version(root, version):
    """The README's "**Status:** version X" names the booth's version. (The changelog's newest section is held to it by
    BoothVersionTests, which scripts/package's reading of that heading relies on.)"""
    status = re.search(r"^\*\*Status:\*\* version (\S+?)[ ,]", (root / "README.md").read_text(encoding="utf-8"), re.M)
    if status and status[1] == version:
        return []
    return [f"README.md: the status line names version {status[1] if status else '(none)'}, booth --version says "
            f"{version}"]


def help_commands(help_text):
    """The commands `booth --help` lists under SUBCOMMANDS."""
    section = help_text.split("SUBCOMMANDS:", 1)[1] if "SUBCOMMANDS:" in help_text else ""
    return {m for m in re.findall(r"^  ([a-z][a-z-]*)\b", section, re.M)}


def help_options(help_text):
    """The long options a command's --help lists, without --help and --version (every command has them)."""
    section = help_text.split("OPTIONS:", 1)[1] if "OPTIONS:" in help_text else ""
    found = set(re.findall(r"^  (?:-[a-z], )?(--[a-z][a-z-]*)", section, re.M))
    return found - {"--help", "--version"}


def man_sections(man_text):
    """Each `.SS` section of COMMANDS → the long options its `.B`/`.BI` lines name."""
    sections, current, in_commands = {}, None, False
    for line in man_text.split("\n"):
        if line.startswith(".SH"):
            in_commands = line[3:].strip().strip('"') == "COMMANDS"
            current = None
        elif in_commands and line.startswith(".SS"):
            current = line[3:].strip().strip('"')
            sections[current] = set()
        elif current:
            option = re.match(r"^\.(?:B|BI)\s+((?:\\-\\-|--)[a-z][a-z\\-]*)", line)
            if option:
                sections[current].add(option[1].replace("\\-", "-"))
    return sections


def check_man(man_text, version_text, commands, options):
    """`commands`: the names `booth --help` lists; `options`: name → its --help options."""
    problems = []
    sections = man_sections(man_text)
    for name in sorted(commands - sections.keys()):
        problems.append(f"deploy/debian/booth.1: no section for `booth {name}` (COMMANDS, .SS {name})")
    for name in sorted(sections.keys() - commands):
        problems.append(f"deploy/debian/booth.1: section {name} is not a command of booth --help")
    for name in sorted(commands & sections.keys()):
        for option in sorted(options[name] - sections[name]):
            problems.append(f"deploy/debian/booth.1: `booth {name}` lacks {option} (booth {name} --help has it)")
        for option in sorted(sections[name] - options[name]):
            problems.append(f"deploy/debian/booth.1: `booth {name}` names {option}, which booth {name} --help lacks")
    version = booth_version(version_text)
    th = re.search(r'^\.TH\s+\S+\s+\S+\s+\S+\s+"heylook-booth ([^"]+)"', man_text, re.M)
    if not th or th[1] != version:
        problems.append(f"deploy/debian/booth.1: .TH names version {th[1] if th else '(none)'}, booth --version "
                        f"says {version}")
    return problems


def run(booth, *arguments):
    return subprocess.run([booth, *arguments], check=True, capture_output=True, text=True).stdout


def check_wiring(root):
    result = subprocess.run([sys.executable, str(root / "scripts/draw-wiring"), "--check"], capture_output=True,
                            text=True)
    return [] if result.returncode == 0 else [f"docs/images/wiring.svg: {result.stdout}{result.stderr}".strip()]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--booth", default=str(ROOT / ".build/debug/booth"), help="the booth binary to ask")
    args = parser.parse_args(argv)
    files = markdown_files(ROOT)
    commands = help_commands(run(args.booth, "--help"))
    options = {name: help_options(run(args.booth, name, "--help")) for name in commands}
    version_text = run(args.booth, "--version")
    checks = {
        "links": check_links(files, ROOT),
        "keys": check_keys(files, ROOT, config_keys(ROOT)),
        "commands": check_commands(files, ROOT, commands),
        "readme": check_readme(ROOT),
        "version": check_version(ROOT, booth_version(version_text)),
        "man": check_man((ROOT / "deploy/debian/booth.1").read_text(encoding="utf-8"), version_text, commands, options),
        "wiring": check_wiring(ROOT),
    }
    for name, problems in checks.items():
        for problem in problems:
            print(f"docs: {name}: {problem}")
    failed = sum(1 for problems in checks.values() if problems)
    print(f"docs: {len(files)} Markdown files, {len(commands)} commands")
    print(f"docs: {len(checks) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
