"""The rules page «Правила» (``GET /rules``, issue 7): a section per unit kind, the scale and the special
collisions as the engine has them (rules §7.1, §7.2), diagrams that agree with the engine's legal actions, and
a link to it in every page's topbar."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from admiral.games.admiral import rulebook
from admiral.games.admiral.rules import (
    SCALE,
    Attack,
    Detonate,
    GameState,
    Kind,
    Move,
    Side,
    apply,
    cell_name,
    legal_actions,
    parse_cell,
)

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Node:
    """An element of the parsed page: tag, attributes, children and text."""

    def __init__(self, tag: str, attrs: dict[str, str], parent: Node | None) -> None:
        self.tag, self.attrs, self.parent = tag, attrs, parent
        self.children: list[Node] = []
        self.parts: list[str | Node] = []

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    def text(self) -> str:
        return " ".join(" ".join((p if isinstance(p, str) else p.text()).split()) for p in self.parts if p).strip()

    def iter(self):
        yield self
        for c in self.children:
            yield from c.iter()

    def find_all(self, tag: str | None = None, cls: str | None = None, **attrs: str) -> list[Node]:
        return [
            n
            for n in self.iter()
            if (tag is None or n.tag == tag)
            and (cls is None or cls in n.classes)
            and all(n.attrs.get(k.replace("_", "-")) == v for k, v in attrs.items())
        ]

    def find(self, tag: str | None = None, cls: str | None = None, **attrs: str) -> Node:
        found = self.find_all(tag, cls, **attrs)
        assert found, f"no <{tag} class={cls} {attrs}>"
        return found[0]


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = self.cur = Node("#root", {}, None)

    def handle_starttag(self, tag, attrs):
        node = Node(tag, {k: v or "" for k, v in attrs}, self.cur)
        self.cur.children.append(node)
        self.cur.parts.append(node)
        if tag not in VOID:
            self.cur = node

    def handle_endtag(self, tag):
        n = self.cur
        while n is not None and n.tag != tag:
            n = n.parent
        if n is not None and n.parent is not None:
            self.cur = n.parent

    def handle_data(self, data):
        self.cur.parts.append(data)


def parse(html: str) -> Node:
    """The page as a tree of :class:`Node`."""
    b = _Builder()
    b.feed(html)
    return b.root


@pytest.fixture
def page(client) -> Node:
    r = client.get("/rules")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    return parse(r.text)


def test_every_kind_has_its_section_with_the_engine_facts(page) -> None:
    for kind in Kind:
        card = page.find("article", id=f"unit-{kind.code}")
        assert card.find(cls="unit-name").text() == kind.ru_name
        assert card.attrs["data-count"] == str(kind.count)
        assert card.attrs["data-strength"] == (str(kind.strength) if kind.strength else "")
        marker = card.find(cls="unit")  # the board's marker, drawn big (static/js/games/admiral/rules.js adds the icon)
        assert marker.attrs["data-kind"] == kind.code and f"k-{kind.code}" in marker.classes
        assert marker.find(cls="code").text() == kind.ru
    rows = page.find("table", cls="fleet-table").find_all("tr")[1:]
    assert [r.attrs["data-kind"] for r in rows] == [k.code for k in Kind]
    assert [int(r.find_all("td")[1].text()) for r in rows] == [k.count for k in Kind]
    assert sum(int(r.find_all("td")[1].text()) for r in rows) == 58


def test_every_local_link_has_its_anchor(page) -> None:
    ids = {n.attrs["id"] for n in page.iter() if "id" in n.attrs}
    links = {n.attrs["href"][1:] for n in page.find_all("a") if n.attrs.get("href", "").startswith("#")}
    assert links - ids == set()
    toc = page.find("nav", cls="rules-toc")
    assert {a.attrs["href"] for a in toc.find_all("a")} >= {"#board", "#scale", "#collisions", "#tactics", "#end"}


def test_scale_table_is_the_engine_scale(page) -> None:
    rows = page.find("table", cls="scale-table").find_all("tr")
    got = [
        (int(r.attrs["data-row"]), tuple(sorted(r.attrs["data-kinds"].split()))) for r in rows if "data-row" in r.attrs
    ]
    want = sorted(((row, tuple(sorted(k.code for k in comp))) for comp, row in SCALE.items()), reverse=True)
    assert got == want
    assert len(got) == 21 and got[0] == (21, ("L", "L")) and got[-1] == (1, ("TR",))
    row19 = page.find("tr", id="scale-19")
    assert "2 Р + ЭС" in row19.text()


#: A board row in any case form; «рядом» (next to) and «рядовой» (rated ship) are other words.
ROW_WORD = re.compile(r"\b[Рр]яд(а|у|е|ы|ов|ам|ами|ах)?\b")


def test_the_scale_speaks_of_strength_and_rows_are_only_the_boards(page, client) -> None:
    """Issue 18 item 6: one word per meaning — the scale's term is «сила», «ряд» is a row of the board."""
    scale = page.find("section", id="scale")
    assert scale.find("table", cls="scale-table").find("th").text() == "Сила"
    assert "3 КР (сила 20), 2 КР (сила 18)" in page.find("article", id="unit-KR").text()
    assert "При равной силе снимаются обе заявленные группы." in page.find("section", id="battle").text()
    for section in ("battle", "scale", "collisions", "fog"):
        found = page.find_all(id=section)
        assert found and not ROW_WORD.search(found[0].text()), section
    assert ROW_WORD.search(page.find(id="board").text())  # the board's rows keep their word
    english = parse(client.get("/rules", headers={"cookie": "admiral_lang=en"}).text)
    assert english.find("table", cls="scale-table").find("th").text() == "Strength"
    for section in ("battle", "scale", "fog"):
        assert not re.search(r"\brows?\b", english.find(id=section).text(), re.I), section


