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
