"""One headless Chromium for the browser tests (Debian's ``chromium`` + ``chromium-driver``, via
Selenium), shared by every test of a test worker (``conftest.py``'s ``chromium`` fixture)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

DESKTOP = (1280, 1000)


def _binary(*names: str) -> str:
    for name in names:
        found = shutil.which(name) or (f"/usr/bin/{name}" if Path(f"/usr/bin/{name}").exists() else None)
        if found:
            return found
    pytest.fail(f"{' or '.join(names)} is missing: `make chromium` installs Debian's chromium and "
                "chromium-driver (make test does it)")


def start_chromium() -> webdriver.Chrome:
    """Headless Chromium; pages in background windows keep their timers (several players at once)."""
    options = Options()
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                f"--window-size={DESKTOP[0]},{DESKTOP[1]}", "--disable-extensions", "--no-first-run",
                "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
                "--disable-backgrounding-occluded-windows"):
        options.add_argument(arg)
    options.binary_location = _binary("chromium", "chromium-browser")
    try:
        driver = webdriver.Chrome(options=options, service=Service(_binary("chromedriver")))
    except WebDriverException as exc:
        pytest.fail(f"headless Chromium did not start: {exc.msg}")
    driver.set_page_load_timeout(60)
    return driver


def new_window(driver: webdriver.Chrome, url: str) -> str:
    """A new window showing ``url``; its handle (the driver is switched to it). The stud pages keep
    no cookie or storage (a link's token is after the # of its address), so windows of one browser
    are as separate as different people's browsers."""
    driver.switch_to.new_window("window")
    driver.get(url)
    return driver.current_window_handle