def test_in_english_the_page_writes_the_boards_english_codes_and_columns(client) -> None:
    r = client.get("/rules", headers={"cookie": "admiral_lang=en"})
    page = parse(r.text)
    assert page.find("article", id="unit-KR").find(cls="code").text() == "CR"
    assert page.find("article", id="unit-VMB").find(cls="unit-name").text() == "Naval base"
    assert "2 RD + DD" in page.find("tr", id="scale-19").text()
    assert "3 CR (strength 20)" in page.find("article", id="unit-KR").text()
    columns = [n.text() for n in page.find("div", cls="zones-board").find_all("div", cls="lab-col")]
    assert columns == list("abcdefghijklmn")
    assert "1 — “Cabin Boy”" in page.find("section", id="time").text()
    body = page.find("div", cls="rules").text()
    assert not [w for w in body.split() if any("А" <= ch <= "я" or ch in "Ёё" for ch in w)]


#: rules §7.2, transcribed: row → (attacker removed, target removed, explosion, the carrier's plane removed too).
EXPECTED_7_2 = {
    "ship_on_carrier": (False, True, False, True),
    "aa_on_plane": (False, True, False, False),
    "ship_on_plane": (True, False, False, False),
    "ship_on_armed_torpedo": (True, True, False, False),
    "ship_on_dummy_torpedo": (False, True, False, False),
    "sweeper_on_mine": (False, True, False, False),
    "ship_on_mine": (True, True, False, False),
    "ship_on_stationary_mine": (True, True, False, False),
    "ship_on_fireship": (True, True, False, False),
    "ship_on_bomb": (True, True, True, False),
    "ship_on_base": (False, True, False, False),
    "fireship_on_plane": (False, False, False, False),
    "fireship_on_bomb": (True, True, True, False),
    "fireship_on_other": (True, True, False, False),
    "fireship_on_carrier": (True, True, False, True),
    "plane_on_aa": (True, False, False, False),
    "plane_on_ship": (False, True, False, False),
    "plane_on_carrier": (False, True, False, True),
    "plane_on_base": (False, True, False, False),
    "plane_on_plane": (True, True, False, False),
    "plane_on_weapon": (False, False, False, False),
    "plane_on_bomb_far": (False, True, True, False),
    "plane_on_bomb_near": (True, True, True, False),
    "torpedo_on_any": (True, True, False, False),
    "torpedo_on_carrier": (True, True, False, True),
    "torpedo_on_bomb": (True, True, True, False),
}


