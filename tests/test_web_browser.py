"""fh-play --web in a real browser: headless Chromium (Debian's chromium and chromium-driver,
which `make test` installs) plays a whole hand by clicks on the fixed deal of tests/web_helpers.py
(the trick held with its winner, the aids agreeing, the discards and a current counter after
the claim, the replay page); a three-handed hand and a six-handed open nullo by clicks; a hand
at every table size at desktop and phone size with nothing off screen; the start screen, a
game to the end and its statistics; a second tab that follows; the refusals seen from a page
(no token, a body over the limit, another origin).  The docs' screenshots are made by
scripts/screenshots.py."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from fh_env.records import load_record, replay_states
from fh_env.view import seat_view
from play.aids import Helper, card_count
from web_helpers import SIX_NT, fixed_game, small_table_game

webdriver = pytest.importorskip("selenium.webdriver")
uvicorn = pytest.importorskip("uvicorn")
from selenium.webdriver.chrome.options import Options  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from play.web.server import create_app, serve_in_thread  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM, DRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
# `make test` installs the browser when it is missing (Makefile: browser).


def serving(game):
    """``game`` served by uvicorn on a free port, in a thread of this process: its URL."""
    return serve_in_thread(create_app(game))


@pytest.fixture
def served(tmp_path):
    """The fixed game, served."""
    game = fixed_game(save=tmp_path / "game.json")
    with serving(game) as url:
        yield game, url, tmp_path / "game.json"


SIZES = {"desktop": (1280, 900), "phone": (390, 844)}
PATIENCE = 40  # seconds any wait may take: generous, since CI shares its cores with other work


def chromium(size=(1280, 1000)):
    options = Options()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                f"--window-size={size[0]},{size[1]}"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    driver.set_window_size(*size)
    return driver


@pytest.fixture
def browser():
    driver = chromium()
    yield driver
    driver.quit()


def status(driver) -> dict[str, str]:
    node = driver.find_element(By.ID, "status")
    return {k: node.get_attribute("data-" + k)
            for k in ("phase", "your-turn", "tricks", "events", "table-size")}


def wait_turn(driver, phase: str, tricks: int | None = None) -> None:
    """Until it is the person's turn in ``phase`` (after ``tricks`` tricks)."""
    def ready(d):
        s = status(d)
        return (s["phase"] == phase and s["your-turn"] == "true"
                and (tricks is None or s["tricks"] == str(tricks)))
    WebDriverWait(driver, PATIENCE).until(ready)


def click_card(driver, name: str) -> None:
    driver.find_element(By.CSS_SELECTOR, f'#hand .card[data-card="{name}"]').click()


def message(driver, contains: str) -> str:
    WebDriverWait(driver, PATIENCE).until(
        lambda d: contains in d.find_element(By.ID, "message").text)
    return driver.find_element(By.ID, "message").text


