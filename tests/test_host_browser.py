"""The five-card stud host in a real headless Chromium: the host sets up a game on its page, three
people (three windows, each with its own seat's link) and two bots play a whole hand to the showdown
by clicks; nothing a page or a live stream received before the showdown holds another seat's hole
card; the pots match an independent settlement of the downloaded .phhs. Screenshots (desktop and a
390 px phone) go to ``out/tests/stud-host/`` (``$EXACTODDS_TEST_OUT`` overrides the folder). The
host's controls by clicks on its page: start, pause, resume, replace an absent player by a bot of a
chosen model, seat a late player with a new link.
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from tests.browser import DESKTOP, new_window
from tests.host_server import HostServer, bearer, seat_tokens
from tests.phh_settle import settle_session

REPO = Path(__file__).resolve().parents[1]
OUT = Path(os.environ.get("EXACTODDS_TEST_OUT", REPO / "out" / "tests")) / "stud-host"
CARD_ATTR = re.compile(r'data-card="([2-9TJQKA][cdhs])"')


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[HostServer]:
    srv = HostServer(tmp_path_factory.mktemp("host-browser") / "host.db")
    yield srv
    srv.stop()


def _wait(driver: webdriver.Chrome, condition, what: str, timeout: float = 30) -> None:
    waiting = WebDriverWait(driver, timeout, poll_frequency=0.05,
                            ignored_exceptions=(StaleElementReferenceException,))
    waiting.until(lambda _d: condition(), message=what)


def _body(driver: webdriver.Chrome, name: str) -> str:
    return driver.find_element(By.TAG_NAME, "body").get_attribute(f"data-{name}") or ""


class Recorder:
    """Every message a link's live stream delivers, as text, in a thread."""

    def __init__(self, url: str, game: str, token: str) -> None:
        self.messages: list[str] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(url, game, token), daemon=True)
        self.thread.start()

    def _run(self, url: str, game: str, token: str) -> None:
        try:
            address = f"{url}api/games/{game}/events"
            with httpx.stream("GET", address, headers=bearer(token), timeout=60) as stream:
                for line in stream.iter_lines():
                    if line.startswith("data: "):
                        self.messages.append(line[6:])
                    if self.stop.is_set():
                        return
        except httpx.TransportError:
            return


def _leaks(text: str, holes: set[str]) -> set[str]:
    """The cards of ``holes`` a page or message shows: as a card element, a JSON value or a word."""
    found = set(CARD_ATTR.findall(text)) & holes
    found |= {c for c in holes if f'"{c}"' in text or re.search(rf"(?<![\w-]){c}(?![\w-])", text)}
    return found


