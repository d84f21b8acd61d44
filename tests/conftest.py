"""Shared fixtures. Qt runs offscreen; data from ../shared is found here or the test fails loudly."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("MAFIACAM_SHARED", ROOT.parent / "shared"))


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """``../shared`` beside the project. Missing in CI is an error, never a skip."""
    if not SHARED.is_dir():
        pytest.fail(f"this test needs the shared data folder {SHARED} (set MAFIACAM_SHARED)")
    return SHARED


@pytest.fixture(scope="session")
def project_root() -> Path:
    return ROOT