def test_a_whole_hand_by_clicks(served, browser, tmp_path):
    game, url, save = served
    d = browser
    d.get(url + "/")
    # The auction: the call box, with 6NT clickable.
    wait_turn(d, "auction")
    d.find_element(By.CSS_SELECTOR, f'#calls button[data-action="{SIX_NT}"]').click()
    # The kitty exchange: select three cards, then confirm.
    wait_turn(d, "exchange")
    confirm = d.find_element(By.ID, "confirm-discard")
    assert not confirm.is_enabled()
    for name in ("4H", "5S", "JS"):
        click_card(d, name)
    d.find_element(By.ID, "confirm-discard").click()
    # The first lead: the aids' numbers are those of the functions they call.
    wait_turn(d, "play", 0)
    helper = Helper(game.rules, hint_bot="rule", samples=3, seed=11)
    view = seat_view(game.state, 2)
    expected = helper.estimates(game.state, view)
    WebDriverWait(d, PATIENCE).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#aid-estimate tr"))
    rows = d.find_elements(By.CSS_SELECTOR, "#aid-estimate tr")
    shown = [(int(r.get_attribute("data-action")), float(r.get_attribute("data-mean")),
              float(r.get_attribute("data-se"))) for r in rows]
    assert shown == [(e.action, e.mean, e.se) for e in expected]
    WebDriverWait(d, PATIENCE).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#aid-hint .hint"))
    hint = d.find_element(By.CSS_SELECTOR, "#aid-hint .hint")
    assert int(hint.get_attribute("data-action")) == expected[0].action  # one evaluation
    # The estimates panel is compact: the best few rows shown, the rest on a click.
    visible = [r for r in rows if r.is_displayed()]
    assert len(visible) == min(5, len(rows)) < len(rows)
    d.find_element(By.ID, "estimates-more").click()
    assert all(r.is_displayed() for r in d.find_elements(By.CSS_SELECTOR, "#aid-estimate tr"))
    out = {r.get_attribute("data-suit"): int(r.find_element(By.CSS_SELECTOR, ".out").text)
           for r in d.find_elements(By.CSS_SELECTOR, "#aid-counter tr[data-suit]")}
    assert out == {"SCDHJ"[row.suit]: row.out for row in card_count(view)}
    # A joker lead asks for its suit.
    click_card(d, "JK")
    WebDriverWait(d, PATIENCE).until(lambda d: d.find_element(By.ID, "suit-picker").is_displayed())
    d.find_element(By.CSS_SELECTOR, '#suit-buttons button[data-suit="H"]').click()
    # The completed trick stays on the table, its winner marked, for a pause; the bots wait.
    held = WebDriverWait(d, PATIENCE, poll_frequency=0.05).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, '#trick[data-held="1"] .played.winner'))
    winner = game.state.tricks[0][2]
    assert held[0].get_attribute("data-seat") == str(winner)
    assert len(d.find_elements(By.CSS_SELECTOR, "#trick .played")) == 4
    assert "wins the trick" in d.find_element(By.ID, "trick").text
    events = len(game.events)
    time.sleep(game.trick_pause_ms / 2000)
    assert d.find_elements(By.CSS_SELECTOR, '#trick[data-held="1"]') and len(game.events) == events
    WebDriverWait(d, PATIENCE).until(lambda d: not d.find_elements(By.CSS_SELECTOR, '#trick[data-held]'))
    wait_turn(d, "play", 1)
    assert game.state.tricks[0][3] == 3  # hearts led
    # A claim that does not stand (the 5♥ must lose a trick): refused, play goes on.
    d.find_element(By.ID, "claim").click()
    assert "does not stand" in message(d, "does not stand")
    assert status(d)["phase"] == "play"
    # The 5♥ loses to East, who leads a diamond; a spade is refused with the reason.
    click_card(d, "5H")
    wait_turn(d, "play", 2)
    assert "4♦" in d.find_element(By.ID, "trick").text or d.find_element(By.ID, "trick").text
    click_card(d, "AS")
    reason = message(d, "Not allowed")
    assert "you must follow diamonds" in reason
    # The screenshot for docs: a hand in progress with the aids open.  Written to docs/ only
    # when asked (FH_SCREENSHOT=1), so that a test run leaves the checkout as it was.
    WebDriverWait(d, PATIENCE).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#aid-estimate tr"))
    d.execute_script("window.scrollTo(0, 0)")
    shot = tmp_path / "shot.png"  # the docs' screenshots: scripts/screenshots.py
    assert d.save_screenshot(str(shot)) and shot.stat().st_size > 10_000
    click_card(d, "KD")
    wait_turn(d, "play", 3)
    # Now every remaining card is a winner: the claim stands and finishes the hand.
    d.find_element(By.ID, "claim").click()
    message(d, "claim stands")
    WebDriverWait(d, PATIENCE).until(lambda d: status(d)["phase"] == "hand_over")
    assert "South (you)'s 6NT" in d.find_element(By.ID, "result").text
    assert game.state.result.tricks == (9, 1) and game.state.result.made
    # The reveal aid shows every hand once the hand is over; the discards are shown.
    assert "All hands as dealt" in d.find_element(By.ID, "aid-reveal").text
    shown = [c.get_attribute("data-card") for c in
             d.find_elements(By.CSS_SELECTOR, '#result .discards[data-seat="2"] .card')]
    assert sorted(shown) == ["4H", "5S", "JS"]
    # The card counter is current after the claim: nothing is out any more.
    out = {r.get_attribute("data-suit"): int(r.find_element(By.CSS_SELECTOR, ".out").text)
           for r in d.find_elements(By.CSS_SELECTOR, "#aid-counter tr[data-suit]")}
    assert out == {"SCDHJ"[row.suit]: row.out for row in card_count(seat_view(game.state, 2))}
    assert set(out.values()) == {0}
    # The log says the claim stood before the hand's result.
    log = [li.text for li in d.find_elements(By.CSS_SELECTOR, "#log li")]
    claim_at = next(i for i, t in enumerate(log) if t.startswith("Your claim stands"))
    result_at = next(i for i, t in enumerate(log) if "6NT" in t and "made" in t)
    assert claim_at < result_at
    # The record is saved and replays to the same hand; the replay page steps through it.
    record = load_record(save)
    assert replay_states(record)[-1] == game.state
    d.get(url + "/replay")
    WebDriverWait(d, PATIENCE).until(lambda d: "step 1 of" in d.find_element(By.ID, "position").text)
    total = len(record["hands"][0]["actions"]) + 1
    assert d.find_element(By.ID, "position").text == f"step 1 of {total}"
    d.find_element(By.ID, "next").click()
    assert "South calls 6NT" in d.find_element(By.ID, "step-text").text
    # The replay: light text on the felt, the kitty as dealt, controls in plain text.
    colour = d.execute_script(
        "return getComputedStyle(document.getElementById('step-text')).color")
    assert colour == "rgb(255, 255, 255)"
    kitty = d.find_elements(By.CSS_SELECTOR, "#kitty-discards .card")
    assert sorted(c.get_attribute("data-card") for c in kitty) == ["4H", "5S", "JS"]
    for button in d.find_elements(By.CSS_SELECTOR, "#controls button"):
        assert all(ord(ch) < 128 for ch in button.text), button.text
    assert "replay" in d.find_element(By.ID, "table").get_attribute("class")
    assert d.find_elements(By.CSS_SELECTOR, 'meta[name="viewport"]')
    d.find_element(By.ID, "next-hand-step").click()
    assert "won" in d.find_element(By.ID, "replay-result").text or \
        "6NT" in d.find_element(By.ID, "replay-result").text
    # A reload resumes the game where it is.
    d.get(url + "/")
    WebDriverWait(d, PATIENCE).until(lambda d: status(d)["phase"] == "hand_over")


