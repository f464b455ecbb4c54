"""Hand-made wire views of «Морской бой: расширенный» (the contract's ``PlayerView.to_dict()``,
docs/battleship_ext.md) for the client's harness tests: every mark the variant draws, on each board, from one
seat's point of view.

The views are built by hand so that what is hard to provoke in a live game (a crosshair handed by a mine, a gold
circle handed by a minesweeper, a repaired deck, a satellite answer) is on screen at once; the live-game tests
(test_battleship_ext.py) play the real engine.
"""

from __future__ import annotations

import hashlib
from typing import Any

ROWS = "abcdefghijklmnopqr"
ROWS_RU = "АБВГДЕЖЗИКЛМНОПРСТ"
SIZES = {"classic": 10, "perelman": 16, "giant": 18}
FLEETS = {
    "classic": [(4, 1), (3, 2), (2, 3), (1, 4)],
    "perelman": [(4, 2), (3, 3), (2, 4), (1, 5)],
    "giant": [(5, 2), (4, 3), (3, 4), (2, 5), (1, 6)],
}
SEED = "5e" * 32
COMMITMENT = hashlib.sha256(bytes.fromhex(SEED)).hexdigest()


def c(row: int, col: int) -> str:
    return f"{ROWS[row]}{col + 1}"


def layout(board: str) -> list[dict[str, Any]]:
    """A legal fleet (no two ships touch): ships left to right along every other row, wrapping."""
    n = SIZES[board]
    ships, row, col = [], 0, 0
    for size, count in FLEETS[board]:
        for _ in range(count):
            if col + size > n:
                row, col = row + 2, 0
            ships.append({"code": str(size), "cells": [c(row, col + i) for i in range(size)]})
            col += size + 1
    return ships


def free_cells(board: str, taken: set[str]) -> list[str]:
    """Cells not touching any of ``taken`` (for the figures), reading order."""
    n = SIZES[board]
    near = {
        c(r + dr, k + dc)
        for cell in taken
        for r, k in [(ROWS.index(cell[0]), int(cell[1:]) - 1)]
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if 0 <= r + dr < n and 0 <= k + dc < n
    }
    return [c(r, k) for r in range(n) for k in range(n) if c(r, k) not in near]


