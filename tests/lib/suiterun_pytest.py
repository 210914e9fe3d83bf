# SPDX-License-Identifier: BSD-3-Clause
"""pytest plugin of every test of the suite (PYTEST_PLUGINS, set by
cmake/SuiteRun.cmake): pytest's own temporary files go to a directory of
this session inside TMPDIR (the run's), removed when the session ends.
pytest's numbered directories, of which it keeps the last three, would
otherwise stay behind after every run."""
import shutil
import tempfile

import pytest

_OWN_BASETEMP = pytest.StashKey[str]()


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    """Before pytest's temporary-path factory reads the option."""
    if config.option.basetemp is None:
        config.option.basetemp = tempfile.mkdtemp(prefix="pytest-")
        config.stash[_OWN_BASETEMP] = config.option.basetemp


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config):
    path = config.stash.get(_OWN_BASETEMP, None)
    if path:
        shutil.rmtree(path, ignore_errors=True)