# ---------------------------------------------------------------------- three and six players


def seat_boxes(driver) -> dict[str, str]:
    """The seat boxes shown around the table: position -> the seat's name line."""
    return {box.get_attribute("id")[5:]: box.find_element(By.CLASS_NAME, "seat-name").text
            for box in driver.find_elements(By.CSS_SELECTOR, "#table .seat-box")
            if box.is_displayed()}


def play_out_by_clicks(driver, check_trick) -> None:
    """Click the person's first legal card at each turn until the hand is over (a joker lead
    names the first suit offered); ``check_trick`` looks at the trick shown before each click."""
    def ready(d):
        s = status(d)
        return s["phase"] in ("hand_over", "game_over") or (
            s["phase"] == "play" and s["your-turn"] == "true")
    for _ in range(11):
        WebDriverWait(driver, PATIENCE).until(ready)
        s = status(driver)
        if s["phase"] != "play":
            return
        WebDriverWait(driver, PATIENCE).until(
            lambda d: not d.find_elements(By.CSS_SELECTOR, '#trick[data-held]'))
        check_trick(driver.find_elements(By.CSS_SELECTOR, "#trick .played"))
        driver.find_elements(By.CSS_SELECTOR, "#hand .card.legal")[0].click()
        if driver.find_element(By.ID, "suit-picker").is_displayed():
            driver.find_elements(By.CSS_SELECTOR, "#suit-buttons button:enabled")[0].click()
        WebDriverWait(driver, PATIENCE).until(lambda d: status(d)["events"] != s["events"])
    raise AssertionError("the hand did not end")


