"""Static checks of the KubeRay manifests (no cluster needed): the fields the
KubeRay operator requires, the cardlab image, the shared results volume, and
Ray's token authentication (the token from a Secret, never written inline)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import yaml

REQUIRED = {
    "RayCluster": ["spec.headGroupSpec.template.spec.containers", "spec.workerGroupSpecs"],
    "RayJob": ["spec.entrypoint", "spec.rayClusterSpec.headGroupSpec.template.spec.containers",
               "spec.rayClusterSpec.workerGroupSpecs"],
}


def _get(document: dict[str, Any], path: str) -> Any:
    node: Any = document
    for key in path.split("."):
        if not isinstance(node, dict) or key not in node:
            return None
        node = node[key]
    return node


def _containers(document: dict[str, Any]) -> list[dict[str, Any]]:
    cluster = document["spec"].get("rayClusterSpec", document["spec"])
    groups = [cluster["headGroupSpec"], *cluster["workerGroupSpecs"]]
    return [container for group in groups for container in group["template"]["spec"]["containers"]]


def _token_problems(path: Path, container: dict[str, Any]) -> list[str]:
    """Token authentication on, with the token taken from a Secret."""
    env = {item.get("name"): item for item in container.get("env", []) if isinstance(item, dict)}
    name = container.get("name")
    found = []
    if env.get("RAY_AUTH_MODE", {}).get("value") != "token":
        found.append(f"{path}: container {name} must set RAY_AUTH_MODE=token")
    if not _get(env.get("RAY_AUTH_TOKEN", {}), "valueFrom.secretKeyRef.name"):
        found.append(f"{path}: container {name} must take RAY_AUTH_TOKEN from a Secret (valueFrom.secretKeyRef)")
    return found


def problems(path: Path) -> list[str]:
    """What is wrong with one manifest file (empty when it is fine)."""
    found = []
    for document in yaml.safe_load_all(path.read_text()):
        kind = document.get("kind")
        if document.get("apiVersion") != "ray.io/v1" or kind not in REQUIRED:
            found.append(f"{path}: expected apiVersion ray.io/v1 and kind RayCluster or RayJob")
            continue
        found += [f"{path}: {kind} needs {field}" for field in REQUIRED[kind] if not _get(document, field)]
        for container in _containers(document):
            if not str(container.get("image", "")).startswith("cardlab:"):
                found.append(f"{path}: container {container.get('name')} must run the cardlab image")
            mounts = {mount.get("mountPath") for mount in container.get("volumeMounts", [])}
            if "/results" not in mounts:
                found.append(f"{path}: container {container.get('name')} must mount /results")
            found += _token_problems(path, container)
        if kind == "RayJob" and not str(document["spec"].get("entrypoint", "")).startswith("cardlab run "):
            found.append(f"{path}: the RayJob entrypoint must be a `cardlab run`")
    return found


def main(folder: str) -> int:
    """Check every manifest under ``folder``; print problems; exit 1 if any."""
    found = [problem for path in sorted(Path(folder).glob("*.yaml")) for problem in problems(path)]
    for problem in found:
        print(problem)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
