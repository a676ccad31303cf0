"""The KubeRay manifest check accepts ours and catches broken ones."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

DOCKER = Path(__file__).resolve().parents[2] / "docker"


def _checker() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_manifests", DOCKER / "check_manifests.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["check_manifests"] = module
    spec.loader.exec_module(module)
    return module


def test_the_shipped_kuberay_manifests_pass_the_check() -> None:
    checker = _checker()
    for path in sorted((DOCKER / "kuberay").glob("*.yaml")):
        assert checker.problems(path) == []


def test_a_rayjob_without_an_entrypoint_or_with_another_image_is_caught(tmp_path: Path) -> None:
    checker = _checker()
    text = (DOCKER / "kuberay" / "rayjob-sweep.yaml").read_text()
    broken = tmp_path / "broken.yaml"
    broken.write_text(text.replace("  entrypoint: cardlab run", "  command: cardlab run").replace(
        "image: cardlab:latest", "image: busybox", 1))
    found = checker.problems(broken)
    assert f"{broken}: RayJob needs spec.entrypoint" in found
    assert f"{broken}: container ray-head must run the cardlab image" in found


def test_a_worker_without_the_results_volume_is_caught(tmp_path: Path) -> None:
    checker = _checker()
    text = (DOCKER / "kuberay" / "raycluster.yaml").read_text()
    broken = tmp_path / "broken.yaml"
    broken.write_text(text.replace("mountPath: /results}", "mountPath: /tmp}"))
    assert f"{broken}: container ray-worker must mount /results" in checker.problems(broken)


def test_a_container_without_token_authentication_or_with_an_inline_token_is_caught(tmp_path: Path) -> None:
    checker = _checker()
    text = (DOCKER / "kuberay" / "raycluster.yaml").read_text()
    no_mode = tmp_path / "no_mode.yaml"
    no_mode.write_text(text.replace("{name: RAY_AUTH_MODE, value: token}", "{name: RAY_AUTH_MODE, value: disabled}", 1))
    assert checker.problems(no_mode) == [f"{no_mode}: container ray-head must set RAY_AUTH_MODE=token"]
    inline = tmp_path / "inline.yaml"
    inline.write_text(text.replace("valueFrom:\n                  secretKeyRef: {name: cardlab-ray-token, key: token}",
                                   "value: a-token-in-plain-sight", 1))
    assert checker.problems(inline) == [
        f"{inline}: container ray-head must take RAY_AUTH_TOKEN from a Secret (valueFrom.secretKeyRef)"]