def test_the_calls_take_clicks_while_the_cards_are_dealt(served, browser):
    """The new hand's cards slide in from above, through the call box: held at the start of
    their animation, a click on any call must still reach the call, not a card in flight
    (CI once lost a 6NT click to one)."""
    game, url, _ = served
    d = browser
    d.get(url + "/")
    wait_turn(d, "auction")
    hits = d.execute_script("""
        const animations = document.getAnimations();
        animations.forEach((a) => a.pause());
        const end = Math.max(...animations.map((a) => a.effect.getComputedTiming().endTime));
        const misses = new Set();
        for (let t = 0; t <= end; t += 10) {
          animations.forEach((a) => { a.currentTime = t; });
          for (const b of document.querySelectorAll('#calls button')) {
            const r = b.getBoundingClientRect();
            const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
            if (!b.contains(hit)) misses.add(b.dataset.action + ' hits ' + (hit && hit.className));
          }
        }
        return [...misses];""")
    assert d.find_elements(By.CSS_SELECTOR, "#hand .card.dealt")  # the deal was animated
    assert hits == []


def test_a_three_handed_hand_by_clicks(browser, tmp_path):
    """West (the person) bids the lowest bid, takes the kitty, discards by clicks and plays the
    hand out against North and East; then the replay page steps through it at three seats."""
    game = small_table_game("three-handed", 2, seed=5, pace_ms=30,
                            save=tmp_path / "three.json")
    d = browser
    with serving(game) as url:
        d.get(url + "/")
        wait_turn(d, "auction")
        assert status(d)["table-size"] == "3"
        boxes = seat_boxes(d)  # clockwise from West: North on the left, East on the right
        assert set(boxes) == {"left", "right"}
        assert boxes["left"].startswith("North (pass)") and boxes["right"].startswith("East (pass)")
        assert "West (you) 0" in d.find_element(By.ID, "scores").text
        assert len(d.find_elements(By.CSS_SELECTOR, "#kitty-pile .card.back")) == 3
        headers = [th.text for th in d.find_elements(By.CSS_SELECTOR, "#auction th")]
        assert sorted(headers) == ["East", "North", "West (you)"]
        bid = [b for b in d.find_elements(By.CSS_SELECTOR, "#calls button.call:not(.dim)")
               if b.get_attribute("data-action") != "0"][0]
        label = bid.text
        bid.click()
        wait_turn(d, "exchange")
        assert len(d.find_elements(By.CSS_SELECTOR, "#hand .card")) == 13
        assert len(d.find_elements(By.CSS_SELECTOR, "#hand .card.from-kitty")) == 3
        discards = [c.get_attribute("data-card")
                    for c in d.find_elements(By.CSS_SELECTOR, "#hand .card")[:3]]
        for name in discards:  # each click draws the hand again
            click_card(d, name)
        d.find_element(By.ID, "confirm-discard").click()
        assert f"Contract {label} by West (you)" in \
            WebDriverWait(d, PATIENCE).until(lambda d: d.find_element(By.ID, "contract").text)
        sizes = []

        def check_trick(played):
            seats = {p.get_attribute("data-seat") for p in played}
            assert seats <= {"0", "1"} and len(played) <= 2
            sizes.append(len(played))

        play_out_by_clicks(d, check_trick)
        assert status(d)["phase"] in ("hand_over", "game_over")
        assert f"West (you)'s {label}" in d.find_element(By.ID, "result").text
        assert len(d.find_elements(By.CSS_SELECTOR, "#last-trick .played")) == 3
        assert d.find_element(By.ID, "tricks-won").text.startswith("Tricks: North ")
        assert len(game.state.tricks) == 10 and all(len(t[1]) == 3 for t in game.state.tricks)
        assert set(sizes) <= {0, 1, 2} and len(sizes) == 10
        record = load_record(tmp_path / "three.json")
        assert replay_states(record)[-1] == game.state
        d.get(url + "/replay")
        WebDriverWait(d, PATIENCE).until(lambda d: "step 1 of" in d.find_element(By.ID, "position").text)
        assert len(d.find_elements(By.CSS_SELECTOR, "#hands .who")) == 3
        assert "North 0 · East 0 · West 0" in d.find_element(By.ID, "scores").text
        d.find_element(By.ID, "next-hand-step").click()
        assert d.find_element(By.ID, "replay-result").text


