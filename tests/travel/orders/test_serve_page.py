"""The service's page in a real headless browser (Debian's chromium and
chromium-driver through Selenium): type a request, read back the entities
displaCy highlighted and the trip."""

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


def test_page_draws_the_network_and_the_route(browser, service_url, tmp_path):
    """The page draws SNCF's network (grey lines, from /network) and the route in colour,
    under the entities; the test writes a screenshot of it."""
    from selenium.webdriver.common.by import By

    entities, trip = resolve_on_page(browser, service_url, "de Marseille à Paris")
    assert trip == "Marseille → Paris"
    assert int(browser.find_element(By.ID, "map").get_attribute("data-lines")) > 1000
    assert len(browser.find_elements(By.CSS_SELECTOR, "#network polyline")) > 1000
    path = browser.find_element(By.ID, "route-path").get_attribute("points").split()
    assert len(path) >= 3 and len(set(path)) >= 3  # a drawn path, not one point
    stops = browser.find_element(By.ID, "route-stops").text.split(" → ")
    assert stops[0] == "Marseille Saint-Charles" and stops[-1].startswith("Paris ")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#route-marks circle")) == len(stops)
    assert "km" in browser.find_element(By.ID, "route-info").text
    # The route's stroke is drawn in colour, not in the network's grey.
    stroke = browser.execute_script("return getComputedStyle(document.getElementById('route-path')).stroke")
    assert stroke == "rgb(215, 38, 61)"
    browser.set_window_size(1000, 1400)
    shot = tmp_path / "route_marseille_paris.png"
    assert browser.save_screenshot(str(shot)) and shot.stat().st_size > 10_000
    print(f"screenshot: {shot}")


def test_page_without_a_route_draws_none(browser, service_url):
    from selenium.webdriver.common.by import By

    _, trip = resolve_on_page(browser, service_url, "Il fait beau à Paris")
    assert trip == "INVALID"
    assert browser.find_element(By.ID, "route-path").get_attribute("points") == ""
    assert not browser.find_element(By.ID, "route-row").is_displayed()
