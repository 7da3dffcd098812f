"""Test-wide settings: runs are saved in a throw-away results store, never in the user's."""
import os
import tempfile

import pytest


@pytest.fixture(autouse=True, scope="session")
def _throwaway_store():
    with tempfile.TemporaryDirectory(prefix="playtest-store-") as d:
        old = os.environ.get("PLAYTEST_STORE")
        os.environ["PLAYTEST_STORE"] = d
        yield d
        if old is None:
            os.environ.pop("PLAYTEST_STORE", None)
        else:
            os.environ["PLAYTEST_STORE"] = old
