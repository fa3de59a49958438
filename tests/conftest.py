import os
import tempfile

import pytest


def pytest_configure(config):
    # The start-up cache of large regular expressions (spacy_seqkit.regex_cache) goes
    # to a folder of this run, not the user's, for the tests and the processes they start.
    os.environ.setdefault("SPACY_SEQKIT_CACHE_DIR", tempfile.mkdtemp(prefix="seqkit-test-cache-"))


def pytest_addoption(parser):
    parser.addoption("--runslow", action="store_true", default=False, help="run slow tests")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--runslow"):
        return
    skip_slow = pytest.mark.skip(reason="slow: run with --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip_slow)


@pytest.fixture
def one_torch_thread():
    """Torch on one thread for the test: the machine's two cores are shared by
    several processes, where more threads only add contention."""
    import torch

    previous = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(previous)
