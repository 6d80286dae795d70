"""Makes certs/ct/; run through scripts/make-ct-certs.sh, which documents it.

Certificate Transparency by hand, with the openssl CLI for every key, certificate and signature: a leaf is issued
once without SCTs (the "precertificate" TBS that logs sign, RFC 6962 §3.2), each test log signs that TBS, and the
leaf is issued again with the same serial, dates, key and extensions plus the SCT list extension last, which is what
a verifier removes to rebuild the TBS. Python only assembles the TLS structures of RFC 6962 §3.2-3.3.
"""
import base64
import datetime
import hashlib
import json
import os
import struct
import subprocess
import sys

SCT_LIST_OID = "1.3.6.1.4.1.11129.2.4.2"
DAY = 86400


def fail(message):
    print(f"make-ct-certs.sh: FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def openssl(*arguments, data=None):
    result = subprocess.run(["openssl", *arguments], input=data, capture_output=True)
    if result.returncode != 0:
        fail(f"openssl {' '.join(arguments)}\n{result.stderr.decode(errors='replace')}")
    return result.stdout


def epoch(text):
    return int(datetime.datetime.strptime(text, "%Y-%m-%d").replace(tzinfo=datetime.timezone.utc).timestamp())


def asn1_time(seconds):
    return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc).strftime("%Y%m%d%H%M%SZ")


def der_element(data, offset):
    """The (start, end) of the DER element at `offset` (its tag, length and content)."""
    length = data[offset + 1]
    header = 2
    if length & 0x80:
        count = length & 0x7F
        length = int.from_bytes(data[offset + 2:offset + 2 + count], "big")
        header += count
    return offset, offset + header + length


def tbs_certificate(der):
    _, end = der_element(der, 0)
    content = 2 + (der[1] & 0x7F if der[1] & 0x80 else 0)
    start, end = der_element(der, content)
    return der[start:end]


def der_length(length):
    if length < 0x80:
        return bytes([length])
    body = length.to_bytes((length.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(body)]) + body


class Work:
    def __init__(self, directory):
        self.directory = directory
        self.serial = 0x1000

    def path(self, name):
        return os.path.join(self.directory, name)

    def key(self, name):
        openssl("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-pkeyopt",
                "ec_param_enc:named_curve", "-out", self.path(name + ".key"))
        return name

    def spki(self, key):
        return openssl("pkey", "-in", self.path(key + ".key"), "-pubout", "-outform", "DER")

    def certificate(self, name, key, issuer, extensions, subject, start, end, serial):
        """Issues NAME.pem with `openssl ca` (exact dates, a given serial) from a fresh database each time, so that
        the same serial can be issued twice (the leaf without, then with, its SCTs)."""
        database = self.path("db-" + name)
        os.makedirs(database, exist_ok=True)
        open(os.path.join(database, "index.txt"), "w").close()
        with open(os.path.join(database, "serial"), "w") as file:
            file.write(f"{serial:X}\n" if len(f"{serial:X}") % 2 == 0 else f"0{serial:X}\n")
        config = self.path("ca-" + name + ".cnf")
        with open(config, "w") as file:
            file.write(f"""[ ca ]
default_ca = CA_default
[ CA_default ]
database = {database}/index.txt
new_certs_dir = {database}
serial = {database}/serial
policy = policy_any
unique_subject = no
copy_extensions = none
email_in_dn = no
preserve = yes
[ policy_any ]
organizationName = optional
commonName = supplied
[ req ]
distinguished_name = req_dn
[ req_dn ]
[ ext ]
{extensions}
""")
        csr = self.path(name + ".csr")
        openssl("req", "-config", config, "-new", "-key", self.path(key + ".key"), "-subj", subject, "-sha256",
                "-out", csr)
        signer = ["-selfsign", "-keyfile", self.path(key + ".key")] if issuer == "self" else \
            ["-cert", self.path(issuer + ".pem"), "-keyfile", self.path(issuer + ".key")]
        openssl("ca", "-config", config, "-batch", "-notext", "-md", "sha256", "-preserveDN", *signer,
                "-startdate", asn1_time(start), "-enddate", asn1_time(end), "-extfile", config, "-extensions", "ext",
                "-in", csr, "-out", self.path(name + ".pem"))
        return openssl("x509", "-in", self.path(name + ".pem"), "-outform", "DER")

    def next_serial(self):
        self.serial += 1
        return self.serial


CA = """basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always"""
LEAF = """basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
subjectAltName = DNS:ct.test"""


