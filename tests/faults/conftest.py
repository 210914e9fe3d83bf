# SPDX-License-Identifier: BSD-3-Clause
"""Fixtures of the SNMP fault tests: the serving fixtures of the agent's
own system tests (tests/subagent/conftest.py), one segment served in each
of the three modes."""
import importlib.util
import os
import sys

_here = os.path.dirname(__file__)
sys.path.insert(0, os.path.join(_here, "..", "lib"))
_spec = importlib.util.spec_from_file_location(
    "fastmib_serving", os.path.join(_here, "..", "subagent", "conftest.py"))
serving = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(serving)

served = serving.served  # one segment, each of the three modes
