"""Redraw the table page's screenshots in docs/images (table.png, table-phone.png) in headless Chromium.

A practice deck (seed 2026) of 20 hands: 17 hands played through the page's API, mostly as the coach
says (three mistakes), with a deposit, then the 18th hand dealt and shown in the decision phase; the
phone view is a fresh session's first decision at 390 px. Run from the repository:
``.venv/bin/python scripts/table_screenshots.py`` (needs chromium and chromedriver: ``make chromium``).
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

IMAGES = Path(__file__).resolve().parents[1] / "docs" / "images"
URL_LINE = re.compile(r"Caribbean Stud table: (http://\S+/)")
JSON = {"Content-Type": "application/json"}
MISTAKES = (3, 9, 14)  # hands (1-based) played against the coach's advice


def start_server(db: Path, *args: str) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen([sys.executable, "-m", "exactodds", "caribbean", "table", "--port", "0", "--db",
                             str(db), *args], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert proc.stdout is not None
    for line in proc.stdout:
        match = URL_LINE.search(line)
        if match:
            return proc, match.group(1)
    raise RuntimeError("the table server stopped")


def browser(width: int, height: int) -> webdriver.Chrome:
    options = Options()
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                f"--window-size={width},{height}", "--hide-scrollbars"):
        options.add_argument(arg)
    options.binary_location = "/usr/bin/chromium"
    driver = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
    driver.set_window_size(width, height)  # headless Chromium starts at least 500 px wide
    return driver


def play(client: httpx.Client, sid: str, hands: int) -> None:
    """``hands`` hands at an ante of 25, each decided as the coach says except the MISTAKES."""
    client.post(f"/api/sessions/{sid}/chips", json={"add": 25}).raise_for_status()
    for hand in range(1, hands + 1):
        view = client.post(f"/api/sessions/{sid}/{'deal' if hand == 1 else 'rebet'}").json()
        if hand == 8:
            view = client.post(f"/api/sessions/{sid}/deposit", json={"amount": 500}).json()
        coach = view["hand"]["coach"]["optimal"]
        choice = ({"raise": "fold", "fold": "raise"}[coach] if hand in MISTAKES else coach)
        if choice == "raise" and not view["hand"]["can_afford_raise"]:
            choice = "fold"
        client.post(f"/api/sessions/{sid}/{choice}").raise_for_status()


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        proc, url = start_server(Path(folder) / "table.db", "--seed", "2026", "--hands", "20",
                                 "--bankroll", "1000")
        try:
            with httpx.Client(base_url=url, timeout=60, headers=JSON) as client:
                sid = client.post("/api/sessions", json={}).json()["id"]
                play(client, sid, 17)
                while client.get(f"/api/sessions/{sid}").json()["odds"] is None:
                    time.sleep(0.2)
                client.post(f"/api/sessions/{sid}/rebet").raise_for_status()
            wide = browser(1280, 1037)
            try:
                wide.get(f"{url}?session={sid}")
                time.sleep(2)
                wide.save_screenshot(str(IMAGES / "table.png"))
            finally:
                wide.quit()
            phone = browser(390, 701)
            try:
                with httpx.Client(base_url=url, timeout=60, headers=JSON) as client:
                    sid = client.post("/api/sessions", json={"hands": 3}).json()["id"]
                    client.post(f"/api/sessions/{sid}/chips", json={"add": 5}).raise_for_status()
                    client.post(f"/api/sessions/{sid}/deal").raise_for_status()
                phone.get(f"{url}?session={sid}")
                time.sleep(2)
                phone.execute_script("arguments[0].scrollIntoView({block: 'start'})",
                                     phone.find_element(By.ID, "player-cards"))
                phone.execute_script("window.scrollBy(0, -80)")  # the hand's name above the cards
                time.sleep(0.5)
                phone.save_screenshot(str(IMAGES / "table-phone.png"))
            finally:
                phone.quit()
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    print(f"wrote {IMAGES / 'table.png'} and {IMAGES / 'table-phone.png'}")


if __name__ == "__main__":
    main()
