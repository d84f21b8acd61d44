from __future__ import annotations

import pytest

from mafiacam import cli


def test_unknown_later_subcommand_says_not_available(capsys: pytest.CaptureFixture[str]) -> None:
    missing = [name for name in cli.SUBCOMMANDS if cli._load(name) is None]
    if not missing:
        pytest.fail("every subcommand exists now: drop this test")  # keeps the test honest
    rc = cli.main([missing[0]])
    assert rc == 2
    assert "not available yet" in capsys.readouterr().err


def test_no_command_prints_help_and_fails(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([]) == 2
    assert "COMMAND" in capsys.readouterr().err