def test_a_six_handed_open_nullo_by_clicks(browser, tmp_path):
    """South calls open nullo: five seat boxes around the table, North-east and North-west sit
    out (shown in their boxes and in the trick), tricks of four; the six-handed pack's cards
    are clicked like the others."""
    game = small_table_game("six-handed", 3, seed=5, pace_ms=30)
    d = browser
    with serving(game) as url:
        d.get(url + "/")
        wait_turn(d, "auction")
        assert status(d)["table-size"] == "6"
        assert set(seat_boxes(d)) == {"left", "top-left", "top", "top-right", "right"}
        assert seat_boxes(d)["top"].startswith("North (pass)")
        assert seat_boxes(d)["left"].startswith("South-west")
        labels = [b.text for b in d.find_elements(By.CSS_SELECTOR, "#calls button.call")]
        assert "10NT" in labels and "open nullo" in labels and "double nullo" not in labels
        d.find_element(By.CSS_SELECTOR, '#calls button[data-action="27"]').click()
        wait_turn(d, "exchange")
        discards = [c.get_attribute("data-card")
                    for c in d.find_elements(By.CSS_SELECTOR, "#hand .card")[:3]]
        for name in discards:  # each click draws the hand again
            click_card(d, name)
        d.find_element(By.ID, "confirm-discard").click()
        wait_turn(d, "play", 0)
        assert "North-east and North-west sit out" in d.find_element(By.ID, "contract").text
        for pos in ("top-left", "top-right"):
            assert "sits this hand out" in d.find_element(By.ID, "seat-" + pos).text
        shown = []

        def check_trick(played):
            out = {p.get_attribute("data-seat") for p in played
                   if "sits-out" in p.get_attribute("class")}
            cards = [p for p in played if "sits-out" not in p.get_attribute("class")]
            assert out == {"1", "5"} and len(cards) <= 3
            shown.extend(c.find_element(By.CSS_SELECTOR, ".card").get_attribute("data-card")
                         for c in cards)

        play_out_by_clicks(d, check_trick)
        assert "open nullo" in d.find_element(By.ID, "result").text
        assert all(len(t[1]) == 4 for t in game.state.tricks)
        played = {c for t in game.state.tricks for c in t[1]}
        assert any(c >= 46 for c in played)  # the six-handed pack's cards, by clicks too


# ---------------------------------------------------------------------- every screen size


def fits(driver) -> None:
    """No horizontal scrolling; the hand, the seats and the buttons on screen (in width)."""
    width = driver.execute_script("return document.documentElement.clientWidth")
    assert driver.execute_script("return document.documentElement.scrollWidth") <= width
    for css in ("#hand .card", ".seat-box:not([hidden])", "#bottom button", "#calls button",
                "header > *"):
        for node in driver.find_elements(By.CSS_SELECTOR, css):
            rect = driver.execute_script("return arguments[0].getBoundingClientRect()", node)
            assert rect["left"] >= -1 and rect["right"] <= width + 1, (css, rect, width)


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("preset, person", [("three-handed", 2), ("australian-no-nullo", 2),
                                            ("six-handed", 3)])
