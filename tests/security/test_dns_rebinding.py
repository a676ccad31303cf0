"""A dashboard on loopback answers only to loopback names: a web page whose name was made
to resolve to 127.0.0.1 (DNS rebinding) cannot open its WebSocket and drive its pages."""

from __future__ import annotations

from pathlib import Path

import pytest
import websocket

from cardlab.cli import _allowed_hosts_options
from tests.live_dashboard import running_dashboard


def _opens(port: int, host: str | None) -> bool:
    """Whether the dashboard's WebSocket opens for a browser that reached it as ``host``."""
    address = f"ws://127.0.0.1:{port}/_stcore/stream"
    try:
        if host is None:
            websocket.create_connection(address, subprotocols=["streamlit"], timeout=30).close()
        else:
            websocket.create_connection(address, subprotocols=["streamlit"], timeout=30, host=f"{host}:{port}",
                                        origin=f"http://{host}:{port}").close()
    except websocket.WebSocketBadStatusException as refused:
        assert refused.status_code == 403
        return False
    return True


def test_a_loopback_dashboard_refuses_a_websocket_for_any_other_host_name(tmp_path: Path) -> None:
    with running_dashboard(tmp_path) as live:
        assert _opens(live.port, None) and _opens(live.port, "127.0.0.1") and _opens(live.port, "localhost")
        assert not _opens(live.port, "rebound.example")


@pytest.mark.parametrize(("host", "names"), [
    ("127.0.0.1", ["localhost", "::1", "127.0.0.1"]),
    ("127.0.0.2", ["localhost", "::1", "127.0.0.1", "127.0.0.2"]),
    ("0.0.0.0", []),  # beyond loopback the names are the operator's (a proxy, a domain)
])
def test_the_allowed_names_are_the_loopback_ones_and_the_bound_address(host: str, names: list[str]) -> None:
    options = _allowed_hosts_options(host)
    assert options[::2] == ["--server.allowedHosts"] * len(names) and options[1::2] == names


def test_the_printed_address_writes_an_ipv6_host_in_brackets() -> None:
    from cardlab.cli import dashboard_url

    assert dashboard_url("127.0.0.1", 8501) == "http://127.0.0.1:8501"
    assert dashboard_url("::1", 8501) == "http://[::1]:8501"
    assert dashboard_url("localhost", 9000) == "http://localhost:9000"


def test_the_dashboard_never_asks_the_internet_for_this_machines_address() -> None:
    # Bound to every interface, Streamlit would fetch checkip.amazonaws.com to print an
    # "External URL"; dashboard.serve answers for it (checked in a fresh process).
    import subprocess
    import sys

    code = ("import sys; sys.argv = ['streamlit', 'version']\n"
            "import dashboard.serve as serve\n"
            "from streamlit import net_util\n"
            "serve.main()\n"
            "assert net_util.get_external_ip is serve.no_external_address\n"
            "assert net_util.get_external_ip() is None\n"
            "print('patched')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("patched")
