"""`report`'s page in a real browser (headless Chromium over the DevTools protocol): it loads
with no console error and no request leaving the page, filters and sorts in the page, works
from the keyboard and at phone width, and says each status in words (readable without colour).

`I18NPRUNE_REPORT_SCREENSHOT=docs/images/report.png python -m pytest tests/reports` also saves
the screenshot the docs show."""

from __future__ import annotations

import json
import os
import struct
from collections.abc import Iterator
from pathlib import Path

import pytest

from i18nprune.reports.page import FIRST_ROWS
from tests.conftest import require_tool, write_tree
from tests.reports.chromium import CHROMIUM, Chromium
from tests.reports.test_report_command import APP

pytestmark = pytest.mark.slow  # every test drives a headless Chromium

# More keys than a screen, so filtering and sorting have something to do.
MANY = {
    **APP,
    "src/more.ts": "".join(f"t('more.key{index:02d}');\n" for index in range(12)),
}


@pytest.fixture
def page(tmp_path: Path, run_cli) -> Path:
    root = write_tree(tmp_path / "app", MANY)
    result = run_cli("report", "--out", "report.html", cwd=root)
    assert result.code == 0, result.stderr
    return root / "report.html"


@pytest.fixture(scope="module")
def chromium() -> Iterator[Chromium]:
    """One browser for the module (starting one takes seconds)."""
    require_tool(
        CHROMIUM is not None, "chromium", "apt-get install chromium", "the report page's test"
    )
    opened = Chromium()
    try:
        yield opened
    finally:
        opened.close()


@pytest.fixture
def browser(chromium: Chromium) -> Chromium:
    """The browser with its screen and media as they were before any test changed them."""
    chromium.page("Emulation.clearDeviceMetricsOverride")
    chromium.page("Emulation.setEmulatedMedia", features=[])
    return chromium


def load(browser: Chromium, page: Path) -> int:
    """Open `page` with every domain reporting; the index of the first event of this load."""
    for domain in ("Page", "Runtime", "Log", "Network"):
        browser.page(f"{domain}.enable")
    first = len(browser.events)
    browser.page("Page.navigate", url=page.as_uri())
    browser.wait_for("Page.loadEventFired", first)
    return first


def problems(browser: Chromium, first: int, page: Path) -> list[str]:
    """Console errors and warnings, exceptions, and requests for anything but the page."""
    found = []
    for event in browser.events[first:]:
        method, params = event["method"], event.get("params", {})
        if method == "Runtime.exceptionThrown":
            found.append(f"exception: {params['exceptionDetails']}")
        elif method == "Runtime.consoleAPICalled" and params["type"] in ("error", "warning"):
            found.append(f"console.{params['type']}: {params['args']}")
        elif method == "Log.entryAdded" and params["entry"]["level"] in ("error", "warning"):
            found.append(f"log: {params['entry']['text']}")
        elif method == "Network.requestWillBeSent" and params["request"]["url"] != page.as_uri():
            found.append(f"request: {params['request']['url']}")
    return found


def visible_keys(browser: Chromium) -> list[str]:
    return browser.evaluate(
        "Array.from(document.querySelectorAll('#key-table tbody tr'))"
        ".filter(row => !row.hidden).map(row => row.cells[1].textContent)"
    )


def test_the_page_loads_alone_and_filters_and_sorts_from_the_keyboard(browser, page, tmp_path):
    first = load(browser, page)

    assert problems(browser, first, page) == []
    everything = visible_keys(browser)
    assert len(everything) == 16  # 13 missing, 1 unused, 1 needs review, 1 quality
    assert browser.evaluate("document.getElementById('shown').textContent") == "16 of 16 shown"

    # Tab from the top of the page reaches the filter; typing filters the table
    for _ in range(10):
        if browser.evaluate("document.activeElement.id") == "filter-text":
            break
        browser.press("Tab", "Tab", 9)
    assert browser.evaluate("document.activeElement.id") == "filter-text"
    browser.page("Input.insertText", text="home.")
    assert visible_keys(browser) == ["home.absent", "home.old", "home.title", "home.greeting"]
    assert browser.evaluate("document.getElementById('shown').textContent") == "4 of 16 shown"

    # the Key column's button, reached with Tab and pressed with Enter, sorts; again reverses
    for _ in range(3):  # the status select, then the Status and Key headers' buttons
        browser.press("Tab", "Tab", 9)
    assert browser.evaluate("document.activeElement.textContent") == "Key"
    browser.press("Enter", "Enter", 13, text="\r")
    assert visible_keys(browser) == ["home.absent", "home.greeting", "home.old", "home.title"]
    browser.press("Enter", "Enter", 13, text="\r")
    assert visible_keys(browser) == ["home.title", "home.old", "home.greeting", "home.absent"]
    assert (
        browser.evaluate("document.querySelector('#key-table th[aria-sort]').textContent") == "Key"
    )

    # the status filter, by keyboard choice of the select's value
    browser.evaluate("document.getElementById('filter-text').value = ''")
    browser.evaluate(
        "const s = document.getElementById('filter-status'); s.value = 'unused';"
        "s.dispatchEvent(new Event('change'))"
    )
    assert visible_keys(browser) == ["home.old"]
    assert problems(browser, first, page) == []


