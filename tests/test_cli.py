from __future__ import annotations

import pytest

from mafiacam import cli


def test_every_contract_subcommand_is_there() -> None:
    """CONTRACT.md's command list: each has a module with a parser and a runner."""
    for name in (
        "demo",
        "referee",
        "analyze",
        "gesture",
        "record",
        "import",
        "review",
        "sim",
        "export",
        "verify",
        "archive",
    ):
        mod = cli._load(name)
        assert mod is not None and hasattr(mod, "run") and hasattr(mod, "add_parser"), name


def test_a_subcommand_without_its_module_says_not_available(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(cli.SUBCOMMANDS, "future", ("no_such_module_yet", "a later feature"))
    assert cli.main(["future"]) == 2
    assert "not available yet" in capsys.readouterr().err


def test_no_command_prints_help_and_fails(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([]) == 2
    assert "COMMAND" in capsys.readouterr().err
