"""The service's page in a real headless browser (Debian's chromium and
chromium-driver through Selenium): type a request, read back the entities
displaCy highlighted and the trip."""

import re
import shutil

import pytest

pytest.importorskip("fastapi", reason="the service needs FastAPI: pip install '.[serve]'")
webdriver = pytest.importorskip("selenium.webdriver", reason="the page test needs Selenium: pip install '.[test]'")

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(
    not (CHROMIUM and CHROMEDRIVER), reason="no headless browser: apt-get install chromium chromium-driver"
)


@pytest.fixture(scope="module")
def browser():
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def resolve_on_page(browser, service_url, text):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(service_url + "/")
    box = browser.find_element(By.ID, "text")
    box.clear()
    box.send_keys(text)
    browser.find_element(By.ID, "go").click()
    WebDriverWait(browser, 20).until(lambda b: b.find_element(By.ID, "trip").get_attribute("data-done") == "1")
    entities = []
    for mark in browser.find_elements(By.CSS_SELECTOR, "#entities mark.entity"):
        label = mark.find_element(By.TAG_NAME, "span").text
        entities.append((mark.text.replace(label, "").strip(), label))
    return entities, browser.find_element(By.ID, "trip").text


def test_page_highlights_entities_and_shows_the_trip(browser, service_url):
    entities, trip = resolve_on_page(browser, service_url, "de Marseille à Paris")
    assert entities == [("Marseille", "DEPART"), ("Paris", "ARRIVEE")]
    assert trip == "Marseille → Paris"
    entities, trip = resolve_on_page(browser, service_url, "de Toulouse par Dijon à Lyon")
    assert entities == [("Toulouse", "DEPART"), ("Dijon", "VIA"), ("Lyon", "ARRIVEE")]
    assert trip == "Toulouse → Dijon → Lyon"


def test_page_shows_invalid(browser, service_url):
    entities, trip = resolve_on_page(browser, service_url, "Il fait beau <b>à</b> Paris")
    assert trip == "INVALID"


def test_page_draws_the_network_and_the_journey(browser, service_url, tmp_path):
    """The page draws SNCF's network (grey lines, from /network) and the journey's trains in
    colour, and lists each train with its times, under the entities; the test writes a
    screenshot of it."""
    from selenium.webdriver.common.by import By

    entities, trip = resolve_on_page(browser, service_url, "de Marseille à Paris")
    assert trip == "Marseille → Paris"
    assert int(browser.find_element(By.ID, "map").get_attribute("data-lines")) > 1000
    assert len(browser.find_elements(By.CSS_SELECTOR, "#network polyline")) > 1000
    legs = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#legs li.leg")]
    assert len(legs) == 1  # one TGV, with its number and its times
    assert re.fullmatch(
        r"(TGV INOUI|OUIGO) \d+ Marseille Saint-Charles \d\d:\d\d → Paris Gare de Lyon \d\d:\d\d \(\d h \d\d\)", legs[0]
    )
    summary = browser.find_element(By.ID, "journey-summary").text
    assert re.fullmatch(r"\d\d:\d\d → \d\d:\d\d, \d h \d\d, direct", summary)
    assert "2024-07-02" in browser.find_element(By.ID, "journey-info").text
    drawn = browser.find_elements(By.CSS_SELECTOR, "#journey-legs polyline")
    assert len(drawn) == 1 and len(set(drawn[0].get_attribute("points").split())) >= 2
    assert drawn[0].get_attribute("stroke") == "#d7263d"  # in colour, not the network's grey
    assert len(browser.find_elements(By.CSS_SELECTOR, "#route-marks circle")) == 2
    assert not browser.find_element(By.ID, "route-row").is_displayed()  # the network's route: where no train answers
    browser.set_window_size(1000, 1400)
    shot = tmp_path / "journey_marseille_paris.png"
    assert browser.save_screenshot(str(shot)) and shot.stat().st_size > 10_000
    print(f"screenshot: {shot}")

    # A change: each train its line and its colour
    resolve_on_page(browser, service_url, "de Toulouse par Dijon à Lyon")
    legs = browser.find_elements(By.CSS_SELECTOR, "#legs li.leg")
    assert len(legs) >= 2 and "Dijon" in browser.find_element(By.ID, "legs").text
    strokes = {p.get_attribute("stroke") for p in browser.find_elements(By.CSS_SELECTOR, "#journey-legs polyline")}
    assert len(strokes) >= 2


def test_page_without_a_route_draws_none(browser, service_url):
    from selenium.webdriver.common.by import By

    _, trip = resolve_on_page(browser, service_url, "Il fait beau à Paris")
    assert trip == "INVALID"
    assert browser.find_element(By.ID, "route-path").get_attribute("points") == ""
    assert not browser.find_element(By.ID, "route-row").is_displayed()
    assert not browser.find_element(By.ID, "journey-row").is_displayed()
    assert not browser.find_elements(By.CSS_SELECTOR, "#journey-legs polyline")