def test_thousands_of_keys_show_the_first_rows_until_asked_and_filter_all_of_them(
    browser, tmp_path, run_cli
):
    calls = "".join(f"t('bulk.key{index:04d}');\n" for index in range(FIRST_ROWS + 100))
    root = write_tree(tmp_path / "bulk", {**APP, "src/bulk.ts": calls})
    assert run_cli("report", "--out", "report.html", cwd=root).code == 0
    page = root / "report.html"
    first = load(browser, page)
    total = FIRST_ROWS + 100 + 4  # and home.absent, home.old, home.title, home.greeting

    assert problems(browser, first, page) == []
    assert len(visible_keys(browser)) == FIRST_ROWS
    shown = "document.getElementById('shown').textContent"
    assert browser.evaluate(shown) == f"{FIRST_ROWS} of {total} shown"
    # a key past the first rows is found by the filter
    browser.evaluate("document.getElementById('filter-text').focus()")
    browser.page("Input.insertText", text="bulk.key0550")
    assert visible_keys(browser) == ["bulk.key0550"]
    browser.evaluate(
        "const f = document.getElementById('filter-text'); f.value = 'bulk.';"
        "f.dispatchEvent(new Event('input'))"
    )
    assert (
        browser.evaluate(shown)
        == f"{FIRST_ROWS} of {FIRST_ROWS + 100} matching shown ({total} in all)"
    )
    # the button that shows the rest is the next stop of Tab, and Enter presses it
    browser.press("Tab", "Tab", 9)  # the status select
    browser.press("Tab", "Tab", 9)
    assert browser.evaluate("document.activeElement.textContent") == f"Show all {FIRST_ROWS + 100}"
    browser.press("Enter", "Enter", 13, text="\r")
    assert len(visible_keys(browser)) == FIRST_ROWS + 100
    assert problems(browser, first, page) == []
    # without scripts, every row is there to read
    browser.page("Emulation.setScriptExecutionDisabled", value=True)
    try:
        load(browser, page)
        displayed = browser.evaluate(
            "Array.from(document.querySelectorAll('#key-table tbody tr'))"
            ".filter(row => getComputedStyle(row).display !== 'none').length"
        )
    finally:
        browser.page("Emulation.setScriptExecutionDisabled", value=False)
    assert displayed == total


def test_the_page_fits_a_phone_and_reads_without_colour(browser, tmp_path, run_cli):
    # a key name longer than the screen is wide, in the key table and in the notes
    long_key = "account." + "very_long_key_name_" * 5
    root = write_tree(tmp_path / "app", {**MANY, "src/long.ts": f"t('{long_key}');\n"})
    assert run_cli("report", "--out", "report.html", cwd=root).code == 0
    page = root / "report.html"
    assert long_key in page.read_text()
    browser.page(
        "Emulation.setDeviceMetricsOverride",
        width=375,
        height=740,
        deviceScaleFactor=2,
        mobile=True,
    )
    browser.page(
        "Emulation.setEmulatedMedia",
        features=[{"name": "forced-colors", "value": "active"}],
    )
    first = load(browser, page)

    assert problems(browser, first, page) == []
    assert browser.evaluate("window.innerWidth") == 375
    # nothing wider than the screen: wide tables scroll inside their own box
    assert browser.evaluate("document.documentElement.scrollWidth") <= 375
    statuses = browser.evaluate(
        "Array.from(document.querySelectorAll('#key-table td.status')).map(c => c.textContent)"
    )
    assert set(statuses) == {"missing", "unused", "needs review", "quality"}
    shot = tmp_path / "phone.png"
    browser.screenshot(shot)
    assert png_size(shot)[0] == 750


def test_a_screenshot_of_the_page(browser, tmp_path, run_cli):
    # the page of a pull request, compared with the report of its base branch
    root = write_tree(tmp_path / "app", MANY)
    assert run_cli("report", "--format", "json", "--out", "../main.json", cwd=root).code == 0
    (root / "src/app.ts").write_text((root / "src/app.ts").read_text() + "t('home.new');\n")
    translated = {"title": "Bienvenue", "greeting": "Bonjour {name}"}
    (root / "locales/fr.json").write_text(
        json.dumps({"home": translated, "menu": {"file": "Fichier", "edit": "Édition"}})
    )
    made = run_cli("report", "--baseline", "../main.json", "--out", "report.html", cwd=root)
    assert made.code == 0, made.stderr
    page = root / "report.html"
    browser.page(
        "Emulation.setDeviceMetricsOverride",
        width=1100,
        height=900,
        deviceScaleFactor=1,
        mobile=False,
    )
    first = load(browser, page)
    shot = Path(os.environ.get("I18NPRUNE_REPORT_SCREENSHOT") or tmp_path / "report.png")

    browser.screenshot(shot)

    assert problems(browser, first, page) == []
    assert browser.evaluate("document.querySelector('main h2').textContent").startswith("Since ")
    width, height = png_size(shot)
    assert 1000 < width <= 1100 and height >= 900  # less a scroll bar, when the page has one


def png_size(path: Path) -> tuple[int, int]:
    """A PNG's width and height, from its IHDR chunk."""
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", head[16:24])
    return width, height
