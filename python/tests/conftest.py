"""Paths for the tests: set by ctest (python/CMakeLists.txt), with fallbacks for a manual run."""
import os
import pathlib

import pytest

SOURCE_DIR = pathlib.Path(os.environ.get("EXACTSIM_SOURCE_DIR",
                                         pathlib.Path(__file__).resolve().parents[2]))


@pytest.fixture
def source_dir():
    return SOURCE_DIR


@pytest.fixture
def cli():
    path = os.environ.get("EXACTSIM_CLI")
    if not path or not os.path.exists(path):
        pytest.skip("EXACTSIM_CLI not set (run through ctest)")
    return path