def test_collision_table_rows_are_rules_7_2(page) -> None:
    rows = {
        r.attrs["data-collision"]: r
        for r in page.find("table", cls="collision-table").find_all("tr")
        if "data-collision" in r.attrs
    }
    assert set(rows) == set(EXPECTED_7_2)

    def flag(r: Node, name: str) -> bool:
        assert r.attrs[name] in ("true", "false")
        return r.attrs[name] == "true"

    for key, want in EXPECTED_7_2.items():
        r = rows[key]
        got = tuple(flag(r, f"data-{n}") for n in ("attacker-removed", "target-removed", "explosion", "plane"))
        assert got == want, key
        attacker_fate, target_fate = r.find_all("td", cls="fate-cell")
        assert ("погибает" in attacker_fate.text()) == want[0] and ("остаётся" in attacker_fate.text()) != want[0]
        assert ("погибает" in target_fate.text()) == want[1], key
        assert ("взрыв" in target_fate.text()) == want[2], key
        assert ("самолёт" in target_fate.text()) == want[3], key


RATED = [k for k in Kind if k.is_rated]
A, L, KR, R, ES, ST, TK, KRPL, TR, PL, S, T, M, SM, BR, AB, VMB = Kind
#: Every (attacker, target, options) a row of the table stands for ("any other ship" is every other ship).
COVERED = {
    "ship_on_carrier": [(x, A, {}) for x in RATED],
    "aa_on_plane": [(x, S, {}) for x in (L, R)],
    "ship_on_plane": [(x, S, {}) for x in RATED if x not in (L, R)],
    "ship_on_armed_torpedo": [(x, T, {"armed": True}) for x in RATED],
    "ship_on_dummy_torpedo": [(x, T, {}) for x in RATED],
    "sweeper_on_mine": [(TR, M, {})],
    "ship_on_mine": [(x, M, {}) for x in RATED if x is not TR],
    "ship_on_stationary_mine": [(x, SM, {}) for x in RATED],
    "ship_on_fireship": [(x, BR, {}) for x in RATED],
    "ship_on_bomb": [(x, AB, {}) for x in RATED],
    "ship_on_base": [(x, VMB, {}) for x in RATED],
    "fireship_on_plane": [(BR, S, {})],
    "fireship_on_bomb": [(BR, AB, {})],
    "fireship_on_carrier": [(BR, A, {})],
    "fireship_on_other": [(BR, t, {}) for t in [*RATED, M, SM, BR, VMB, T]] + [(BR, T, {"armed": True})],
    "plane_on_aa": [(S, t, {}) for t in (L, R)],
    "plane_on_ship": [(S, t, {}) for t in RATED if t not in (L, R)],
    "plane_on_carrier": [(S, A, {})],
    "plane_on_base": [(S, VMB, {})],
    "plane_on_plane": [(S, S, {})],
    "plane_on_weapon": [(S, t, {}) for t in (M, SM, T, BR)] + [(S, T, {"armed": True})],
    "plane_on_bomb_far": [(S, AB, {"distance": d}) for d in (3, 4)],
    "plane_on_bomb_near": [(S, AB, {"distance": d}) for d in (1, 2)],
    "torpedo_on_any": [(T, t, {}) for t in [*RATED, S, M, SM, BR, VMB, T]] + [(T, T, {"armed": True})],
    "torpedo_on_carrier": [(T, A, {})],
    "torpedo_on_bomb": [(T, AB, {})],
}


