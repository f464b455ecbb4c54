"""Issue 18 item 14 on the server's pages: «О проекте» (``GET /about``), the dark theme's files and switch in every
page's frame, and award texts that agree with their noun («Медаль … не получена», «Орден … не получен»)."""

from __future__ import annotations

import re

from admiral.games import GAMES

from .test_rules_page import parse


def test_about_page_says_what_the_site_is_and_how_to_write(browsers) -> None:
    r = browsers().get("/about")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    page = parse(r.text)
    about = page.find("article", cls="about")
    assert about.find("h1").text() == "О проекте"
    text = about.text()
    assert "настольная игра позднесоветских лет" in text and "58 единиц" in text and "бесплатно" in text
    # the games of the house, from the registry, each linked to its home page
    games = about.find("ul", cls="about-games").find_all("li")
    assert [li.attrs["data-game"] for li in games] == list(GAMES)
    assert games[1].find("a").attrs["href"] == "/?game=battleship" and games[1].find("a").text() == "Морской бой"
    # feedback is the site's own form; the rules and the tutorial are linked
    hrefs = {a.attrs["href"] for a in about.find_all("a")}
    assert {"/feedback", "/rules", "/tutorial"} <= hrefs
    assert not any(h.startswith("http") for h in hrefs)
    assert page.find("title").text() == "О проекте — Адмирал"


def test_about_page_in_english(browsers) -> None:
    r = browsers().get("/about", headers={"cookie": "admiral_lang=en"})
    about = parse(r.text).find("article", cls="about")
    assert about.find("h1").text() == "About"
    assert "a board game of the late Soviet years" in about.text()
    assert "Feedback" in about.text() and "Battleship" in about.text()


def test_every_page_links_about_next_to_feedback_and_loads_the_theme_first(browsers) -> None:
    b = browsers()
    for url in ("/", "/rules", "/tutorial", "/leaders", "/profile", "/feedback", "/about"):
        html = b.get(url).text
        footer = parse(html).find("footer", cls="footer")
        assert [a.attrs["href"] for a in footer.find_all("a")] == ["/about", "/feedback"], url
        head = html.split("</head>")[0]
        # the theme script runs before any stylesheet (no flash of the light page); dark.css follows admiral.css
        order = [m.group(1) for m in re.finditer(r'(?:src|href)="(/static/[^"]+)"', head)]
        assert order[:3] == ["/static/js/theme.js", "/static/css/admiral.css", "/static/css/dark.css"], url
        switch = parse(html).find("div", cls="theme-switch")
        assert [x.attrs["data-theme-choice"] for x in switch.find_all("button")] == ["auto", "light", "dark"]
    for asset in ("/static/js/theme.js", "/static/css/dark.css"):
        assert b.get(asset).status_code == 200


def test_award_texts_agree_with_their_noun(browsers) -> None:
    page = parse(browsers().get("/profile").text)
    degree = {
        d.find("span", cls="award-name").text(): d.find("span", cls="award-degree").text()
        for d in page.find_all("details", cls="award")
    }
    assert degree["Медаль «Торпедная атака»"] == "не получена"
    assert degree["Орден «Ядерный удар»"] == "не получен"
    assert degree["Знак «Ветеран»"] == "не получен"
    assert len(degree) == 12
