"""The translation catalogs cover the sources (issue 7).

The sources are extracted afresh (``babel.cfg``: Python, templates, JavaScript), so a new ``_("…")``, ``t("…")``
or ``{{ _("…") }}`` without an English translation fails here, naming the message and where it is. The fix:
``admiral i18n update``, then translate the new entries in ``src/admiral/locale/en/LC_MESSAGES/messages.po``
(and give Russian plurals their three forms in ``ru``), then ``admiral i18n check``.
"""

from __future__ import annotations

import pytest

from admiral import i18n
from admiral.games.admiral.bots import LEVELS
from admiral.games.admiral.rules import Kind
from admiral.i18n import catalogs
from admiral.progression.awards import AWARDS
from admiral.progression.ranks import RANKS


@pytest.fixture(scope="module")
def template():
    return catalogs.extract()


def test_every_message_has_a_translation_with_the_same_placeholders(template) -> None:
    problems = catalogs.problems(template)
    assert not problems, (
        f"{len(problems)} message(s) not ready — run `admiral i18n update`, translate them in "
        "src/admiral/locale/{lang}/LC_MESSAGES/messages.po, then `admiral i18n check`:\n"
        + "\n".join(str(p) for p in problems[:40])
    )


def test_extraction_reads_python_templates_and_javascript(template) -> None:
    """Guard against a vacuous pass: each kind of source gives messages, plurals and contexts included."""
    files = {f for m in template for f, _line in m.locations}
    assert any(f.startswith("src/admiral/") and f.endswith(".py") for f in files)
    assert any(f.startswith("templates/") for f in files)
    assert any(f.startswith("static/js/") for f in files)
    ids = {m.id if isinstance(m.id, str) else m.id[0]: m for m in template if m.id}
    assert "Остановиться здесь" in ids and "Партия не найдена." in ids and "Играть с другом" in ids
    assert "Начальная расстановка ({n} полуход)" in ids and ids["Начальная расстановка ({n} полуход)"].pluralizable
    assert template.get("КР", context="unit") is not None


def test_the_check_reports_what_is_missing() -> None:
    """A message the English catalog lacks, a lost placeholder and lost spacing are each reported."""
    from babel.messages.catalog import Catalog

    src = Catalog()
    src.add("Новое сообщение", locations=[("static/js/play.js", 7)])
    src.add("Атака на {cell}", locations=[("static/js/play.js", 8)])
    src.add(" — атаковать", locations=[("static/js/board.js", 9)])
    got = {(p.lang, p.kind, p.msgid, p.where) for p in catalogs.problems(src, ("en",))}
    assert got == {
        ("en", "missing", "Новое сообщение", "static/js/play.js:7"),
    }
    tr = Catalog(locale="en")
    tr.add("Атака на {cell}", "Attack on the square")
    tr.add(" — атаковать", "— attack")
    kinds = {p.kind for src_m in src if src_m.id for p in catalogs.check_message("en", src_m, tr.get(src_m.id))}
    assert kinds == {"missing", "placeholders", "spacing"}


@pytest.mark.parametrize(
    ("what", "msgids"),
    [
        ("unit names (engine)", [k.ru_name for k in Kind]),
        ("ranks", [r.name for r in RANKS]),
        ("awards", [a.name for a in AWARDS] + [a.condition for a in AWARDS]),
        ("AI levels", [lv.ru for lv in LEVELS.values()]),
    ],
)
def test_names_translated_at_run_time_are_in_the_catalog(what: str, msgids: list[str]) -> None:
    """Names that reach the UI as data (``_(rank.name)`` in a template, ``t(bot.name)`` in the client)."""
    en = i18n.catalog("en")
    missing = [m for m in msgids if en.get(m) is None or not en.get(m).string]
    assert not missing, f"{what} without an English translation: {missing}"


def test_unit_codes_are_unique_in_each_language() -> None:
    """The markers' codes tell the kinds apart in English as in Russian."""
    en = i18n.catalog("en")
    codes = [en.get(k.ru, context="unit").string for k in Kind]
    assert len(set(codes)) == len(codes) == 17
    assert codes[:3] == ["CV", "BB", "CR"]
    columns = en.get("АБВГДЕЖЗИКЛМНО", context="columns").string
    assert columns == "abcdefghijklmn"


def test_translations_compile_and_switch_with_the_context() -> None:
    assert i18n.gettext("Партия окончена.") == "Партия окончена."
    with i18n.use("en"):
        assert i18n.gettext("Партия окончена.") == "The game is over."
        assert i18n.pgettext("unit", "ВМБ") == "NB"
        assert i18n.gettext("Пароль: не короче %(n)s символов.", n=8) == "Password: at least 8 characters."
        assert str(i18n.lazy_gettext("Партия окончена.")) == "The game is over."
        with i18n.use("ru"):
            assert i18n.gettext("Партия окончена.") == "Партия окончена."
        assert i18n.current() == "en"
    assert i18n.current() == "ru"
    lazy = i18n.lazy_gettext("Партия окончена.")
    with i18n.use("en"):
        assert str(lazy) == "The game is over."  # translated when used, not when made
    assert str(lazy) == "Партия окончена."


def test_the_client_catalog_has_plural_forms_and_contexts() -> None:
    en = i18n.client_catalog("en")
    assert en["lang"] == "en" and en["plural"] == "(n != 1)"
    assert en["messages"]["Начальная расстановка ({n} полуход)"] == ["Starting setup ({n} ply)",
                                                                    "Starting setup ({n} plies)"]  # fmt: skip
    assert en["messages"]["unit\x04КРПЛ"] == "CSUB"
    ru = i18n.client_catalog("ru")
    assert set(ru["messages"]) == {m.id[0] for m in i18n.catalog("ru") if m.pluralizable}