def test_a_hand_by_clicks_at_every_table_size_and_screen(preset, person, size, tmp_path):
    """Desktop and phone, three, four and six players: the bid, the discards (the Discard
    button on screen) and every card by clicks, with nothing off screen sideways and every
    completed trick held on the table before the next lead."""
    game = small_table_game(preset, person, seed=5, pace_ms=20)
    game.trick_pause_ms = 400
    d = chromium(SIZES[size])
    try:
        with serving(game) as url:
            d.get(url + "/")
            wait_turn(d, "auction")
            fits(d)
            header = d.find_element(By.TAG_NAME, "header").size["height"]
            assert header < 130  # at most a few lines
            bid = [b for b in d.find_elements(By.CSS_SELECTOR, "#calls button.call:not(.dim)")
                   if b.get_attribute("data-action") != "0"][0]
            bid.click()
            wait_turn(d, "exchange")
            fits(d)
            for name in [c.get_attribute("data-card")
                         for c in d.find_elements(By.CSS_SELECTOR, "#hand .card")][:3]:
                click_card(d, name)
            confirm = d.find_element(By.ID, "confirm-discard")
            d.execute_script("arguments[0].scrollIntoView()", confirm)
            assert confirm.is_displayed() and confirm.is_enabled()
            confirm.click()
            wait_turn(d, "play", 0)
            assert d.find_element(By.ID, "needed").text  # the tricks-needed counter
            held = set()

            def check_trick(played):
                fits(d)

            def ready(dr):
                st = status(dr)
                if dr.find_elements(By.CSS_SELECTOR, '#trick[data-held="1"]'):
                    held.add(st["tricks"])
                return st["phase"] in ("hand_over", "game_over") or (
                    st["phase"] == "play" and st["your-turn"] == "true")

            for _ in range(11):
                WebDriverWait(d, PATIENCE, poll_frequency=0.05).until(ready)
                s = status(d)
                if s["phase"] != "play":
                    break
                WebDriverWait(d, PATIENCE).until(
                    lambda dr: not dr.find_elements(By.CSS_SELECTOR, '#trick[data-held]'))
                check_trick(None)
                card = d.find_elements(By.CSS_SELECTOR, "#hand .card.legal")[0]
                card.click()
                if d.find_element(By.ID, "suit-picker").is_displayed():
                    d.find_elements(By.CSS_SELECTOR, "#suit-buttons button:enabled")[0].click()
                WebDriverWait(d, PATIENCE).until(lambda dr: status(dr)["events"] != s["events"])
            assert status(d)["phase"] in ("hand_over", "game_over")
            assert len(held) >= 5  # most tricks were seen held (the poll is coarse)
            fits(d)
    finally:
        d.quit()


FEEDBACK_MS = 300  # the bar: every click shows something within this

#: Clicks ``arguments[0]`` and notes when the page first changes (a class, an attribute, a node:
#: the card marked pending, the selection, the next screen) after the click began.
TIMED_CLICK = """
const el = arguments[0];
const t0 = performance.now();
window.__feedback = null;
const seen = new MutationObserver(() => {
  if (window.__feedback === null) window.__feedback = performance.now() - t0;
});
seen.observe(document.body, {subtree: true, childList: true, attributes: true});
window.__stopFeedback = () => seen.disconnect();
el.click();
"""


def timed_click(driver, element) -> float:
    """Milliseconds from a click to the page's first visible change."""
    driver.execute_script(TIMED_CLICK, element)
    WebDriverWait(driver, 2, poll_frequency=0.02).until(
        lambda d: d.execute_script("return window.__feedback") is not None)
    ms = driver.execute_script("window.__stopFeedback(); return window.__feedback")
    return float(ms)


