"""The screenshots of docs/play.md: fh-play --web in headless Chromium (Debian's chromium and
chromium-driver, as tests/test_web_browser.py uses), at desktop size (1280x900) and phone size
(390x844), at tables of four, three and six, plus the start screen.

    .venv/bin/python scripts/screenshots.py            # writes docs/web_*.png
    .venv/bin/python scripts/screenshots.py --out DIR

Each game is dealt from a fixed seed with rule bots in every seat; the person's moves up to
the screenshot are the rule bot's too, so the pictures are the same from run to run (up to
the fonts)."""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agents.registry import make_bot  # noqa: E402
from fh_env.rules import Rules  # noqa: E402
from fh_env.view import seat_view  # noqa: E402
from play.aids import Helper  # noqa: E402
from play.render import DEFAULT_SEAT  # noqa: E402
from play.web.server import Host, create_app, serve_in_thread  # noqa: E402
from play.web.session import WebGame  # noqa: E402
from play.web.stats import Stats  # noqa: E402

CHROMIUM, DRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
SIZES = {"desktop": (1280, 900), "phone": (390, 844)}


def game_in_play(preset: str, seed: int, tricks: int) -> WebGame:
    """A game of ``preset`` with rule bots, played (the person's moves by the rule bot too)
    to the person's turn after ``tricks`` tricks."""
    rules = Rules.preset(preset)
    person = DEFAULT_SEAT[rules.players]
    bots = {s: make_bot("rule", rules) for s in range(rules.players) if s != person}
    helper = Helper(rules, hint_bot="rule", samples=8, seed=seed)
    game = WebGame(rules, person, bots, seed=seed, helper=helper, pace_ms=100000,
                   aids=("hint", "estimate", "counter"))
    me, rng = make_bot("rule", rules), random.Random(seed)
    while True:
        state = game.state
        if state.is_terminal:
            game.deal_next()
            continue
        if state.turn == person:
            if len(state.tricks) >= tricks and not state.trick and state.phase.name == "PLAY":
                return game
            game.apply(person, me.act(seat_view(state, person), rng))
        else:
            game.advance()


def browser(size: tuple[int, int]):
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--hide-scrollbars", f"--window-size={size[0]},{size[1]}"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    driver.set_window_size(*size)
    return driver


def shoot(driver, url: str, path: Path, ready_css: str, full: bool = False) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(url)
    WebDriverWait(driver, 60).until(lambda d: d.find_elements(By.CSS_SELECTOR, ready_css))
    time.sleep(0.6)  # the cards' transitions
    if full:  # the whole page's height (a phone scrolls)
        height = driver.execute_script("return document.documentElement.scrollHeight")
        width = driver.execute_script("return window.innerWidth")
        driver.set_window_size(width, min(height + 120, 2400))
        time.sleep(0.3)
    driver.save_screenshot(str(path))
    print(f"{path} ({path.stat().st_size // 1024} KiB)")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default=str(ROOT / "docs"), help="folder (default: docs/)")
    args = p.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    shots = [("australian-no-nullo", 4, 3, "desktop"), ("australian-no-nullo", 4, 3, "phone"),
             ("three-handed", 7, 2, "phone"), ("six-handed", 3, 2, "phone")]
    for preset, seed, tricks, size in shots:
        game = game_in_play(preset, seed, tricks)
        players = game.players
        with serve_in_thread(create_app(game)) as url:
            driver = browser(SIZES[size])
            try:
                shoot(driver, url + "/", out / f"web_{size}_{players}.png",
                      "#aid-estimate tr[data-action]", full=size == "phone")
            finally:
                driver.quit()
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        host = Host(None, stats=Stats(Path(tmp) / "stats.sqlite3"))
        with serve_in_thread(create_app(host=host)) as url:
            driver = browser(SIZES["phone"])
            try:
                shoot(driver, url + "/", out / "web_start_phone.png", "#start-levels input")
            finally:
                driver.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