def x509_sct(work, log, certificate_der, timestamp_ms):
    """RFC 6962 §3.2: an SCT for an x509_entry, the certificate whole, as a server sends it in the TLS extension."""
    signed = struct.pack(">BBQH", 0, 0, timestamp_ms, 0) + len(certificate_der).to_bytes(3, "big") \
        + certificate_der + struct.pack(">H", 0)
    return signed_sct(work, log, signed, timestamp_ms)


def signed_sct(work, log, signed, timestamp_ms):
    message = work.path("signed.bin")
    with open(message, "wb") as file:
        file.write(signed)
    signature = openssl("dgst", "-sha256", "-sign", work.path(log + ".key"), message)
    log_id = hashlib.sha256(work.spki(log)).digest()
    return struct.pack(">B", 0) + log_id + struct.pack(">QH", timestamp_ms, 0) + struct.pack(">BBH", 4, 3,
                                                                                           len(signature)) + signature


def sct(work, log, tbs, issuer_key_hash, timestamp_ms, sign_over=None):
    """RFC 6962 §3.2: an SCT (v1) for a precertificate entry, signed by `log` with ECDSA SHA-256 (§2.1.4)."""
    signed = struct.pack(">BBQH", 0, 0, timestamp_ms, 1) + issuer_key_hash \
        + len(sign_over or tbs).to_bytes(3, "big") + (sign_over or tbs) + struct.pack(">H", 0)
    return signed_sct(work, log, signed, timestamp_ms)


def sct_list(scts):
    """The TLS SignedCertificateTimestampList (§3.3)."""
    body = b"".join(struct.pack(">H", len(item)) + item for item in scts)
    return struct.pack(">H", len(body)) + body


def sct_list_extension(scts):
    """The extension's value: an OCTET STRING holding the list."""
    tls = sct_list(scts)
    return b"\x04" + der_length(len(tls)) + tls


def serverinfo(name, scts):
    """`openssl s_server -serverinfo`'s file: the signed_certificate_timestamp extension (type 18) with the list."""
    data = sct_list(scts)
    block = base64.encodebytes(struct.pack(">HH", 18, len(data)) + data).decode()
    return f"-----BEGIN SERVERINFO FOR {name}-----\n{block}-----END SERVERINFO FOR {name}-----\n"


