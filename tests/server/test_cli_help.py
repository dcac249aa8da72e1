"""The command line's help: ``delve manage --help`` lists Django's commands, ``delve serve --help``
says what --host and --port do, ``./scripts/run --help`` prints help without creating a demo."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from delve import cli

ROOT = Path(__file__).resolve().parents[2]


def test_delve_manage_help_lists_the_management_commands(capsys):
    assert cli.main(["manage", "--help"]) == 0
    out = capsys.readouterr().out
    assert "delve manage help <subcommand>" in out and "migrate" in out and "create_token" in out


def test_delve_manage_passes_options_to_the_command(capsys):
    with pytest.raises(SystemExit):
        cli.main(["manage", "migrate", "--help"])
    assert "usage: delve manage migrate" in capsys.readouterr().out


def test_delve_serve_help_describes_host_and_port(capsys):
    with pytest.raises(SystemExit):
        cli.main(["serve", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "address to listen on" in out and "DELVE_HOST" in out
    assert "TCP port to listen on" in out and "DELVE_PORT" in out


def test_scripts_run_help_prints_help_and_creates_no_demo(tmp_path):
    env = {**os.environ, "DELVE_DATA_DIR": str(tmp_path)}
    done = subprocess.run(
        [str(ROOT / "scripts" / "run"), "--help"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "--port" in done.stdout and "usage: delve serve" in done.stdout
    assert not any(tmp_path.iterdir())  # no database, no demo


def test_delve_serve_logs_each_request_unless_told_not_to(settings):
    settings.LOGGING = {**settings.LOGGING, "root": {**settings.LOGGING["root"], "level": "INFO"}}
    args = cli.build_parser().parse_args(["serve"])
    assert cli._uvicorn_logging(args) == {"log_level": "info", "access_log": True}
    args = cli.build_parser().parse_args(["serve", "--no-access-log"])
    assert cli._uvicorn_logging(args) == {"log_level": "info", "access_log": False}


def test_delve_serve_logs_at_the_servers_log_level(settings):
    settings.LOGGING = {**settings.LOGGING, "root": {**settings.LOGGING["root"], "level": "WARNING"}}
    args = cli.build_parser().parse_args(["serve"])
    assert cli._uvicorn_logging(args)["log_level"] == "warning"


def _parsers(parser, prog="delve"):
    """Every parser of the command line, with its program name (subcommands of subcommands too)."""
    import argparse

    yield prog, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _parsers(sub, f"{prog} {name}")


def test_every_help_text_prints_its_percent_signs_once():
    """argparse interpolates the help of an option (%% there prints %) but not a description:
    every help screen reads as written, without a doubled %% or an unfilled %(...)s."""
    seen = 0
    for prog, parser in _parsers(cli.build_parser()):
        text = parser.format_help()
        assert "%%" not in text and "%(" not in text, prog
        seen += 1
    assert seen > 15


def test_without_delve_site_url_links_point_at_the_port_served(settings, monkeypatch, capsys):
    """Notification links point at DELVE_SITE_URL; unset, at the server as started (its port),
    and a server on every interface says that the operator should set it."""
    # setenv first, so monkeypatch records the variable's state before the test and restores it:
    # _site_url writes os.environ itself, and a later delenv alone would record (and put back) the
    # address this test set, for the other tests of the same worker process to inherit.
    monkeypatch.setenv("DELVE_SITE_URL", "")
    monkeypatch.delenv("DELVE_SITE_URL")
    cli._site_url("127.0.0.1", 8132)
    assert (
        settings.DELVE_SITE_URL == "http://localhost:8132" and os.environ["DELVE_SITE_URL"] == settings.DELVE_SITE_URL
    )
    assert capsys.readouterr().out == ""
    monkeypatch.delenv("DELVE_SITE_URL")
    cli._site_url("0.0.0.0", 80)
    assert settings.DELVE_SITE_URL == "http://localhost:80"
    assert "DELVE_SITE_URL is not set" in capsys.readouterr().out
    monkeypatch.delenv("DELVE_SITE_URL")
    cli._site_url("games.example.org", 8000)
    assert settings.DELVE_SITE_URL == "http://games.example.org:8000"
    monkeypatch.setenv("DELVE_SITE_URL", "https://delve.example.org")
    settings.DELVE_SITE_URL = "https://delve.example.org"
    cli._site_url("0.0.0.0", 8000)  # the operator's address is kept
    assert settings.DELVE_SITE_URL == "https://delve.example.org" and capsys.readouterr().out == ""
