"""The static files stay well-formed: every style sheet's braces balance (issue 19: a merge that kept one of two
identical closing braces left the lobby's and the chat's rules inside an unclosed ``@media`` block, so on a laptop
the lobby cards lost their width and the chat its panel)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[1] / "static"
SHEETS = sorted(STATIC.rglob("*.css"))


def depths(text: str) -> list[int]:
    """The brace depth after each line of a style sheet, comments and strings left out.

    >>> depths("a { b: c; }\\n@media x {\\n  d { e: f; }\\n")
    [0, 1, 1]
    """
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    text = re.sub(r"\"[^\"\n]*\"|'[^'\n]*'", '""', text)
    out, depth = [], 0
    for line in text.splitlines():
        depth += line.count("{") - line.count("}")
        out.append(depth)
    return out


def test_there_are_style_sheets() -> None:
    assert {p.name for p in SHEETS} >= {"admiral.css", "dark.css"}


@pytest.mark.parametrize("sheet", SHEETS, ids=lambda p: p.name)
def test_every_brace_of_a_style_sheet_is_closed(sheet: Path) -> None:
    levels = depths(sheet.read_text(encoding="utf-8"))
    assert min(levels, default=0) >= 0, f"{sheet.name}: a '}}' closes nothing at line {levels.index(min(levels)) + 1}"
    assert levels[-1] == 0, f"{sheet.name}: {levels[-1]} block(s) left open"
    # a rule at the top level starts a line; inside an open block it is indented (the house's style)
    lines = sheet.read_text(encoding="utf-8").splitlines()
    for number, (line, depth_before) in enumerate(zip(lines[1:], levels, strict=False), start=2):
        if depth_before > 0 and line[:1] == ".":
            pytest.fail(f"{sheet.name}:{number}: a top-level rule inside an open block: {line[:60]}")


def test_the_check_finds_an_unclosed_media_block() -> None:
    levels = depths("@media (max-width: 420px) {\n  .a { b: c; }\n\n.lobby { max-width: 1000px; }\n")
    assert levels[-1] == 1