@pytest.mark.parametrize("key", sorted(COVERED))
def test_each_collision_row_holds_for_every_kind_it_names(key: str) -> None:
    """The table shows one example per row; the engine gives the same outcome for every kind the row names."""
    assert set(COVERED) == set(EXPECTED_7_2)
    for attacker, target, kw in COVERED[key]:
        c = rulebook.collision_outcome(attacker, target, **kw)
        got = (c.attacker_removed, c.target_removed, c.explosion, c.plane_too)
        assert got == EXPECTED_7_2[key], (key, attacker.code, target.code, kw)


def _engine_marks(position: str, focus: str, via: str | None) -> tuple[set[str], set[str]]:
    state = GameState.from_text(position, Side.SOUTH)
    src = parse_cell(focus)
    via_cell = parse_cell(via) if via else None
    moves, targets = set(), set()
    for a in legal_actions(state):
        if isinstance(a, Move) and a.src == src and via_cell is None:
            moves.add(cell_name(a.dst))
        elif isinstance(a, Attack) and a.src == src and a.via == via_cell:
            targets.add(cell_name(a.target))
    return moves, targets


#: What ADMIRAL.md says the key diagrams must show: (green dots, red crosses).
RULES_SAY = {
    "move": ({"f8", "h8", "g7"}, set()),  # §5.1: own unit above blocks; no diagonals
    "contact": ({"g7"}, {"h8", "g9"}),  # §6: orthogonal neighbours only, not the diagonal h9
    "move_attack": (set(), {"g10", "h9"}),  # §4.2: from g9 after the step
    "carrier": ({"f8", "g7"}, set()),  # A never attacks
    "aircraft": ({"f8", "h8", "g7", "g9"}, {"e8", "g11", "k8"}),  # §6: 1–4, not g3 (5), not h10; g10 doesn't block
    "aircraft_alone": (set(), set()),  # §5.2, §6: no carrier 8-adjacent
    "torpedo": ({"g9", "h8", "g7"}, {"g10", "i8"}),  # §6: own ST blocks e8; g5 is 3 away
    "torpedo_dummy": (set(), set()),
    "mine": ({"f8", "g7", "g9"}, set()),  # M never attacks
    "tether": ({"h8"}, set()),  # §5.2: only the step that ends next to the destroyer
    "fireship": ({"g7"}, {"h8", "g9"}),
    "bomb": ({"f8", "g7", "g9"}, set()),
    "formation": ({"g7", "g9"}, {"h8"}),
}


def test_diagrams_agree_with_the_engine_and_the_rules(page) -> None:
    figures = {
        f.attrs["id"].removeprefix("diagram-"): f for f in page.find_all("figure", cls="diagram") if f.attrs.get("id")
    }
    assert set(figures) == set(rulebook.diagrams())
    for key, fig in figures.items():
        spec = rulebook._DIAGRAMS[key]
        cells = {c.attrs["data-cell"]: c for c in fig.find_all("div", cls="cell")}
        assert len(cells) == (2 * spec.radius + 1) ** 2
        shown_moves = {n for n, c in cells.items() if "move" in c.classes}
        shown_targets = {n for n, c in cells.items() if "target" in c.classes}
        moves, targets = _engine_marks(spec.position, spec.focus, spec.via)
        if spec.show_moves:
            assert shown_moves == moves, key
        else:
            assert shown_moves == set(), key
        assert shown_targets == targets, key
        if key in RULES_SAY:
            assert (shown_moves, shown_targets) == RULES_SAY[key], key
        # units as the reader's board shows them: own kinds, enemy closed markers (after the blast: the survivors)
        state = GameState.from_text(spec.position, Side.SOUTH)
        if spec.blast == "after":
            apply(state, Detonate())
        for name, c in cells.items():
            cell = parse_cell(name)
            u = state.board[cell]
            if spec.via and name == spec.via:
                u = state.board[parse_cell(spec.focus)]
            elif spec.via and name == spec.focus:
                u = None
            units = c.find_all(cls="unit")
            if u is None:
                assert units == [], (key, name)
            elif u.side is Side.SOUTH:
                assert units[0].attrs["data-kind"] == u.kind.code, (key, name)
            else:
                assert "marker" in units[0].classes and "data-kind" not in units[0].attrs, (key, name)


