"""Comparing what an example printed with the output its document shows, and ``--bless``.

Line by line after trailing spaces are removed; ``...`` in a shown line matches any text
(doctest's ELLIPSIS, whose checker and diff are used). With ``--bless`` a differing block is
recorded as a rewrite instead of failing (not one with ``...``: its elisions are a person's),
and the documents are rewritten when the session ends.
"""

from __future__ import annotations

import doctest
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from markdown_examples import Block
    from sybil import Example

REPO = Path(__file__).resolve().parents[2]
ELLIPSIS = "..."


@dataclass
class Rewrite:
    path: str
    start: int
    end: int
    text: str


#: The rewrites `--bless` asked for, written when the session ends.
REWRITES: list[Rewrite] = []


class Settings:
    """The session's options (set by the plugin's pytest_configure)."""

    bless = False


def normalise(text: str) -> str:
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines) + "\n" if lines else ""


def matches(want: str, got: str) -> bool:
    if want == got:
        return True
    if ELLIPSIS not in want:
        return False
    checker = doctest.OutputChecker()
    return checker.check_output(want, got, doctest.ELLIPSIS)


def diff(want: str, got: str) -> str:
    example = doctest.Example(source="", want=want)
    return doctest.OutputChecker().output_difference(
        example, got, doctest.ELLIPSIS | doctest.REPORT_UDIFF
    )


def check_output(example: Example, output: Block | None, printed: str) -> str | None:
    """None when the shown output (if any) is what was printed; else the failure's text."""
    if output is None:
        return None
    want, got = normalise(output.source), normalise(printed)
    if matches(want, got):
        return None
    if Settings.bless and ELLIPSIS not in want:
        body = "".join(output.prefix + line + "\n" for line in got.splitlines())
        REWRITES.append(Rewrite(example.path, output.content_start, output.content_end, body))
        return None
    hint = "" if ELLIPSIS in want else " (scripts/test-docs.sh --bless rewrites it)"
    return f"the output shown differs from what the example prints{hint}:\n{diff(want, got)}"


def write_rewrites() -> None:
    """Writes the blessed output blocks into their documents (from the end of each file)."""
    by_path: dict[str, list[Rewrite]] = {}
    for rewrite in REWRITES:
        by_path.setdefault(rewrite.path, []).append(rewrite)
    for path, rewrites in by_path.items():
        text = Path(path).read_text(encoding="utf-8")
        for r in sorted(rewrites, key=lambda r: r.start, reverse=True):
            text = text[: r.start] + r.text + text[r.end :]
        Path(path).write_text(text, encoding="utf-8")
        print(f"\nblessed {len(rewrites)} output block(s) in {os.path.relpath(path, REPO)}")
