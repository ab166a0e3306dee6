"""`tourpad host --https`: a self-signed certificate for the table's own addresses.

Browsers allow the camera (scanning the drafted cards) only on a secure origin; a phone joined to
`http://<LAN address>` is not one. With `--https` the host makes — once, then reuses — a certificate for its
LAN address, its host name, localhost and 127.0.0.1. Phones show a one-time warning (nobody vouches for the
certificate), after which the origin is secure.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import os
import socket
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

VALID_DAYS = 825  # the longest validity Apple's platforms accept for a TLS server certificate
RENEW_BEFORE = dt.timedelta(days=30)


@dataclass(frozen=True)
class CertificateFiles:
    cert: Path
    key: Path


def certificate_names(lan_address: str) -> tuple[list[str], list[str]]:
    """(DNS names, IP addresses) the certificate must cover for phones and the host itself."""
    dns = sorted({"localhost", socket.gethostname()})
    ips = sorted({"127.0.0.1", lan_address} - {""}, key=lambda a: ipaddress.ip_address(a).packed)
    return dns, ips


def _covers(cert: x509.Certificate, dns: list[str], ips: list[str]) -> bool:
    try:
        names = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except x509.ExtensionNotFound:
        return False
    have_dns = set(names.get_values_for_type(x509.DNSName))
    have_ips = {str(a) for a in names.get_values_for_type(x509.IPAddress)}
    fresh = cert.not_valid_after_utc - dt.datetime.now(dt.UTC) > RENEW_BEFORE
    return fresh and set(dns) <= have_dns and set(ips) <= have_ips


def ensure_certificate(folder: Path, lan_address: str) -> CertificateFiles:
    """The certificate and key in `folder`, made (or remade) when missing, expiring or not for this address."""
    folder.mkdir(parents=True, exist_ok=True)
    files = CertificateFiles(folder / "host-cert.pem", folder / "host-key.pem")
    dns, ips = certificate_names(lan_address)
    if files.cert.is_file() and files.key.is_file():
        existing = x509.load_pem_x509_certificate(files.cert.read_bytes())
        if _covers(existing, dns, ips):
            return files
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, f"tourpad table ({lan_address or 'localhost'})")])
    now = dt.datetime.now(dt.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name).issuer_name(name).public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5)).not_valid_after(now + dt.timedelta(days=VALID_DAYS))
        .add_extension(x509.SubjectAlternativeName(
            [x509.DNSName(d) for d in dns] + [x509.IPAddress(ipaddress.ip_address(a)) for a in ips]),
            critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .sign(key, hashes.SHA256())
    )
    # write the key readable by its owner only, and replace both files atomically
    key_tmp = files.key.with_suffix(".tmp")
    key_tmp.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                          serialization.NoEncryption()))
    os.chmod(key_tmp, 0o600)
    cert_tmp = files.cert.with_suffix(".tmp")
    cert_tmp.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    os.replace(key_tmp, files.key)
    os.replace(cert_tmp, files.cert)
    return files