def main():
    out, work = sys.argv[1], Work(sys.argv[2])
    organization = "/O=pinctl CT"
    work.key("root")
    work.certificate("root", "root", "self", CA, f"{organization}/CN=CT Root CA", epoch("2015-01-01"),
                     epoch("2125-01-01"), work.next_serial())
    work.key("intermediate")
    work.certificate("intermediate", "intermediate", "root", CA.replace("CA:TRUE", "CA:TRUE, pathlen:0"),
                     f"{organization}/CN=CT Intermediate CA", epoch("2015-01-01"), epoch("2125-01-01"),
                     work.next_serial())
    issuer_key_hash = hashlib.sha256(work.spki("intermediate")).digest()
    logs = {name: work.key("log-" + name) for name in ("a", "b", "c", "retired", "rejected", "unknown")}
    work.key("leaf")

    def leaf(name, start, days, signers, tamper=None):
        """signers: (log, timestamp) pairs; `tamper` names a log whose SCT signs other bytes than the TBS."""
        serial = work.next_serial()
        end = epoch(start) + days * DAY
        plain = work.certificate(name + "-precert", "leaf", "intermediate", LEAF, "/CN=ct.test", epoch(start), end,
                                 serial)
        tbs = tbs_certificate(plain)
        scts = [sct(work, logs[log], tbs, issuer_key_hash, epoch(when) * 1000,
                    sign_over=tbs[:-1] + bytes([tbs[-1] ^ 1]) if log == tamper else None) for log, when in signers]
        extensions = LEAF
        if scts:
            extensions += f"\n{SCT_LIST_OID} = DER:{sct_list_extension(scts).hex()}"
        work.certificate(name, "leaf", "intermediate", extensions, "/CN=ct.test", epoch(start), end, serial)
        with open(os.path.join(out, name + "-chain.pem"), "wb") as file:
            file.write(open(work.path(name + ".pem"), "rb").read() + open(work.path("intermediate.pem"), "rb").read())

    # Every leaf is valid at the tests' time, 2026-06-01; its SCTs are a day older than it.
    leaf("leaf-2-scts", "2026-04-01", 90, [("a", "2026-03-31"), ("b", "2026-03-31")])
    leaf("leaf-1-sct", "2026-04-01", 90, [("a", "2026-03-31")])
    leaf("leaf-no-scts", "2026-04-01", 90, [])
    leaf("leaf-2-scts-one-log", "2026-04-01", 90, [("a", "2026-03-30"), ("a", "2026-03-31")])
    leaf("leaf-bad-signature", "2026-04-01", 90, [("a", "2026-03-31"), ("b", "2026-03-31")], tamper="b")
    leaf("leaf-retired-log", "2026-04-01", 90, [("a", "2026-03-31"), ("retired", "2026-03-31")])
    leaf("leaf-rejected-log", "2026-04-01", 90, [("a", "2026-03-31"), ("rejected", "2026-03-31")])
    leaf("leaf-365-days-2-scts", "2025-12-01", 365, [("a", "2025-11-30"), ("b", "2025-11-30")])
    leaf("leaf-365-days-3-scts", "2025-12-01", 365, [("a", "2025-11-30"), ("b", "2025-11-30"), ("c", "2025-11-30")])
    leaf("leaf-unknown-log-after-list", "2025-12-01", 365,
         [("a", "2025-11-30"), ("b", "2025-11-30"), ("unknown", "2025-11-30")])
    leaf("leaf-unknown-log-before-list", "2025-08-01", 365,
         [("a", "2025-07-31"), ("b", "2025-07-31"), ("unknown", "2025-07-31")])
    # SCTs a server sends in the TLS extension for leaf-no-scts (x509 entries over the whole certificate): from two
    # logs, which Apple's policy takes whatever the lifetime, and from one, which it does not.
    der = openssl("x509", "-in", os.path.join(out, "leaf-no-scts-chain.pem"), "-outform", "DER")
    for name, signers in (("two-logs", ("a", "b")), ("one-log", ("a",))):
        scts = [x509_sct(work, logs[log], der, epoch("2026-04-01") * 1000) for log in signers]
        with open(os.path.join(out, f"tls-scts-{name}.serverinfo"), "w") as file:
            file.write(serverinfo("ct.test", scts))
    # Issued before Apple required CT (16 October 2018), for an evaluation time in 2019.
    leaf("leaf-2018-no-scts", "2018-10-01", 365, [])

    def entry(name, description, state):
        key = work.spki(logs[name])
        return {"description": description, "key": base64.b64encode(key).decode(),
                "log_id": base64.b64encode(hashlib.sha256(key).digest()).decode(), "mmd": 86400,
                "state": state, "url": f"https://{name}.ct.test/"}

    usable = {"usable": {"timestamp": "2025-01-01T00:00:00Z"}}
    log_list = {
        "$schema": "https://valid.apple.com/ct/log_list/schema_versions/log_list_schema_v5.json",
        "assetVersion": 1, "assetVersionV2": 1,
        "operators": [
            {"email": ["a@ct.test"], "name": "Operator A", "tiled_logs": [],
             "logs": [entry("a", "CT Log A", usable), entry("retired", "CT Log Retired",
                                                             {"retired": {"timestamp": "2025-06-01T00:00:00Z"}})]},
            {"email": ["b@ct.test"], "name": "Operator B", "tiled_logs": [],
             "logs": [entry("b", "CT Log B", usable),
                      entry("rejected", "CT Log Rejected", {"rejected": {"timestamp": "2025-06-01T00:00:00Z"}})]},
            {"email": ["c@ct.test"], "name": "Operator C", "logs": [],
             "tiled_logs": [entry("c", "CT Log C", {"qualified": {"timestamp": "2025-01-01T00:00:00Z"}})]},
        ],
    }
    with open(os.path.join(out, "log_list.json"), "w") as file:
        json.dump(log_list, file, indent=2, sort_keys=True)
        file.write("\n")
    # The same logs as OpenSSL's CT log file (`openssl s_client -ctlogfile`), for the script's self-check.
    with open(os.path.join(out, "ct-logs.cnf"), "w") as file:
        names = ("a", "b", "c")
        file.write("enabled_logs = " + ",".join(names) + "\n")
        for name in names:
            file.write(f"\n[{name}]\ndescription = CT Log {name.upper()}\n"
                       f"key = {base64.b64encode(work.spki(logs[name])).decode()}\n")
    for name in ("root", "leaf"):
        os.replace(work.path(name + (".pem" if name == "root" else ".key")),
                   os.path.join(out, name + (".pem" if name == "root" else ".key")))
    unknown_id = base64.b64encode(hashlib.sha256(work.spki(logs["unknown"])).digest()).decode()
    with open(os.path.join(out, "unknown-log-id.txt"), "w") as file:
        file.write(unknown_id + "\n")


if __name__ == "__main__":
    main()
