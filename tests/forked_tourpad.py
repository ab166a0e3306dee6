"""A warm start for the `tourpad app` and `tourpad host` processes the tests start: a zygote process imports what
those commands import (about a second of a core), then forks one child per process asked for. Each child is
the command itself, run through the CLI's own `main` with its own arguments, environment (its data folder) and
log; only the imports were done before it was born. The tests start about 130 servers a run, so this saves
two minutes of CPU.

One zygote per test process, started at its first fork (`fork_tourpad`). Protocol, one JSON line each way: the
test process writes ``{"argv": [...], "env": {...}, "log": "path"}``, the zygote answers ``{"pid": n}``. The
zygote reaps its children; the test process watches a child through /proc and signals it by pid (`Forked`).
When the test process ends, the zygote's stdin closes: it kills the servers still running and exits.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

#: What `tourpad app --web` and `tourpad host` import before they serve (scorer.commands.app_commands).
PRELOAD = ("flet_web.fastapi", "uvicorn", "scorer.cli", "scorer.table.host", "scorer.table.api",
           "scorer.table.service", "scorer.ui.hosting", "scorer.ui.main", "scorer.ui.text_size")


class Forked:
    """A process the zygote forked: the parts of `subprocess.Popen` the tests use. It is the zygote's child, not
    ours, so it is watched through /proc (the zygote reaps it the moment it ends)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid

    def poll(self) -> int | None:
        try:
            state = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            return 0
        return 0 if state in ("Z", "X") else None

    def send_signal(self, sig: int) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(f"tourpad process {self.pid}", timeout)
            time.sleep(0.02)
        return 0


class Zygote:
    """This test process's zygote (this file run as a script)."""

    proc: subprocess.Popen | None = None

    @classmethod
    def fork(cls, argv: list[str], env: dict[str, str], log: Path) -> Forked:
        if cls.proc is None or cls.proc.poll() is not None:
            cls.proc = subprocess.Popen([sys.executable, __file__], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, cwd=Path(__file__).parents[1])
            assert json.loads(cls.proc.stdout.readline()).get("ready"), "the tourpad zygote did not start"
        cls.proc.stdin.write(json.dumps({"argv": argv, "env": env, "log": str(log)}) + "\n")
        cls.proc.stdin.flush()
        return Forked(json.loads(cls.proc.stdout.readline())["pid"])


def fork_tourpad(argv: list[str], env: dict[str, str], log: Path) -> Forked:
    """`tourpad ARGV` with exactly `env` as its environment, its output appended to `log`."""
    return Zygote.fork(argv, env, log)


# --- the zygote's side ------------------------------------------------------------------------------------------

def preload() -> None:
    """Import what the commands import, so a forked child finds it loaded. No thread may be started here: a
    fork copies only the thread that forks."""
    for module in PRELOAD:
        importlib.import_module(module)


def run_child(request: dict) -> None:
    """In the forked child: become `tourpad <argv>` with the request's environment and log; never returns."""
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # the command waits for its own children (the zygote reaps its)
    os.setpgid(0, 0)  # a signal to this server does not reach the zygote
    log = os.open(request["log"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.close(log)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.environ.clear()
    os.environ.update(request["env"])
    sys.argv = ["tourpad", *request["argv"]]
    code = 0
    try:
        from scorer.cli import main

        main()
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 1
    except BaseException:  # a crash is written to the log, as a real start's would be
        import traceback

        traceback.print_exc()
        code = 1
    finally:
        # as the interpreter's own exit would: what the command left to do on the way out (a traced host
        # writes its trace then), before the fork's exit, which skips it
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
    os._exit(code)


def serve() -> None:
    preload()
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children are reaped as they end: no zombie holds a pid
    print(json.dumps({"ready": True}), flush=True)
    children = []
    for line in sys.stdin:
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            run_child(request)
        children.append(pid)
        print(json.dumps({"pid": pid}), flush=True)
    # the test process is gone (its end closed our stdin): no server outlives it
    for pid in children:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


if __name__ == "__main__":
    serve()
