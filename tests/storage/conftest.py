"""An S3-compatible server on loopback for the object-storage tests.

``s3`` starts moto's server (``moto.server.ThreadedMotoServer``) on
127.0.0.1 at a free port for the test session, points the standard AWS
environment variables at it (a distinctive secret key, so tests can check it
never lands in results or output) and creates one bucket. Each test writes
under its own prefix. Ray is shut down first, so that the local Ray the
tests start inherits the variables (its workers write to the server too).
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass

import pyarrow.fs as pafs
import pytest

BUCKET = "cardlab-test"
ACCESS_KEY = "AKIACARDLABTEST00001"
SECRET_KEY = "cardlab-secret-never-printed-7f3e"


@dataclass(frozen=True)
class S3Server:
    """The running server: its endpoint and the bucket the tests write to."""

    endpoint: str
    bucket: str

    def uri(self, prefix: str) -> str:
        """``s3://<bucket>/<prefix>``."""
        return f"s3://{self.bucket}/{prefix}"

    def filesystem(self) -> pafs.S3FileSystem:
        """A pyarrow filesystem on the server, for tests that damage or inspect objects directly."""
        return pafs.S3FileSystem(endpoint_override=self.endpoint, access_key=ACCESS_KEY, secret_key=SECRET_KEY,
                                 region="us-east-1", allow_bucket_creation=True)


def prefix_for(request: pytest.FixtureRequest) -> str:
    """A prefix unique to the requesting test (or module), safe in a URI."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", request.node.name)[:80]


@pytest.fixture(scope="session")
def s3() -> Iterator[S3Server]:
    """moto's S3 server on 127.0.0.1, the AWS_* variables set for the session, one bucket created."""
    import ray
    from moto.server import ThreadedMotoServer

    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # one line per request otherwise
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    endpoint = f"http://{host}:{port}"
    variables = {"AWS_ACCESS_KEY_ID": ACCESS_KEY, "AWS_SECRET_ACCESS_KEY": SECRET_KEY, "AWS_REGION": "us-east-1",
                 "AWS_ENDPOINT_URL": endpoint, "AWS_EC2_METADATA_DISABLED": "true"}
    saved = {name: os.environ.get(name) for name in variables}
    os.environ.update(variables)
    if ray.is_initialized():
        ray.shutdown()
    try:
        found = S3Server(endpoint=endpoint, bucket=BUCKET)
        found.filesystem().create_dir(BUCKET)
        yield found
    finally:
        if ray.is_initialized():
            ray.shutdown()
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        server.stop()