def test_every_click_of_a_hand_shows_feedback_within_300_ms(tmp_path):
    """A hand clicked through (a bid, three discards, the Discard button, every card): each
    click changes the page within FEEDBACK_MS, before any answer of the server is needed."""
    game = small_table_game("australian-no-nullo", 2, seed=5, pace_ms=20)
    d = chromium(SIZES["desktop"])
    waits = []
    try:
        with serving(game) as url:
            d.get(url + "/")
            wait_turn(d, "auction")
            bid = [b for b in d.find_elements(By.CSS_SELECTOR, "#calls button.call:not(.dim)")
                   if b.get_attribute("data-action") != "0"][0]
            waits.append(timed_click(d, bid))
            wait_turn(d, "exchange")
            for name in [c.get_attribute("data-card")
                         for c in d.find_elements(By.CSS_SELECTOR, "#hand .card")][:3]:
                card = d.find_element(By.CSS_SELECTOR, f'#hand .card[data-card="{name}"]')
                waits.append(timed_click(d, card))
            confirm = d.find_element(By.ID, "confirm-discard")
            d.execute_script("arguments[0].scrollIntoView()", confirm)
            waits.append(timed_click(d, confirm))
            for _ in range(10):
                WebDriverWait(d, PATIENCE, poll_frequency=0.05).until(
                    lambda dr: status(dr)["phase"] in ("hand_over", "game_over") or (
                        status(dr)["phase"] == "play" and status(dr)["your-turn"] == "true"
                        and not dr.find_elements(By.CSS_SELECTOR, "#trick[data-held]")))
                s = status(d)
                if s["phase"] != "play":
                    break
                waits.append(timed_click(d, d.find_elements(By.CSS_SELECTOR,
                                                            "#hand .card.legal")[0]))
                if d.find_element(By.ID, "suit-picker").is_displayed():
                    waits.append(timed_click(d, d.find_elements(
                        By.CSS_SELECTOR, "#suit-buttons button:enabled")[0]))
                WebDriverWait(d, PATIENCE).until(lambda dr: status(dr)["events"] != s["events"])
    finally:
        d.quit()
    assert len(waits) >= 10  # the bid, the discards and the cards were all clicked
    assert max(waits) < FEEDBACK_MS, waits


# ---------------------------------------------------------------------- start screen, stats


def test_the_start_screen_a_game_to_the_end_and_its_statistics(tmp_path):
    """The page opens on the start screen (every preset, the ladder with ratings); a short
    game against Beginner is played by clicks to game over; New game shows the statistics
    that the SQLite file holds."""
    from play.web.server import Host
    from play.web.stats import Stats

    stats = Stats(tmp_path / "stats.sqlite3")
    host = Host(None, stats=stats, save_dir=tmp_path, pace_ms=10)
    d = chromium(SIZES["phone"])
    try:
        with serve_in_thread(create_app(host=host)) as url:
            d.get(url + "/")
            WebDriverWait(d, PATIENCE).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#start-levels input"))
            assert d.find_element(By.ID, "start").is_displayed()
            options = [o.get_attribute("value") for o in
                       d.find_elements(By.CSS_SELECTOR, "#start-preset option")]
            from fh_env.rules import PRESETS
            assert options == list(PRESETS)
            levels = d.find_element(By.ID, "start-levels").text
            assert "Strongest: neural:best (rating +178)" in levels and "Beginner: random" in levels
            d.find_element(By.ID, "level-beginner").click()
            target = d.find_element(By.ID, "start-target")
            target.clear()
            target.send_keys("50")
            d.find_element(By.ID, "start-go").click()
            WebDriverWait(d, PATIENCE).until(lambda d: status(d)["phase"] in ("auction", "exchange", "play", "hand_over", "game_over"))
            assert host.game.rules.target == 50
            for _ in range(400):
                if host.game.state.game_over and status(d)["phase"] == "game_over":
                    break
                s = status(d)
                if s["your-turn"] == "true" and s["phase"] == "auction":
                    d.find_element(By.CSS_SELECTOR, '#calls button[data-action="0"]').click()
                elif s["your-turn"] == "true" and s["phase"] == "exchange":
                    for c in d.find_elements(By.CSS_SELECTOR, "#hand .card")[:3]:
                        click_card(d, c.get_attribute("data-card"))
                    d.find_element(By.ID, "confirm-discard").click()
                elif s["your-turn"] == "true" and s["phase"] == "play":
                    d.find_elements(By.CSS_SELECTOR, "#hand .card.legal")[0].click()
                    if d.find_element(By.ID, "suit-picker").is_displayed():
                        d.find_elements(By.CSS_SELECTOR, "#suit-buttons button:enabled")[0].click()
                elif s["phase"] == "hand_over" and d.find_elements(By.ID, "next-hand"):
                    d.find_element(By.ID, "next-hand").click()
                else:
                    time.sleep(0.1)
                    continue
                WebDriverWait(d, PATIENCE).until(lambda dr: status(dr)["events"] != s["events"]
                                           or status(dr)["phase"] == "game_over")
            assert host.game.state.game_over
            summary = stats.summary()["beginner"]
            assert summary["played"] == 1 and summary["hands"] == host.game.hand_no
            won = int(host.game.state.winner == 0)
            assert summary["won"] == won
            d.find_element(By.ID, "new-game").click()
            row = WebDriverWait(d, PATIENCE).until(
                lambda d: d.find_elements(By.CSS_SELECTOR, '#stats tr[data-level="beginner"]'))[0]
            assert row.find_element(By.CLASS_NAME, "played").text == "1"
            assert row.find_element(By.CLASS_NAME, "won").text == str(won)
            assert row.find_element(By.CLASS_NAME, "made").text == \
                f"{summary['made']} of {summary['bid']}"
    finally:
        d.quit()
        stats.close()


