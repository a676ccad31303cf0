"""A live ``cardlab dashboard`` for tests, and a client that speaks to it as a browser does.

``running_dashboard`` starts ``cardlab dashboard`` on a free loopback port (in
a session of its own) and stops it. ``BrowserSession`` opens Streamlit's
WebSocket (``/_stcore/stream``) and exchanges the messages the browser's
front end exchanges: a ``rerun_script`` back-message naming the page, the
query string and the widgets' values, answered by the elements the page
draws until ``script_finished``. No browser is needed, so these tests run
wherever the server does.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import websocket
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass(frozen=True)
class LiveDashboard:
    """A running ``cardlab dashboard``: its process and base address."""

    process: subprocess.Popen[str]
    url: str
    port: int


def wait_until_healthy(port: int, process: subprocess.Popen[str], timeout: float = 120) -> None:
    """Wait for Streamlit's health endpoint to answer 200."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                raise
            time.sleep(0.5)


@contextlib.contextmanager
def running_dashboard(results: Path | str, environment: dict[str, str] | None = None,
                      arguments: Sequence[str] = ()) -> Iterator[LiveDashboard]:
    """``cardlab dashboard --results RESULTS [ARGUMENTS]`` on a free port, healthy; stopped
    (SIGTERM) afterwards (what it printed can then be read from its ``process.stdout``)."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "cardlab", "dashboard", "--results", str(results), "--port", str(port), *arguments],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
        env=environment)
    try:
        assert process.stdout is not None
        assert f"http://127.0.0.1:{port}" in process.stdout.readline()
        wait_until_healthy(port, process)
        yield LiveDashboard(process, f"http://127.0.0.1:{port}", port)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)


class Click:
    """A button's click among a ``BrowserSession.run``'s widget values (a trigger, as the browser sends it)."""


CLICK = Click()


class BrowserSession:
    """One browser tab on a live dashboard, over Streamlit's WebSocket protocol."""

    def __init__(self, dashboard: LiveDashboard, query_string: str = "") -> None:
        self.socket = websocket.create_connection(
            f"ws://127.0.0.1:{dashboard.port}/_stcore/stream", subprotocols=["streamlit"], timeout=120)
        self.query_string = query_string

    def run(self, page: str, widgets: dict[str, Any] | None = None) -> list[Any]:
        """Run ``page`` with the given widget values (by widget id: text, a bool, a whole number,
        ``CLICK`` for a button); the elements it drew, in order."""
        message = BackMsg()
        message.rerun_script.query_string = self.query_string
        message.rerun_script.page_name = page
        for widget_id, value in (widgets or {}).items():
            state = message.rerun_script.widget_states.widgets.add()
            state.id = widget_id
            if isinstance(value, Click):
                state.trigger_value = True
            elif isinstance(value, bool):
                state.bool_value = value
            elif isinstance(value, int):
                state.int_value = value
            else:
                state.string_value = str(value)
        self.socket.send_binary(message.SerializeToString())
        elements = []
        while True:
            answer = ForwardMsg()
            answer.ParseFromString(self.socket.recv())
            kind = answer.WhichOneof("type")
            if kind == "delta" and answer.delta.WhichOneof("type") == "new_element":
                elements.append(answer.delta.new_element)
            elif kind == "script_finished":
                if answer.script_finished == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    elements = []  # the page called st.rerun(): what the new run draws is the answer
                    continue
                return elements

    def close(self) -> None:
        """Close the WebSocket."""
        self.socket.close()


def of_kind(elements: list[Any], kind: str) -> list[Any]:
    """The elements of one kind (``alert``, ``text_area``, ``dataframe``...), as their protobuf messages."""
    return [getattr(element, kind) for element in elements if element.WhichOneof("type") == kind]