def test_blast_diagrams_are_the_5x5_square_before_and_after(page) -> None:
    def cells(key: str) -> dict[str, Node]:
        return {c.attrs["data-cell"]: c for c in page.find("figure", id=f"diagram-{key}").find_all("div", cls="cell")}

    before, after = cells("blast"), cells("blast_after")
    square = {f"{col}{row}" for col in "efghi" for row in range(6, 11)}  # rules §8: 5×5 around the bomb on g8
    for shown in (before, after):
        assert {n for n, c in shown.items() if "blast" in c.classes} == square
    standing = {n for n, c in before.items() if c.find_all(cls="unit")}
    assert standing == {"g8", "f7", "e8", "f9", "d9", "h10", "i9", "f6", "j8", "g11"}
    assert not any("last-removed" in c.classes for c in before.values())
    # every unit inside, both sides, the bomb included; and the own aircraft on d9 with its carrier (f9)
    removed = {n for n, c in after.items() if "last-removed" in c.classes}
    assert removed == {"g8", "f7", "e8", "f9", "h10", "i9", "f6", "d9"}
    assert {n for n, c in after.items() if c.find_all(cls="unit")} == {"j8", "g11"}


def test_formation_diagram_outlines_three_cruisers(page) -> None:
    cells = page.find("figure", id="diagram-formation").find_all("div", cls="member")
    assert sorted(c.attrs["data-cell"] for c in cells) == ["f7", "f8", "g8"]


PAGES = ["/", "/rules", "/leaders", "/login", "/register", "/recover", "/feedback", "/profile", "/no-such-page",
         "/c/nobody-here", "/reset/not-a-token"]  # fmt: skip


def test_every_page_links_to_the_rules_in_its_topbar(browsers) -> None:
    b = browsers()
    game_id, invite = b.create(side="south")
    for url in [*PAGES, f"/g/{game_id}", f"/j/{invite}"]:
        r = browsers().get(url)
        assert r.status_code in (200, 404), (url, r.status_code)
        header = parse(r.text).find("header", cls="topbar")
        links = [a for a in header.find_all("a") if a.attrs.get("href") == "/rules"]
        assert len(links) == 1 and links[0].text() == "Правила", url


def test_each_game_brings_its_rules_page_through_the_house_route(client) -> None:
    """The house serves ``/rules/<key>`` for a game with the capability ``rules_page`` (the generic route names no
    game); the default game's page is ``/rules``, where ``/rules/admiral`` sends; 404 for an unknown game or one
    without a page."""
    from admiral.games import GAMES, RulesPage

    with_page = sorted(k for k, r in GAMES.items() if "rules_page" in r.info.capabilities)
    assert with_page == ["admiral", "naval"]
    assert all(isinstance(GAMES[k], RulesPage) for k in with_page)
    moved = client.get("/rules/admiral", follow_redirects=False)
    assert moved.status_code == 301 and moved.headers["location"] == "/rules"
    naval = client.get("/rules/naval")
    assert naval.status_code == 200 and 'data-diagram="guns"' in naval.text
    assert "grace_s" not in naval.text and "unit-AB" not in naval.text
    missing = client.get("/rules/nosuchgame")
    assert missing.status_code == 404 and "Такой игры на сайте нет." in missing.text
    battleship = client.get("/rules/battleship")
    assert battleship.status_code == 404 and "Страница не найдена." in battleship.text
