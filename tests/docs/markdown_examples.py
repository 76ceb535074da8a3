"""Runs the examples of the project's Markdown documents and checks the output they show.

A pytest plugin over Sybil (https://sybil.readthedocs.io: it finds the fenced blocks and the
HTML-comment directives of a Markdown file and makes each example a pytest item). Run it with
``scripts/test-docs.sh`` (which says which documents and which languages); this module holds only
what Sybil leaves to its users: how a shell, Python or Node example is run and how the output it
prints is compared with, or written into (``--bless``), the document.

What is an example (see docs/doc-tests.md for the writer's side):

- ```` ```python ```` blocks run in one namespace per document, in order; what they print is
  compared with an ```` ```output ```` block that follows directly (only blank lines between).
- ```` ```sh ```` / ```` ```bash ```` blocks run in one bash process per document (variables
  carry over from block to block, as in a terminal), under ``set -euo pipefail``: every command
  must succeed. An ```` ```output ```` block that follows is compared with what the block printed.
- ```` ```console ```` blocks are a transcript: each ``$ `` line (with the lines that continue
  it: after a ``\\``, or starting with the ``> `` prompt) is a command run in the same bash process, and the lines up to the next ``$ `` line are what
  it prints (standard output and standard error together). A command may fail (show ``$ echo
  $?`` to make its status part of the transcript).
- ```` ```js ```` blocks are each a Node module (ES module when it has an ``import``, else
  CommonJS), run with ``node`` where ``import … from 'alama'`` finds the package built in
  ``node/``; an ```` ```output ```` block that follows is compared with its standard output.
- ``<!-- invisible-code-block: LANG … -->`` runs like a block of LANG without being shown (set-up
  and checks; a JS one is appended to the JS block just above it).
- ``<!-- skip: next "why" -->`` (Sybil's) skips the next example on purpose, with the reason in
  the test report: pseudo-code, an install step that CI's own steps perform, another platform.
  ``<!-- skip: next if(SAMPLES is None, "needs ../shared/samples") -->`` skips when the real
  samples are absent.
- ``<!-- doctest: background until=URL -->`` before a sh block starts it in the background (a
  server) and waits until URL answers.
- Blocks in other runnable languages (kotlin, swift) must be skipped with a reason: the runner
  refuses to pass over one silently. ``text``, ``json``, ``yaml`` and ``output`` blocks are data.

Comparison: line by line after removing trailing spaces; ``...`` in a shown line matches any
text (doctest's ELLIPSIS, for ids and times that change from run to run). With ``--bless`` (or
``ALAMA_BLESS=1``) a differing output block is rewritten from what the example printed instead of
failing (a block with ``...`` is not: its elisions are kept by hand), and the files are written
when the session ends.

Where a document runs (its folder, ``alama`` and ``cargo``, ``SAMPLES``): ``workspace.py``;
comparing and blessing: ``output_check.py``.

Over 400 lines: the specification of an example above, then the block finder and one short
runner per language that it names; the rest is already in those two modules.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import textwrap
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from output_check import ELLIPSIS, REWRITES, Rewrite, Settings, check_output, diff, matches
from output_check import normalise, write_rewrites
from sybil import Document, Example, Region, Sybil
from sybil.parsers.markdown import SkipParser
from sybil.parsers.markdown.lexers import DirectiveInHTMLCommentLexer, FencedCodeBlockLexer
from workspace import TIMEOUT_SECS, Shell, Workspace, setup, teardown

REPO = Path(__file__).resolve().parents[2]

#: Languages the runner runs, by the name of the fence's info string.
SHELL = {"sh", "bash"}
CONSOLE = {"console"}
PYTHON = {"python", "py"}
JS = {"js", "javascript", "mjs"}
#: Runnable languages this runner cannot run here: such a block must be skipped with a reason.
FOREIGN = {"kotlin", "swift", "ts", "typescript", "java", "rust"}
#: The groups `--doc-lang` selects: the CLI and the service (shell), the Python and Node packages.
GROUPS = {"cli": SHELL | CONSOLE, "python": PYTHON, "node": JS}

DIRECTIVE = re.compile(r"<!--\s*doctest:\s*(?P<name>[\w-]+)(?P<args>[^>]*?)\s*-->")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("markdown examples")
    group.addoption(
        "--bless",
        action="store_true",
        default=os.environ.get("ALAMA_BLESS", "") not in ("", "0"),
        help="rewrite the output blocks that differ from what the examples print",
    )
    group.addoption(
        "--doc-lang",
        default="cli,python,node",
        help="comma-separated groups to run: cli (sh, bash, console), python, node",
    )


# --------------------------------------------------------------------------------------------
# Parsing: blocks, their output blocks and directives


@dataclass
class Block:
    """A fenced block (or an invisible one) of the document."""

    language: str
    words: list[str]
    source: str
    start: int  # the region: from the opening fence (or comment) …
    end: int  # … to the end of the closing fence
    content_start: int  # the raw content, without the fences
    content_end: int
    prefix: str  # what each raw content line starts with (a list item's indent)
    invisible: bool = False


@dataclass
class Snippet:
    """What an evaluator runs: the block, the output block shown after it, its directives."""

    block: Block
    output: Block | None
    directives: dict[str, str]
    appended: list[str] = field(default_factory=list)


def _blocks(document: Document) -> list[Block]:
    found: list[Block] = []
    for region in FencedCodeBlockLexer(language=r"[^\n]*")(document):
        info = region.lexemes["language"].strip()
        words = info.split()
        text = document.text
        content_start = region.start + region.lexemes["source"].offset
        content_end = text.rfind("\n", region.start, region.end - 1) + 1
        opening = text[region.start : text.find("\n", region.start)]
        prefix = opening[: len(opening) - len(opening.lstrip(" >"))]
        found.append(
            Block(
                language=words[0].lower() if words else "",
                words=words,
                source=str(region.lexemes["source"]),
                start=region.start,
                end=region.end,
                content_start=content_start,
                content_end=max(content_start, content_end),
                prefix=prefix,
            )
        )
    lexer = DirectiveInHTMLCommentLexer(directive=r"invisible-code-block", arguments=r"[\w-]+")
    for region in lexer(document):
        source = str(region.lexemes["source"])
        found.append(
            Block(
                language=region.lexemes["arguments"].lower(),
                words=[region.lexemes["arguments"]],
                source=textwrap.dedent(source),
                start=region.start,
                end=region.end,
                content_start=region.start,
                content_end=region.end,
                prefix="",
                invisible=True,
            )
        )
    return sorted(found, key=lambda b: b.start)


def _directives(between: str) -> dict[str, str]:
    return {m["name"]: m["args"].strip() for m in DIRECTIVE.finditer(between)}


class MarkdownExamples:
    """The Sybil parser: one region per runnable block (with its output block, when shown)."""

    def __init__(self, languages: set[str]) -> None:
        self.languages = languages

    def __call__(self, document: Document) -> Iterator[Region]:
        document.namespace["__doc_path__"] = document.path
        blocks = _blocks(document)
        text = document.text
        i = 0
        last_end = 0
        previous: Snippet | None = None
        while i < len(blocks):
            block = blocks[i]
            i += 1
            directives = _directives(text[last_end : block.start])
            last_end = block.end
            lang = block.language
            if block.invisible and lang in JS and previous is not None:
                # A JS check runs in the module of the block above it.
                previous.appended.append(block.source)
                continue
            if lang not in PYTHON | SHELL | CONSOLE | JS | FOREIGN:
                continue
            output = None
            if lang not in CONSOLE and i < len(blocks):
                after = blocks[i]
                if after.language == "output" and not text[block.end : after.start].strip():
                    output = after
                    i += 1
                    last_end = after.end
            snippet = Snippet(block, output, directives)
            previous = snippet if lang in JS and not block.invisible else None
            if lang in FOREIGN:
                yield Region(block.start, block.end, snippet, _foreign)
            elif lang in self.languages:
                evaluator = {**dict.fromkeys(PYTHON, _python), **dict.fromkeys(JS, _node)}.get(
                    lang, _shell
                )
                yield Region(block.start, (output or block).end, snippet, evaluator)
            else:
                # Another group's example: reported as skipped, so no block goes uncounted.
                yield Region(block.start, (output or block).end, snippet, _other_group)


# --------------------------------------------------------------------------------------------
# Evaluators

def _shell_of(example: Example) -> Shell:
    workspace: Workspace = example.namespace["__workspace__"]
    if workspace.shell is None:
        workspace.shell = Shell(workspace)
    return workspace.shell


def _wait_for(url: str) -> str | None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2):  # noqa: S310 - a loopback URL of the doc
                return None
        except OSError:
            time.sleep(0.2)
    return f"{url} did not answer within 60 s"


def _shell(example: Example) -> str | None:
    snippet: Snippet = example.parsed
    shell = _shell_of(example)
    if snippet.block.language in CONSOLE:
        return _console(example, shell)
    background = snippet.directives.get("background")
    if background is not None:
        ws = shell.workspace
        log = ws.root / f".background-{ws.blocks}.log"
        script = ws.root / f".background-{ws.blocks}.sh"
        script.write_text(snippet.block.source, encoding="utf-8")
        status, printed = shell.run(f'source "{script}" > "{log}" 2>&1 &', strict=True)
        if status != 0:
            return f"could not start in the background:\n{printed}"
        match = re.search(r"until=(\S+)", background)
        if match:
            failure = _wait_for(match[1])
            if failure:
                return f"{failure}; its log:\n{log.read_text(errors='replace')}"
        return None
    status, printed = shell.run(snippet.block.source, strict=True)
    if status != 0:
        return f"the block failed (exit status {status}); it printed:\n{printed}"
    return check_output(example, snippet.output, printed)


PROMPT = "$ "
CONTINUATION = "> "


def _console(example: Example, shell: Shell) -> str | None:
    """A transcript: `$ ` commands, each followed by what it prints."""
    snippet: Snippet = example.parsed
    block = snippet.block
    commands: list[tuple[list[str], list[str]]] = []
    lines = block.source.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.startswith(PROMPT):
            return f"a console block starts with a `$ ` command, not {line!r}"
        command = [line]
        # Continued by a trailing backslash, or by the shell's `> ` prompt (a loop, a quote).
        while i + 1 < len(lines) and (
            command[-1].endswith("\\") or lines[i + 1].startswith(CONTINUATION)
        ):
            i += 1
            command.append(lines[i])
        i += 1
        shown: list[str] = []
        while i < len(lines) and not lines[i].startswith(PROMPT):
            shown.append(lines[i])
            i += 1
        commands.append((command, shown))
    rewritten: list[str] = []
    failures: list[str] = []
    for command, shown in commands:
        source = "\n".join(
            [command[0][len(PROMPT) :]]
            + [c[len(CONTINUATION) :] if c.startswith(CONTINUATION) else c for c in command[1:]]
        )
        _status, printed = shell.run(source, strict=False)
        want = normalise("\n".join(shown))
        got = normalise(printed)
        rewritten.extend(command)
        if matches(want, got):
            rewritten.extend(shown)
            continue
        if Settings.bless and ELLIPSIS not in want:
            rewritten.extend(got.splitlines())
            continue
        rewritten.extend(shown)
        failures.append(f"$ {source}\n{diff(want, got)}")
    if failures:
        hint = " (scripts/test-docs.sh --bless rewrites them)"
        return "the transcript differs from what the commands print" + hint + ":\n" + "\n".join(
            failures
        )
    if rewritten != lines:
        body = "".join(block.prefix + line + "\n" for line in rewritten)
        REWRITES.append(Rewrite(example.path, block.content_start, block.content_end, body))
    return None


def _python(example: Example) -> str | None:
    snippet: Snippet = example.parsed
    workspace: Workspace = example.namespace["__workspace__"]
    # The source starts on the line after the opening fence (or comment).
    code = compile("\n" * example.line + snippet.block.source, example.path, "exec")
    printed = io.StringIO()
    cwd = os.getcwd()
    os.chdir(workspace.root)
    try:
        with contextlib.redirect_stdout(printed):
            exec(code, example.namespace)  # noqa: S102 - the document's own example
    finally:
        os.chdir(cwd)
        example.namespace.pop("__builtins__", None)
    return check_output(example, snippet.output, printed.getvalue())


def _node(example: Example) -> str | None:
    snippet: Snippet = example.parsed
    workspace: Workspace = example.namespace["__workspace__"]
    source = "\n".join([snippet.block.source, *snippet.appended])
    is_module = re.search(r"^\s*(import|export)\s", source, re.MULTILINE) is not None
    workspace.blocks += 1
    path = workspace.root / f"example-{workspace.blocks}.{'mjs' if is_module else 'cjs'}"
    path.write_text(source, encoding="utf-8")
    try:
        done = subprocess.run(
            ["node", path.name],
            cwd=workspace.root,
            env=workspace.env,
            capture_output=True,
            text=True,
            timeout=TIMEOUT_SECS,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return f"node did not finish within {TIMEOUT_SECS} s"
    if done.returncode != 0:
        return f"node exited with {done.returncode}:\n{done.stdout}{done.stderr}"
    return check_output(example, snippet.output, done.stdout)


def _foreign(example: Example) -> str | None:
    snippet: Snippet = example.parsed
    return (
        f"a {snippet.block.language} block is runnable code this runner cannot run here: "
        'mark it <!-- skip: next "why" --> (and say where it is tested)'
    )


def _other_group(example: Example) -> None:
    snippet: Snippet = example.parsed
    pytest.skip(f"a {snippet.block.language} example: another --doc-lang group runs it")


# --------------------------------------------------------------------------------------------
# The pytest hook


def _sybil(config: pytest.Config) -> Sybil:
    groups = [g.strip() for g in config.getoption("--doc-lang").split(",") if g.strip()]
    unknown = [g for g in groups if g not in GROUPS]
    if unknown:
        raise pytest.UsageError(f"--doc-lang: unknown group(s) {unknown}; known: {sorted(GROUPS)}")
    languages: set[str] = set().union(*(GROUPS[g] for g in groups))
    return Sybil(
        parsers=[SkipParser(), MarkdownExamples(languages)],
        patterns=["*.md"],
        path=str(REPO),
        setup=setup,
        teardown=teardown,
    )


_COLLECT: Any = None


def pytest_configure(config: pytest.Config) -> None:
    global _COLLECT  # noqa: PLW0603 - the collector of this session's options
    Settings.bless = bool(config.getoption("--bless"))
    _COLLECT = _sybil(config).pytest()


def pytest_sessionfinish(session: pytest.Session) -> None:
    write_rewrites()


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> Any:
    return _COLLECT(file_path, parent)