def view(board: str = "giant", seat: str = "south", over: bool = False, level: int = 7) -> dict[str, Any]:
    """South's view (or the full one when ``over``) in the middle of a game on ``board``."""
    n = SIZES[board]
    own = layout(board)
    own_cells = {x for s in own for x in s["cells"]}
    spare = free_cells(board, own_cells)
    mine_a, mine_b, sweeper = spare[0], spare[len(spare) // 2], spare[-1]
    boat = next(s for s in own if s["code"] == "1")
    big = own[0]
    # the opponent hit our biggest ship twice (one of them repaired), and set off our first mine
    opp_shots = [
        {"ply": 2, "cell": big["cells"][0], "answer": "hit", "ship": None, "sunk_cells": []},
        {"ply": 3, "cell": big["cells"][1], "answer": "hit", "ship": None, "sunk_cells": []},
        {"ply": 4, "cell": mine_a, "answer": "mine", "ship": None, "sunk_cells": []},
        {"ply": 4, "cell": c(n - 1, 0), "answer": "miss", "ship": None, "sunk_cells": []},
    ]
    for s in opp_shots:
        s["ply"] = s["ply"] * 2
    for s in own:
        s["hits"] = [x for x in s["cells"] if x in {big["cells"][0], big["cells"][1]}]
        s["sunk"] = False
    # our shots at North's grid: a miss, a hit, a sunk boat, a minesweeper, an air strike's cross
    mid = n // 2
    my_shots = [
        {"ply": 1, "cell": c(mid, mid), "answer": "miss", "ship": None, "sunk_cells": []},
        {"ply": 3, "cell": c(1, 1), "answer": "hit", "ship": None, "sunk_cells": []},
        {"ply": 3, "cell": c(1, 2), "answer": "miss", "ship": None, "sunk_cells": []},
        {"ply": 5, "cell": c(4, 5), "answer": "sunk", "ship": "1", "sunk_cells": [c(4, 5)]},
        {"ply": 5, "cell": c(6, 6), "answer": "sweeper", "ship": None, "sunk_cells": []},
        {"ply": 7, "cell": c(8, 2), "answer": "miss", "ship": None, "sunk_cells": [], "via": "air"},
        {"ply": 7, "cell": c(7, 2), "answer": "hit", "ship": None, "sunk_cells": [], "via": "air"},
        {"ply": 7, "cell": c(9, 2), "answer": "miss", "ship": None, "sunk_cells": [], "via": "air"},
        {"ply": 7, "cell": c(8, 1), "answer": "mine", "ship": None, "sunk_cells": [], "via": "air"},
        {"ply": 7, "cell": c(8, 3), "answer": "miss", "ship": None, "sunk_cells": [], "via": "air"},
    ]
    marks = [c(3, 4), c(3, 5), c(3, 6), c(4, 4), c(4, 6), c(5, 4), c(5, 5), c(5, 6)]
    shot_cells = {s["cell"] for s in my_shots}
    legal_shots = [c(r, k) for r in range(n) for k in range(n) if c(r, k) not in shot_cells and c(r, k) not in marks]
    ply = 12
    side_s = {
        "ships": own,
        "afloat": len(own),
        "sunk_count": 0,
        "sunk": [],
        "shots": my_shots,
        "marks": marks,
        "figures": [
            {"code": "M", "cell": mine_a, "state": "exploded"},
            {"code": "M", "cell": mine_b, "state": "active"},
            {"code": "T", "cell": sweeper, "state": "active"},
        ],
        "crosshairs": [c(12 % n, 3), c(12 % n, 4)],
        "gold": [c(2, 8)],
        "handed": [big["cells"][2], mine_b],
        "scans": [
            {
                "ply": 9,
                "ability": "sonar",
                "center": c(11 % n, 11 % n),
                "cells": [c(r, k) for r in range(10 % n, 13 % n) for k in range(10 % n, 13 % n)],
                "answer": True,
                "mines": None,
            },
            {
                "ply": 11,
                "ability": "satellite",
                "center": c(3, n - 3),
                "cells": [c(r, k) for r in range(1, 6) for k in range(n - 5, n)],
                "answer": 3,
                "mines": None,
            },
        ],
        "uses": [
            {"ply": 7, "ability": "air", "cell": c(8, 2)},
            {"ply": 9, "ability": "sonar", "cell": c(11 % n, 11 % n)},
            {"ply": 11, "ability": "satellite", "cell": c(3, n - 3)},
        ],
        "repaired": [big["cells"][0]],
    }
    side_n = {
        "ships": None,
        "afloat": sum(k for _, k in FLEETS[board]) - 1,
        "sunk_count": 1,
        "sunk": ["1"],
        "shots": opp_shots,
        "marks": [],
        "figures": None,
        "crosshairs": [],
        "gold": [],
        "handed": [],
        "scans": [
            {
                "ply": 10,
                "ability": "sonar",
                "center": c(1, 1),
                "cells": [c(r, k) for r in range(0, 3) for k in range(0, 3)],
                "answer": None,
                "mines": None,
            }
        ],
        "uses": [{"ply": 10, "ability": "sonar", "cell": c(1, 1)}],
        "repaired": [],
    }
    abilities = [
        {
            "key": "air",
            "cost": 10,
            "ultimate": False,
            "ready": True,
            "why": None,
            "ends_turn": True,
            "reveal": 100,
            "area": 1,
        },
        {
            "key": "sonar",
            "cost": 6,
            "ultimate": False,
            "ready": True,
            "why": None,
            "ends_turn": False,
            "reveal": 50,
            "area": 3,
        },
        {
            "key": "move",
            "cost": 4,
            "ultimate": False,
            "ready": True,
            "why": None,
            "ends_turn": True,
            "reveal": 0,
            "area": 1,
        },
        {
            "key": "satellite",
            "cost": 12,
            "ultimate": True,
            "ready": False,
            "why": "used",
            "ends_turn": False,
            "reveal": 0,
            "area": 5,
        },
    ]
    if level >= 8:
        abilities[3] = {
            "key": "repair",
            "cost": 13,
            "ultimate": True,
            "ready": True,
            "why": None,
            "ends_turn": False,
            "reveal": 0,
            "area": 1,
        }
    br, bc = ROWS.index(boat["cells"][0][0]), int(boat["cells"][0][1:]) - 1
    moves = [
        c(br + dr, bc + dc) for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)) if 0 <= br + dr < n and 0 <= bc + dc < n
    ]
    moves = [m for m in moves if m not in own_cells][:1]
    legal: list[dict[str, Any]] = [{"type": "shot", "cell": x, "notation": x} for x in legal_shots]
    legal += [
        {"type": "area", "ability": a, "cells": [c(r, k) for r in range(n) for k in range(n)], "prefix": a}
        for a in ("air", "sonar")
    ]
    legal += [
        {"type": "move", "src": boat["cells"][0], "dst": d, "notation": f"move {boat['cells'][0]}-{d}"} for d in moves
    ]
    if level >= 8:
        legal.append({"type": "repair", "cell": big["cells"][1], "notation": f"repair {big['cells'][1]}"})
    return {
        "game": "battleship_ext",
        "audience": "full" if over else seat,
        "options": {"board": board, "mines": 2 if board != "classic" else 1, "sweepers": 1},
        "board": {"width": n, "height": n, "rows": ROWS[:n], "rows_ru": ROWS_RU[:n]},
        "fleet": [{"code": str(s), "size": s, "count": k} for s, k in FLEETS[board]],
        "figures": [{"code": "M", "count": 2}, {"code": "T", "count": 1}],
        "levels": {"south": level, "north": 4},
        "chance": {"commitment": COMMITMENT, "seed": SEED if over else None},
        "energy": {"value": 11, "max": 15, "gain": 5},
        "abilities": abilities,
        "ply": ply,
        "first": "south",
        "to_act": "south",
        "shots_left": 1,
        "turn_shots": 0,
        "sides": {"south": side_s, "north": side_n},
        "legal": legal,
        "result": None,
    }


def game(board: str = "giant") -> dict[str, Any]:
    """The snapshot's ``game`` beside :func:`view`: a friend game in play, South to act."""
    return {
        "id": "fixture",
        "version": 30,
        "status": "play",
        "settings": {
            "game": "battleship_ext",
            "options": {"board": board, "mines": 2 if board != "classic" else 1, "sweepers": 1},
        },
        "players": {
            "south": {"joined": True, "connected": True, "name": None},
            "north": {"joined": True, "connected": True, "name": None},
        },
        "clocks": {"south_ms": 600000, "north_ms": 600000, "running": "south", "setup_ms": None},
        "result": None,
    }
