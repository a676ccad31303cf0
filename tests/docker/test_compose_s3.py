"""The object-storage Compose override points every cardlab service at the
MinIO bucket and keeps credentials out of the file."""

from __future__ import annotations

from pathlib import Path

import yaml

DOCKER = Path(__file__).resolve().parents[2] / "docker"


def test_every_cardlab_service_reads_and_writes_the_minio_bucket() -> None:
    base = yaml.safe_load((DOCKER / "compose.yaml").read_text())
    override = yaml.safe_load((DOCKER / "compose.s3.yaml").read_text())
    for name in base["services"]:
        environment = override["services"][name]["environment"]
        assert environment["CARDLAB_RESULTS"] == "s3://cardlab/results", name
        assert environment["AWS_ENDPOINT_URL"] == "http://minio:9000", name
    assert override["services"]["driver"]["environment"]["RAY_ADDRESS"] == "ray-head:6379"
    assert "mc mb --ignore-existing local/cardlab" in override["services"]["minio-init"]["command"][0]


def test_the_override_holds_no_credentials_only_references_to_the_environment() -> None:
    override = yaml.safe_load((DOCKER / "compose.s3.yaml").read_text())
    for service in override["services"].values():
        for key, value in service.get("environment", {}).items():
            if "SECRET" in key or "PASSWORD" in key or key.endswith(("_USER", "KEY_ID")):
                assert str(value).startswith("${"), key
    for port in override["services"]["minio"]["ports"]:
        assert port.startswith("127.0.0.1:")
