"""`tourpad app`: which view it picks and how it serves, without starting a server (Flet and the server are
captured)."""

from __future__ import annotations

import socket
from typing import ClassVar

import flet as ft
import pytest
from typer.testing import CliRunner

from scorer.cli import app
from scorer.commands import app_commands
from scorer.ui.text_size import PageScriptMiddleware


@pytest.fixture
def captured_run(monkeypatch):
    """What `tourpad app` asked of Flet (the app, exported as ASGI) and of the host's guarded server, which
    serves it: one dict of keywords, the server's address folded in."""
    from scorer.table import host

    calls = []

    class ExportedApp:  # Flet's FastAPI app: the page script's middleware is added to it
        middleware: ClassVar[list] = []

        def add_middleware(self, cls) -> None:
            self.middleware.append(cls)

    asgi_app = ExportedApp()

    def run(main, **kw):
        calls.append(kw)
        return asgi_app

    def serve(served, host_address, port, *args, **kw):
        assert served is asgi_app  # the server serves the app Flet exported, nothing else
        assert served.middleware == [PageScriptMiddleware]  # its pages apply the text size
        calls[-1].update(host=host_address, port=port)

    monkeypatch.setattr(ft, "run", run)
    monkeypatch.setattr(host, "serve", serve)
    monkeypatch.setattr(app_commands, "open_when_ready", lambda url: calls.append({"opened": url}))
    for key in ("FLET_FORCE_WEB_SERVER", "FLET_SERVER_IP", "FLET_SERVER_PORT", "FLET_WEB_NO_CDN"):
        monkeypatch.delenv(key, raising=False)
    return calls


def test_headless_machine_serves_the_offline_web_view_on_localhost(monkeypatch, captured_run):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    result = CliRunner().invoke(app, ["app", "--port", str(port), "--no-browser"])
    assert result.exit_code == 0, result.output
    assert f"http://127.0.0.1:{port}/" in result.output
    (run,) = captured_run
    assert run["export_asgi_app"] is True and run["host"] == "127.0.0.1" and run["port"] == port
    assert run["no_cdn"] is True
    import os

    assert os.environ["FLET_WEB_NO_CDN"] == "1" and os.environ["FLET_FORCE_WEB_SERVER"] == "1"


def test_busy_port_falls_back_and_browser_is_tried(monkeypatch, captured_run):
    monkeypatch.delenv("DISPLAY", raising=False)
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        taken = busy.getsockname()[1]
        result = CliRunner().invoke(app, ["app", "--port", str(taken)])
    assert result.exit_code == 0, result.output
    assert f"Port {taken} is busy" in result.output
    opened, run = captured_run
    assert run["port"] != taken and opened["opened"] == f"http://127.0.0.1:{run['port']}/"


def test_desktop_window_only_with_display_and_an_installed_client(monkeypatch, tmp_path):
    monkeypatch.setattr(app_commands.sys, "platform", "linux")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert not app_commands.has_display()
    monkeypatch.setenv("DISPLAY", ":0")
    assert app_commands.has_display()
    monkeypatch.setattr(app_commands.importlib.util, "find_spec", lambda name: None)
    assert not app_commands.desktop_client_available()  # flet-desktop not installed: never download it


def test_no_browser_available_only_prints_the_url(monkeypatch, capsys):
    monkeypatch.setattr(app_commands.urllib.request, "urlopen", lambda url, timeout: None)
    monkeypatch.setattr(app_commands.webbrowser, "open", lambda url: False)
    app_commands.open_when_ready("http://127.0.0.1:1/")
    assert "open http://127.0.0.1:1/ yourself" in capsys.readouterr().out
