"""Small helpers shared by the engine rule tests: positions, playing notation, reading the board and reports."""

import pytest

from admiral.games.admiral.rules import (
    Action,
    BattleReport,
    GameState,
    IllegalAction,
    Kind,
    Side,
    apply,
    cell_name,
    legal_actions,
    parse_cell,
)

# A base and a mobile unit for each side, far from the action, so that no game ends by accident.
SOUTH_HOME = "VMBa1 TRb1"
NORTH_HOME = "VMBn15 TRm15"


def position(south, north="", to_move=Side.SOUTH):
    """South's and North's units (notation text) plus both home bases, ``to_move`` to act."""
    return GameState.from_text(f"{south} {SOUTH_HOME} / {north} {NORTH_HOME}", to_move)


def play(state, notation):
    return apply(state, Action.parse(notation))


def at(state, cell):
    """'S:KR' / 'N:L' for the unit on ``cell``, None when empty."""
    u = state.board[parse_cell(cell)]
    return None if u is None else f"{'SN'[u.side]}:{u.kind.code}"


def rejected(state, action):
    """The code of the IllegalAction raised by ``action`` (an Action or its notation); the state must be unchanged.

    The action must not be among the legal actions either.
    """
    if isinstance(action, str):
        action = Action.parse(action)
    before = state.copy()
    with pytest.raises(IllegalAction) as err:
        apply(state, action)
    assert state == before
    assert action not in legal_actions(state)
    return err.value.code


def short(seen):
    return f"{'SN'[seen.side]}:{seen.kind.code}{cell_name(seen.cell)}"


def report_of(events):
    (report,) = [e for e in events if isinstance(e, BattleReport)]
    return report


def removed(report):
    """The units ``report`` removed as sorted 'S:KRe8' strings; given events, their single battle report's.

    No unit may be reported removed twice.
    """
    if not isinstance(report, BattleReport):
        report = report_of(report)
    gone = [short(s) for s in report.removed]
    assert len(gone) == len(set(gone)), "a unit is reported removed twice"
    return sorted(gone)


#: The scale of strength as rules §7.1 prints it: (row, composition), written out by hand, not read from the engine.
SCALE_ROWS = [
    (21, [Kind.L, Kind.L]),
    (20, [Kind.KR, Kind.KR, Kind.KR]),
    (19, [Kind.R, Kind.R, Kind.ES]),
    (18, [Kind.KR, Kind.KR]),
    (17, [Kind.KRPL, Kind.PL, Kind.PL]),
    (16, [Kind.PL, Kind.PL, Kind.PL]),
    (15, [Kind.L]),
    (14, [Kind.R, Kind.R]),
    (13, [Kind.ES, Kind.ES, Kind.ES]),
    (12, [Kind.R, Kind.ES]),
    (11, [Kind.ES, Kind.ES]),
    (10, [Kind.KRPL, Kind.PL]),
    (9, [Kind.PL, Kind.PL]),
    (8, [Kind.R]),
    (7, [Kind.KR]),
    (6, [Kind.KRPL]),
    (5, [Kind.ES]),
    (4, [Kind.PL]),
    (3, [Kind.TK]),
    (2, [Kind.ST]),
    (1, [Kind.TR]),
]
