"""How a `report` page behaves in a browser: its load, and filtering, showing every row and
sorting its first key table, timed inside headless Chromium (Debian's `chromium`).

    python benchmarks/report_page.py PAGE.html [--runs 3]

Each run opens the page in a fresh tab of one browser and reads, from the page's own clock
(`performance.now()`, each step followed by a forced layout so it counts what the reader
waits for): DOMContentLoaded and load from navigation start, typing a filter that matches one
key, clearing it, choosing a status, sorting by key twice, pressing "Show all" (a page that
shows every row has none: 0), and sorting with every row shown. Prints
min / median of each in ms as JSON. Uses the test suite's DevTools driver
(`tests/reports/chromium.py`): no driver package.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.reports.chromium import CHROMIUM, Chromium

_STEPS = """(function(){
var section=document.querySelector('section.keys');if(!section)return null;
var input=section.querySelector('input[type=search]'),select=section.querySelector('select');
var more=section.querySelector('button.more'),sort=section.querySelectorAll('th button')[1];
var key=section.querySelector('tbody tr').cells[1].textContent;
function timed(act){var t=performance.now();act();document.body.offsetHeight;
return performance.now()-t;}
var timing=performance.timing,out={
dom_ms:timing.domContentLoadedEventEnd-timing.navigationStart,
load_ms:timing.loadEventEnd-timing.navigationStart,
rows:section.querySelectorAll('tbody tr').length};
out.filter_ms=timed(function(){input.value=key;input.dispatchEvent(new Event('input'));});
out.clear_ms=timed(function(){input.value='';input.dispatchEvent(new Event('input'));});
out.status_ms=timed(function(){select.value=select.options[select.options.length-1].value;
select.dispatchEvent(new Event('change'));});
select.value='';select.dispatchEvent(new Event('change'));
out.sort_ms=timed(function(){sort.click();});
out.sort_again_ms=timed(function(){sort.click();});
out.show_all_ms=!more||more.hidden?0:timed(function(){more.click();});
out.sort_all_shown_ms=timed(function(){sort.click();});
return JSON.stringify(out);})()"""


def measure(browser: Chromium, page: Path) -> dict[str, float]:
    """One load of `page` and the steps above, in ms (and the table's row count)."""
    browser.page("Page.enable")
    first = len(browser.events)
    browser.page("Page.navigate", url=page.resolve().as_uri())
    browser.wait_for("Page.loadEventFired", first)
    found = browser.evaluate(_STEPS)
    if found is None:
        raise SystemExit(f"{page}: no key table")
    values: dict[str, float] = json.loads(found)
    return values


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("page", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    if CHROMIUM is None:
        raise SystemExit("chromium is not installed (apt-get install chromium)")
    browser = Chromium()
    try:
        runs = [measure(browser, args.page) for _ in range(args.runs)]
    finally:
        browser.close()
    summary = {
        name: {
            "min": round(min(run[name] for run in runs)),
            "median": round(statistics.median(run[name] for run in runs)),
        }
        for name in runs[0]
    }
    print(json.dumps({"page": str(args.page), "bytes": args.page.stat().st_size, **summary}))


if __name__ == "__main__":
    main()