# ---------------------------------------------------------------------- two tabs, refusals


def test_a_second_tab_follows_and_another_site_cannot_play(served, browser):
    """A second tab follows the game without a click; a page of another origin posting to the
    server (text/plain, no-cors) is refused by its Origin, as is a request
    without the token and a body over the limit."""
    game, url, _ = served
    d = browser
    d.get(url + "/")
    wait_turn(d, "auction")
    first = d.current_window_handle
    d.switch_to.new_window("tab")
    d.get(url + "/")
    wait_turn(d, "auction")
    second = d.current_window_handle
    d.switch_to.window(first)
    d.find_element(By.CSS_SELECTOR, f'#calls button[data-action="{SIX_NT}"]').click()
    wait_turn(d, "exchange")
    d.switch_to.window(second)
    WebDriverWait(d, PATIENCE).until(lambda d: status(d)["phase"] == "exchange")
    assert "6NT" in d.find_element(By.ID, "log").text
    assert len(game.state.calls) == 4  # both tabs asked for the bots' moves: made once each
    token = d.find_element(By.CSS_SELECTOR, 'meta[name="fh-token"]').get_attribute("content")
    # From the page itself: no token, 403; a body over the limit, 413.
    status_of = d.execute_async_script("""
        const done = arguments[arguments.length - 1];
        Promise.all([
          fetch('/api/discard', {method: 'POST', body: '{"cards": ["4H", "5S", "JS"]}'}),
          fetch('/api/replay', {method: 'POST', headers: {'X-FH-Token': arguments[0]},
                                body: 'x'.repeat(3 << 20)}),
        ]).then((rs) => done(rs.map((r) => r.status)), (e) => done(String(e)));""", token)
    assert status_of == [403, 413]
    assert game.state.phase.name == "EXCHANGE"
    # Another origin (localhost is another origin than 127.0.0.1 to a browser, but the same
    # server: the page is on a different site than the one it posts to).
    other = url.replace("127.0.0.1", "localhost") + "/static/style.css"
    d.get(other)
    d.execute_async_script("""
        const done = arguments[arguments.length - 1];
        fetch(arguments[0] + '/api/discard', {method: 'POST', mode: 'no-cors',
              headers: {'Content-Type': 'text/plain'},
              body: '{"cards": ["4H", "5S", "JS"]}'}).then(() => done(1), () => done(0));""",
                       url)
    time.sleep(0.3)
    assert game.state.phase.name == "EXCHANGE"  # refused: Origin is http://localhost:PORT