def test_a_whole_hand_by_clicks_three_people_two_bots(server, chromium) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    d = chromium
    d.set_window_size(*DESKTOP)
    home = d.current_window_handle
    # the host sets up the game on its page: five seats, Cy a person, Dee and Eve bots
    d.get(f"{server.url}#{server.key}")
    _wait(d, lambda: d.find_element(By.ID, "new-game").is_displayed(), "the set-up form")
    names = d.find_elements(By.CSS_SELECTOR, ".seat-name")
    for box, name in zip(names, ("Ann", "Bob", "Cy", "Dee", "Eve"), strict=True):
        box.clear()
        box.send_keys(name)
    d.find_elements(By.CSS_SELECTOR, ".seat-bot")[2].click()  # Cy is a person
    setup = (("stack", "40"), ("length", "1"), ("act-seconds", "120"), ("bot-seconds", "0"),
             ("between-seconds", "60"))
    for field, value in setup:
        box = d.find_element(By.ID, field)
        box.clear()
        box.send_keys(value)
    d.find_element(By.ID, "create").click()
    _wait(d, lambda: _body(d, "status") == "waiting"
          and len(d.find_elements(By.CSS_SELECTOR, ".seat-link")) == 3, "the game's links")
    game = _body(d, "game")
    links = {int(row.get_attribute("data-seat")): row.find_element(By.CSS_SELECTOR, ".seat-link").text
             for row in d.find_elements(By.CSS_SELECTOR, ".link-row[data-seat]")
             if row.find_elements(By.CSS_SELECTOR, ".seat-link")}
    assert sorted(links) == [1, 2, 3]
    assert all(link.startswith(f"{server.url}play#") for link in links.values())
    tokens = {seat: link.split("#", 1)[1] for seat, link in links.items()}
    host_view = httpx.get(f"{server.url}api/games/{game}", headers=bearer(server.key), timeout=30).json()
    recorders = {str(s): Recorder(server.url, game, t) for s, t in tokens.items()}
    recorders["spectator"] = Recorder(server.url, game, host_view["links"]["spectator"])
    windows = {seat: new_window(d, link) for seat, link in links.items()}
    for seat, handle in windows.items():
        d.switch_to.window(handle)
        _wait(d, lambda: _body(d, "status") == "waiting", f"seat {seat}'s page")
    d.switch_to.window(home)
    d.find_element(By.ID, "start").click()
    _wait(d, lambda: _body(d, "status") == "playing", "the game started")
    d.save_screenshot(str(OUT / "host-desktop.png"))

    # the hand by clicks: whoever is to act clicks in their own window (Ann raises once, the rest call)
    pages: dict[int, list[str]] = {seat: [] for seat in windows}
    coached: dict[int, list[str]] = {seat: [] for seat in windows}
    holes: dict[int, str] = {}
    raised = shot = False
    deadline = time.monotonic() + 180
    while True:
        assert time.monotonic() < deadline, "the hand did not end"
        d.switch_to.window(windows[1])
        if _body(d, "status") == "over":
            break
        actor = _body(d, "actor")
        if not actor or int(actor) not in windows:
            time.sleep(0.05)
            continue
        seat = int(actor)
        d.switch_to.window(windows[seat])
        _wait(d, lambda seat=seat: _body(d, "actor") != str(seat)
              or bool(d.find_elements(By.CSS_SELECTOR, "#actions button")), f"seat {seat}'s buttons")
        buttons = {b.get_attribute("data-action"): b
                   for b in d.find_elements(By.CSS_SELECTOR, "#actions button")}
        if not buttons:
            continue
        holes[seat] = d.find_element(By.CSS_SELECTOR, ".seat.me .card.hole").get_attribute("data-card")
        if not shot:  # a person's turn, with the coach: the screenshots of the docs
            _wait(d, lambda: "Pot odds" in d.find_element(By.ID, "coach").text, "the coach's advice", 60)
            coach_text = d.find_element(By.ID, "coach").text
            assert "(against " in coach_text and "bots" in coach_text  # stud decide's words, the models named
            best = httpx.get(f"{server.url}api/games/{game}/coach", headers=bearer(tokens[seat]),
                             timeout=30).json()["best"]
            _wait(d, lambda: bool(d.find_elements(By.CSS_SELECTOR, "#actions button.advised")),
                  "the advised button", 5)
            marked = d.find_elements(By.CSS_SELECTOR, "#actions button.advised")
            kind, *amount = best.split()  # the recommended action's button, and only it
            assert [b.get_attribute("data-action") for b in marked] == [kind]
            assert amount in ([], [marked[0].get_attribute("data-amount")])
            d.save_screenshot(str(OUT / "player-desktop.png"))
            d.set_window_size(390, 844)
            assert d.execute_script("return document.documentElement.scrollWidth") <= 390  # fits a phone
            d.save_screenshot(str(OUT / "player-phone.png"))
            d.set_window_size(*DESKTOP)
            shot = True
        for s, handle in windows.items():
            d.switch_to.window(handle)
            pages[s].append(d.page_source + d.find_element(By.TAG_NAME, "body").text)
        advice = httpx.get(f"{server.url}api/games/{game}/coach", headers=bearer(tokens[seat]), timeout=30)
        assert advice.status_code in (200, 202), advice.text
        if advice.status_code == 200:  # the coach's JSON (the words and every action's EV) is scanned too
            coached[seat].append(advice.text)
        d.switch_to.window(windows[seat])
        turn = _body(d, "turn")
        choice = "cbr" if seat == 1 and not raised and "cbr" in buttons else \
            ("pb" if "pb" in buttons else "cc")
        raised = raised or choice == "cbr"
        buttons[choice].click()
        _wait(d, lambda turn=turn: _body(d, "turn") != turn, f"seat {seat}'s {choice} applied")

    # the showdown on every page; nothing before it showed another seat's hole card
    for handle in windows.values():
        d.switch_to.window(handle)
        _wait(d, lambda: d.find_element(By.ID, "last").is_displayed(), "the last hand")
        result = d.find_element(By.ID, "last-body").text
        assert "wins" in result or "split" in result
    for r in recorders.values():
        r.stop.set()
    assert len(holes) == 3
    for seat, sources in pages.items():
        others = {c for s, c in holes.items() if s != seat}
        assert sources and not any(_leaks(page, others) for page in sources), seat
        assert not any(_leaks(advice, others) for advice in coached[seat]), seat
    assert any(coached.values())  # the first person's turn waited for its advice
    log = server.db.with_suffix(".log").read_text(encoding="utf-8")
    assert not _leaks(log, set(holes.values()))  # nor the server's log
    for name, r in recorders.items():
        before = [m for m in r.messages if json.loads(m)["last_hand"] is None]
        others = {c for s, c in holes.items() if str(s) != name}
        assert before and not any(_leaks(m, others) for m in before), name
    # the pots: the downloaded evening settled independently matches what the pages say
    text = httpx.get(f"{server.url}api/games/{game}/history.phhs", headers=bearer(tokens[2]), timeout=30).text
    (settled, recorded), = settle_session(text)
    assert settled == recorded
    d.switch_to.window(windows[2])
    rows = [row.find_elements(By.TAG_NAME, "td") for row in d.find_elements(By.CSS_SELECTOR, "#standings tr")]
    shown = {cells[0].text: int(cells[1].text) for cells in rows if cells}
    order = [int(s) for s in re.findall(r"seats = \[([\d, ]+)\]", text)[0].split(",")]
    names = ("Ann", "Bob", "Cy", "Dee", "Eve")
    assert {name: settled[order.index(k)] for k, name in enumerate(names, 1)} == shown
    assert sum(shown.values()) == 5 * 40
    d.save_screenshot(str(OUT / "player-showdown.png"))
    d.get_log("browser")  # the shared browser's console, emptied for the next test
    for handle in windows.values():
        d.switch_to.window(handle)
        d.close()
    d.switch_to.window(home)


