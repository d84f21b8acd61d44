"""The layering rules of DESIGN.md, checked on the source: engines import no Qt, gamelog only stdlib."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENGINES = ("gamelog", "vision", "recorder", "tablesim", "archive")
QT_MODULES = ("PySide6", "PyQt5", "PyQt6", "shiboken6", "pytestqt", "review_ui")


def imported_modules(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.append((node.lineno, node.module))
    return out


def python_files(package: str) -> list[Path]:
    files = sorted((ROOT / package).rglob("*.py"))
    assert files, f"package {package} has no Python files"
    return files


@pytest.mark.parametrize("package", ENGINES)
def test_engines_do_not_import_qt(package: str) -> None:
    offenders = [
        f"{path.relative_to(ROOT)}:{line}: {mod}"
        for path in python_files(package)
        for line, mod in imported_modules(path)
        if mod.split(".")[0] in QT_MODULES
    ]
    assert offenders == [], "engines must stay headless:\n" + "\n".join(offenders)


def test_gamelog_uses_only_the_standard_library() -> None:
    allowed = set(sys.stdlib_module_names) | {"gamelog", "__future__"}
    offenders = [
        f"{path.relative_to(ROOT)}:{line}: {mod}"
        for path in python_files("gamelog")
        for line, mod in imported_modules(path)
        if mod.split(".")[0] not in allowed
    ]
    assert offenders == [], "gamelog imports only the standard library:\n" + "\n".join(offenders)


def test_checker_sees_a_qt_import(tmp_path: Path) -> None:
    """The scanner itself must catch the imports it is meant to forbid."""
    f = tmp_path / "m.py"
    f.write_text("import os\nfrom PySide6.QtCore import QObject\nif True:\n    import numpy as np\n")
    mods = [m for _, m in imported_modules(f)]
    assert mods == ["os", "PySide6.QtCore", "numpy"]
