"""The table's page in a real headless Chromium (Debian's ``chromium`` + ``chromium-driver``, via Selenium).

A whole session is clicked through as a person would: chips, undo, clear, deal, raise, rebet,
fold, new game, a raise the bankroll cannot cover, a deposit, and the session result. After each
step the page is checked against the API's state. Screenshots go to ``out/tests/table/``
(``$EXACTODDS_TEST_OUT`` overrides the folder).
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.browser import DESKTOP
from tests.table_server import TableServer

REPO = Path(__file__).resolve().parents[1]
OUT = Path(os.environ.get("EXACTODDS_TEST_OUT", REPO / "out" / "tests")) / "table"


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[TableServer]:
    srv = TableServer(tmp_path_factory.mktemp("browser") / "table.db", "--hands", "3", "--bankroll", "30",
                      "--seed", "12")
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser(chromium) -> Iterator[webdriver.Chrome]:
    """The shared Chromium, at the desktop size this page was laid out for, its console log emptied
    of what other tests' pages wrote."""
    chromium.set_window_size(*DESKTOP)
    chromium.get_log("browser")
    yield chromium


class Page:
    def __init__(self, driver: webdriver.Chrome, server: TableServer) -> None:
        self.d, self.server = driver, server

    def el(self, element_id: str):
        return self.d.find_element(By.ID, element_id)

    def click(self, element_id: str) -> None:
        self.el(element_id).click()

    def key(self, key: str) -> None:
        self.d.find_element(By.TAG_NAME, "body").send_keys(key)

    def wait(self, condition, what: str, timeout: float = 30) -> None:
        # the page redraws elements as state arrives: an element read while it is replaced is asked again
        waiting = WebDriverWait(self.d, timeout, poll_frequency=0.05,
                                ignored_exceptions=(StaleElementReferenceException,))
        waiting.until(lambda _d: condition(), message=what)

    def wait_phase(self, phase: str, hands_played: int | None = None) -> dict:
        def ready() -> bool:
            body = self.el("table").find_element(By.XPATH, "/html/body")
            return body.get_attribute("data-phase") == phase and not self.busy() and (
                hands_played is None or body.get_attribute("data-hands-played") == str(hands_played))
        self.wait(ready, f"phase {phase}")
        return self.api()

    def busy(self) -> bool:
        return self.d.find_element(By.TAG_NAME, "body").get_attribute("data-busy") == "1"

    def api(self) -> dict:
        sid = self.d.find_element(By.TAG_NAME, "body").get_attribute("data-session")
        return httpx.get(f"{self.server.url}api/sessions/{sid}", timeout=30).json()

    def cards(self, box: str) -> list[str | None]:
        script = "return [...document.querySelectorAll(arguments[0])].map(e => e.getAttribute('data-card'))"
        return self.d.execute_script(script, f"#{box} .card")  # at one instant: a view may redraw them

    def enabled(self) -> set[str]:
        buttons = self.d.find_elements(By.CSS_SELECTOR, "#actions button")
        return {b.get_attribute("data-action") for b in buttons if b.is_enabled()}

    def check_against(self, state: dict, timeout: float = 15) -> None:
        """What the page shows is what the API says, once the page has finished drawing it (the
        reveal redraws the cards after the phase changes: a loaded machine can read a card
        element as it is replaced). The last failed assertion is raised after ``timeout`` s."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                self._check_once(state)
                return
            except (AssertionError, StaleElementReferenceException):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def _check_once(self, state: dict) -> None:
        assert self.el("bankroll").text == f"{int(state['bankroll_float']):,}"
        legal = set(state["legal_actions"])
        assert self.enabled() == legal & {"undo", "clear", "deal", "raise", "fold", "rebet", "new_game"}
        if state["phase"] == "decision":
            assert self.cards("player-cards") == state["hand"]["player"]
            assert self.cards("dealer-cards") == [state["hand"]["dealer_up"], None, None, None, None]
            coach = state["hand"]["coach"]
            assert self.el("coach-ev-raise").text == f"{coach['ev_raise_float']:+.4f}"
            assert self.el("coach-optimal").text == coach["optimal"]
        elif state["last_hand"] and state["phase"] != "betting":
            assert self.cards("player-cards") == state["last_hand"]["player"]
            assert self.cards("dealer-cards") == state["last_hand"]["dealer"]
        assert self.el("s-mistakes").text == str(state["session"]["mistakes"])


def _labels(browser, selector: str) -> list[str]:
    """The aria-labels of the elements ``selector`` finds, read at one instant."""
    script = "return [...document.querySelectorAll(arguments[0])].map(e => e.getAttribute('aria-label'))"
    return browser.execute_script(script, selector)


def test_a_whole_session_in_the_browser(server, browser) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    page = Page(browser, server)
    browser.get(server.url)
    state = page.wait_phase("betting")
    assert "practice deck (seed 12)" in page.el("deck-note").text
    assert [r.text for r in page.el("paytable").find_elements(By.TAG_NAME, "tr")][0] == "royal flush 100 to 1"
    page.check_against(state)
    _, before_an_ante = _looks(page)
    assert {"deal", "raise", "rebet"} <= set(before_an_ante)

    # chips, undo, clear
    page.click("chip-5")
    page.click("ante-spot")
    page.wait(lambda: page.el("ante-total").text == "5", "ante 5")
    _chips_on_the_spot_are_chips(page, ["5"])
    page.click("ante-spot")
    page.wait(lambda: page.el("ante-total").text == "10", "ante 10")
    page.click("btn-undo")
    page.wait(lambda: page.el("ante-total").text == "5", "undo")
    page.click("chip-25")
    page.click("ante-spot")
    page.wait(lambda: page.el("ante-total").text == "30", "ante 30")
    assert page.el("bankroll").text == "0"
    page.click("btn-clear")
    page.wait(lambda: page.el("ante-total").text == "0", "clear")
    state = page.wait_phase("betting")
    assert state["spot"] == [] and state["bankroll"] == "30/1"
    page.check_against(state)

    # hand 1: ante 10, deal, raise
    page.click("chip-5")
    page.click("ante-spot")
    page.wait(lambda: page.el("ante-total").text == "5", "ante 5")
    page.key("a")  # the keyboard places a chip too
    page.wait(lambda: page.el("ante-total").text == "10", "ante 10")
    page.click("btn-deal")
    state = page.wait_phase("decision")
    page.check_against(state)
    source_in_decision = browser.page_source
    browser.save_screenshot(str(OUT / "table-decision.png"))
    # cards in words, for screen readers (read in one script: a view arriving meanwhile redraws them)
    spoken = _labels(browser, "#player-cards .card")
    assert spoken == [_words(c) for c in state["hand"]["player"]]
    assert _labels(browser, "#dealer-cards .card")[1:] == ["face-down card"] * 4
    # nothing is on the BET spot before the raise: it says what a raise would cost
    assert page.el("raise-total").text == "0" and page.el("raise-hint").text == "raise costs 20"
    live, disabled = _looks(page)
    _disabled_buttons_look_disabled(live, {**before_an_ante, **disabled})
    page.click("btn-raise")
    state = page.wait_phase("settled", 1)
    page.check_against(state)
    # the settled hand's stakes stay on the spots until the next bet: ante 10, raise 20
    assert page.el("ante-total").text == "10" and page.el("raise-total").text == "20"
    assert page.el("raise-hint").text == ""
    for card in state["last_hand"]["dealer"][1:]:
        assert f'data-card="{card}"' not in source_in_decision
    assert page.el("result").text.startswith(state["last_hand"]["event_label"])

    # hand 2: rebet, fold (from the keyboard)
    page.click("btn-rebet")
    state = page.wait_phase("decision")
    assert state["hand"]["ante"] == 10
    page.check_against(state)
    page.key("f")
    state = page.wait_phase("settled", 2)
    page.check_against(state)
    assert state["last_hand"]["decision"] == "fold"
    assert page.el("ante-total").text == "10" and page.el("raise-total").text == "0"  # folded: no raise

    # hand 3: new game, an ante the bankroll cannot raise, a deposit, then the raise
    page.click("btn-new-game")
    state = page.wait_phase("betting")
    bankroll = int(state["bankroll_float"])
    assert 10 <= bankroll <= 100, "the practice seed gives a bankroll that this test can go all in with"
    page.click("chip-5")
    for _ in range(bankroll // 5):
        page.click("ante-spot")
    page.wait(lambda: page.el("ante-total").text == str(bankroll // 5 * 5), "all in")
    page.click("btn-deal")
    state = page.wait_phase("decision")
    assert state["legal_actions"] == ["fold", "deposit"]
    page.check_against(state)
    assert "Not enough funds" in page.el("result").text
    amount = page.el("deposit-amount")
    amount.clear()
    amount.send_keys("500")
    page.click("btn-deposit")
    page.wait(lambda: "raise" in page.enabled(), "raise enabled after the deposit")
    state = page.api()
    assert state["deposits"] == [500] and state["phase"] == "decision"
    page.check_against(state)
    page.click("btn-raise")
    state = page.wait_phase("complete", 3)

    # the session result beside the exact odds of a 3-hand session
    page.wait(lambda: page.d.find_elements(By.ID, "outcome-odds"), "the session odds", timeout=180)
    state = page.api()
    page.check_against(state)
    outcome = page.el("session-outcome")
    assert outcome.get_attribute("data-outcome") == state["outcome"]
    rows = {r.find_element(By.TAG_NAME, "th").text: r for r in page.el("outcome-odds").find_elements(
        By.TAG_NAME, "tr")[1:]}
    for name, key in (("player", "p_player"), ("draw", "p_draw"), ("bank", "p_bank")):
        shown = rows[name].find_element(By.TAG_NAME, "td").text
        assert shown == f"{100 * state['odds'][key + '_float']:.3f}%"
    assert "mine" in rows[state["outcome"]].get_attribute("class")
    assert int(page.el("chart").get_attribute("data-points")) == 3
    assert page.el("s-hands").text == "3 of 3"
    browser.save_screenshot(str(OUT / "table-session-result.png"))

    # phone width: the table and its buttons still fit
    browser.set_window_size(390, 1500)
    width = "return document.documentElement.scrollWidth"
    page.wait(lambda: page.d.execute_script(width) <= 400, "no overflow")
    assert page.el("btn-rebet").is_displayed() and page.el("coach-panel").is_displayed()
    browser.save_screenshot(str(OUT / "table-phone.png"))
    browser.set_window_size(1280, 1000)
    assert not [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    with sqlite3.connect(server.db) as conn:  # every action of the page was sent with an idempotency key
        assert conn.execute("SELECT count(*) FROM requests").fetchone()[0] >= 15


_LOOK = ("background-color", "color", "font-weight", "opacity", "border-top-color")


Looks = dict[str, tuple[str, ...]]  # action -> its button's computed _LOOK


def _looks(page: Page) -> tuple[Looks, Looks]:
    """The computed look (_LOOK) of the enabled and of the disabled action buttons, by action."""
    style = "return getComputedStyle(arguments[0]).getPropertyValue(arguments[1])"
    looks: tuple[Looks, Looks] = ({}, {})
    for button in page.d.find_elements(By.CSS_SELECTOR, "#actions button"):
        look = tuple(page.d.execute_script(style, button, prop) for prop in _LOOK)
        looks[0 if button.is_enabled() else 1][button.get_attribute("data-action")] = look
    return looks


def _disabled_buttons_look_disabled(live: Looks, dead: Looks) -> None:
    """A button that cannot be pressed (Deal, Raise, Rebet before an ante) does not look like a live one
    (Raise in gold, Fold in white): its background and text colour are those of no enabled button, its
    text is not bold, and it is not merely a live button faded over the felt."""
    assert {"raise", "fold"} <= set(live) and {"deal", "raise", "rebet"} <= set(dead)
    for action, (background, color, weight, opacity, _border) in dead.items():
        assert opacity == "1", (action, opacity)
        assert int(weight) < 600, (action, weight)
        for live_background, live_color, *_ in live.values():
            assert background != live_background and color != live_color, (action, background, color)
    assert len(set(dead.values())) == 1  # one look for every disabled button, gold ones included


def _chips_on_the_spot_are_chips(page: Page, values: list[str]) -> None:
    """The chips on the ante spot are drawn as chips (a coloured disc showing its value), not tiny rings."""
    chips = page.el("ante-chips").find_elements(By.CLASS_NAME, "chip")
    assert [c.text for c in chips] == values
    for chip in chips:
        assert chip.size["width"] >= 28 and chip.size["height"] >= 28, chip.size
        assert page.d.execute_script("return parseFloat(getComputedStyle(arguments[0]).fontSize)", chip) >= 9


def _words(card: str) -> str:
    ranks = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "ten", "9": "nine", "8": "eight",
             "7": "seven", "6": "six", "5": "five", "4": "four", "3": "three", "2": "two"}
    suits = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
    return f"{ranks[card[0]]} of {suits[card[1]]}"


def _session_gets(page: Page, sid: str) -> int:
    return page.d.execute_script(
        "return performance.getEntriesByType('resource').filter(e => e.name.endsWith(arguments[0])).length",
        f"/api/sessions/{sid}")


def test_a_phone_sees_the_coach_beside_the_buttons_and_the_page_polls_only_while_odds_are_pending(
        server, browser) -> None:
    page = Page(browser, server)
    sid = httpx.post(f"{server.url}api/sessions", json={"hands": 4, "bankroll": 100},
                     headers={"Content-Type": "application/json"}, timeout=30).json()["id"]
    browser.set_window_size(390, 844)
    try:
        browser.get(f"{server.url}?session={sid}")
        page.wait_phase("betting")
        assert page.api()["odds_status"] == "later"  # a 4-hand session's odds come once it is complete
        time.sleep(5)
        assert _session_gets(page, sid) <= 1, "the page polled although no odds are pending"
        page.click("chip-5")
        page.click("ante-spot")
        page.wait(lambda: page.el("ante-total").text == "5", "ante 5")
        page.click("btn-deal")
        state = page.wait_phase("decision")
        verdict, raise_button = page.el("coach-verdict"), page.el("btn-raise")
        assert verdict.is_displayed() and state["hand"]["coach"]["optimal"] in verdict.text
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", raise_button)
        top = browser.execute_script("return arguments[0].getBoundingClientRect().top", verdict)
        button = browser.execute_script("return arguments[0].getBoundingClientRect().bottom", raise_button)
        height = browser.execute_script("return window.innerHeight")
        assert 0 <= top - button < 150 and top < height, (top, button, height)  # in sight of Raise and Fold
        assert browser.execute_script("return document.documentElement.scrollWidth") <= 400
        browser.save_screenshot(str(OUT / "table-phone-decision.png"))
    finally:
        browser.set_window_size(1280, 1000)
    browser.set_window_size(1280, 1000)
    assert not page.el("coach-verdict").is_displayed()  # wide: the coach panel is beside the table


def test_the_card_tab_shows_the_strategy_card_of_the_session_paytable(server, browser) -> None:
    """The "Strategy card" tab: the page asks the server for the card (202 while its worker finds it,
    then the card), and shows its rules, its exact cost, the house edge and the Pareto table."""
    OUT.mkdir(parents=True, exist_ok=True)
    page = Page(browser, server)
    sid = httpx.post(f"{server.url}api/sessions", json={"hands": 3, "bankroll": 30},
                     headers={"Content-Type": "application/json"}, timeout=30).json()["id"]
    browser.get(f"{server.url}?session={sid}")
    page.wait_phase("betting")
    assert not page.el("card-view").is_displayed() and page.el("table").is_displayed()
    page.click("tab-card")
    assert page.el("card-view").is_displayed() and not page.el("table").is_displayed()
    assert page.el("card-paytable").text == "standard"
    page.wait(lambda: page.el("card-status").get_attribute("data-status") == "ready", "the card", timeout=240)
    card = httpx.get(f"{server.url}api/sessions/{sid}/card", timeout=30).json()
    lines = card["card"]["card"]["text"]
    shown = [li.text for li in page.el("card-rules").find_elements(By.TAG_NAME, "li")]
    assert shown == [line.split(". ", 1)[1] for line in lines[:-1]] and len(shown) == 3
    assert page.el("card-line").text == lines[-1] == "Otherwise raise with A-K high or better; fold the rest."
    assert "standard" in page.el("card-title").text
    cost = page.el("card-cost").text
    assert cost.startswith("44,846,352 units over all 19,933,230,517,200 deals")
    assert "0.000225% per ante" in cost
    assert page.el("card-edge").text == f"{100 * card['card']['house_edge_float']:.4f}%"
    assert page.el("card-optimal").text == "5.2243%"
    rows = page.el("card-pareto").find_elements(By.TAG_NAME, "tr")
    assert [r.find_elements(By.XPATH, "./*")[0].text for r in rows] == ["rules", "0", "1", "2", "3", "4", "5"]
    assert rows[4].get_attribute("class") == "mine" and "44,846,352" in rows[4].text
    assert "Proven cheapest" in page.el("card-note").text
    browser.save_screenshot(str(OUT / "table-card.png"))
    browser.set_window_size(390, 844)
    try:  # at phone width the card and the Pareto table fit without sideways scrolling
        page.wait(lambda: browser.execute_script("return document.documentElement.scrollWidth") <= 400,
                  "the card tab fits 390 px", timeout=5)
        browser.save_screenshot(str(OUT / "table-card-phone.png"))
    finally:
        browser.set_window_size(1280, 1000)
    page.key("d")  # the table's keys do nothing while the card is shown
    time.sleep(0.5)
    assert page.api()["phase"] == "betting"
    page.key("k")  # K goes back to the table
    assert page.el("table").is_displayed() and not page.el("card-view").is_displayed()