def test_the_hosts_controls_by_clicks_pause_replace_by_a_bot_seat_a_late_player(server, chromium) -> None:
    d = chromium
    d.set_window_size(*DESKTOP)
    made = server.new_game(seats=[{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy", "bot": "bots"}], stack=30,
                           hands=3, act_seconds=600, bot_seconds=0, between_seconds=60)
    game, tokens = made["game"], seat_tokens(made)

    def view(token: str) -> httpx.Response:
        return httpx.get(f"{server.url}api/games/{game}", headers=bearer(token), timeout=30)

    def row(seat: int):  # noqa: ANN202 - a selenium element
        return d.find_element(By.CSS_SELECTOR, f'.link-row[data-seat="{seat}"]')

    d.get(f"{server.url}#{server.key}")
    d.refresh()  # the same address as the test before's window: loaded afresh
    _wait(d, lambda: any(a.text == "Ann, Bob, Cy" for a in d.find_elements(By.CSS_SELECTOR, "#games a")),
          "the game in the host's list")
    next(a for a in d.find_elements(By.CSS_SELECTOR, "#games a") if a.text == "Ann, Bob, Cy").click()
    _wait(d, lambda: _body(d, "game") == game and _body(d, "status") == "waiting", "the game on its page")
    for button, after in (("start", "playing"), ("pause", "paused"), ("resume", "playing")):
        d.find_element(By.ID, button).click()
        _wait(d, lambda after=after: _body(d, "status") == after == view(server.key).json()["status"],
              f"{button} clicked")
    # Bob left: a bot playing the rock model takes his seat, his link is refused from then on
    Select(row(2).find_element(By.CSS_SELECTOR, ".replace-model")).select_by_value("rock")
    row(2).find_element(By.CSS_SELECTOR, ".replace-bot").click()
    _wait(d, lambda: "bot (rock)" in row(2).text, "Bob's seat played by a rock")
    seat = view(server.key).json()["seats"][1]
    assert (seat["name"], seat["kind"], seat["model"]) == ("Bob", "bot", "rock")
    assert view(tokens[2]).status_code == 403
    # a late player takes the seat back with a new link
    row(2).find_element(By.CSS_SELECTOR, ".seat-player").click()
    _wait(d, lambda: bool(row(2).find_elements(By.CSS_SELECTOR, ".seat-link")), "seat 2's new link")
    late = row(2).find_element(By.CSS_SELECTOR, ".seat-link").text.split("#", 1)[1]
    assert late != tokens[2]
    mine = view(late)
    assert mine.status_code == 200 and mine.json()["seats"][1]["kind"] == "person"
    assert view(tokens[1]).status_code == 200 and view(tokens[2]).status_code == 403
    assert not d.find_element(By.ID, "host-message").text  # every control was accepted
    d.get_log("browser")
