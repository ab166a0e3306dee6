"""`tourpad host --https`: a self-signed certificate for the table's addresses, so phones get a secure origin."""

from __future__ import annotations

import os
import ssl
import subprocess
import sys
import time

import httpx
from cryptography import x509

from scorer.ports import free_port
from scorer.table.tls import ensure_certificate


def san(cert: x509.Certificate) -> tuple[set[str], set[str]]:
    names = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    return set(names.get_values_for_type(x509.DNSName)), {str(a) for a in names.get_values_for_type(x509.IPAddress)}


def test_certificate_covers_the_lan_address_and_is_reused(tmp_path):
    files = ensure_certificate(tmp_path, "192.168.1.23")
    cert = x509.load_pem_x509_certificate(files.cert.read_bytes())
    dns, ips = san(cert)
    assert "localhost" in dns and {"127.0.0.1", "192.168.1.23"} <= ips
    assert oct(files.key.stat().st_mode & 0o777) == "0o600"
    first = files.cert.read_bytes()
    assert ensure_certificate(tmp_path, "192.168.1.23").cert.read_bytes() == first  # kept: phones trust it once
    # the host moved to another network: a new certificate for the new address
    moved = ensure_certificate(tmp_path, "10.0.0.7")
    assert "10.0.0.7" in san(x509.load_pem_x509_certificate(moved.cert.read_bytes()))[1]


def test_host_serves_https_with_its_certificate(tmp_path):
    port = free_port("127.0.0.1")
    env_dir = tmp_path / "data"
    proc = subprocess.Popen([sys.executable, "-m", "scorer.cli", "host", "--https", "--api-only", "--bind",
                             "127.0.0.1", "--port", str(port)],
                            env={**os.environ, "TOURPAD_DATA_DIR": str(env_dir)},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, proc.stderr.read()
            try:
                response = httpx.get(f"https://127.0.0.1:{port}/openapi.json", verify=False, timeout=2)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "host did not answer over https"
                time.sleep(0.1)
        assert response.status_code == 200 and "/api/tables" in response.text
        served = x509.load_pem_x509_certificate(ssl.get_server_certificate(("127.0.0.1", port)).encode())
        stored = x509.load_pem_x509_certificate((env_dir / "tls" / "host-cert.pem").read_bytes())
        assert served == stored and "127.0.0.1" in san(served)[1]
        # plain http is not answered on an https port
        try:
            plain = httpx.get(f"http://127.0.0.1:{port}/openapi.json", timeout=2)
            assert plain.status_code >= 400
        except httpx.TransportError:
            pass
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=20)
    assert f"https://127.0.0.1:{port}/" in out
