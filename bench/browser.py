"""Headless Chromium driven over the DevTools protocol, for the dashboard's browser tests and
its screenshots (``bench/screenshots.py``): Debian's ``chromium`` (``apt-get install -y
chromium``), no other browser driver; ``websocket-client`` speaks the protocol.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import websocket

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
"""The Chromium found on the PATH, None without one."""


class Browser:
    """Headless Chromium driven over the DevTools protocol (``websocket-client``)."""

    def __init__(self) -> None:
        self.profile = tempfile.TemporaryDirectory(prefix="cardlab-chromium-")
        self.process = subprocess.Popen(
            [CHROMIUM or "chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
             "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--hide-scrollbars", f"--user-data-dir={self.profile.name}", "--window-size=1400,1000",
             "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)
        assert self.process.stderr is not None
        address = ""
        while not address:
            line = self.process.stderr.readline()
            if not line:
                raise RuntimeError("chromium exited before opening its DevTools port")
            if "DevTools listening on " in line:
                address = line.split("DevTools listening on ", 1)[1].strip()
        port = address.split(":")[2].split("/")[0]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as answer:
            page = next(target for target in json.load(answer) if target["type"] == "page")
        self.socket = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=30, suppress_origin=True)
        self.next_id = 0

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        """One DevTools command; its result."""
        self.next_id += 1
        self.socket.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return dict(message["result"])

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page."""
        return self.call("Runtime.evaluate", expression=expression, returnByValue=True)["result"].get("value")

    def load(self, url: str, ready: str, timeout: float = 60) -> str:
        """Open ``url`` and wait until the page's text contains ``ready`` (and Streamlit is idle);
        return the page's HTML."""
        self.call("Page.navigate", url=url)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            text = self.evaluate("document.body ? document.body.innerText : ''") or ""
            # Idle: no status widget, and the app says its script run is over (a page's first
            # text can show before the rest of it is drawn).
            running = self.evaluate("!!document.querySelector('[data-testid=\"stStatusWidget\"]') || "
                                    "(document.querySelector('[data-testid=\"stApp\"]') || {dataset: {}})"
                                    ".dataset.testScriptState !== 'notRunning'")
            if ready in text and not running:
                time.sleep(0.7)  # let the charts draw
                return str(self.evaluate("document.documentElement.outerHTML"))
            time.sleep(0.3)
        raise AssertionError(f"{url}: {ready!r} not rendered within {timeout} s; page text: {text[:500]!r}")

    def wait_for(self, test_id: str, timeout: float = 30, count: int = 1) -> str:
        """Wait until ``count`` elements ``data-testid=test_id`` are in the page (a table mounts
        after the script run ends, later on a busy machine); return the page's HTML."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.evaluate(f"document.querySelectorAll('[data-testid=\"{test_id}\"]').length >= {count}"):
                break
            time.sleep(0.3)
        return str(self.evaluate("document.documentElement.outerHTML"))

    def screenshot(self, path: Path) -> None:
        """A PNG of the viewport."""
        path.write_bytes(base64.b64decode(self.call("Page.captureScreenshot", format="png")["data"]))

    def close(self) -> None:
        """Close the connection and stop Chromium."""
        self.socket.close()
        os.killpg(self.process.pid, signal.SIGTERM)
        self.process.wait(timeout=20)
        self.profile.cleanup()
