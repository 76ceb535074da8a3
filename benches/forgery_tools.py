#!/usr/bin/env python3
"""Forgeries made by the PDF tools a borrower can get (qpdf through pikepdf, MuPDF through PyMuPDF,
Ghostscript), of the genuine statements in ../shared/samples, judged by the `alama` CLI.

The in-repository benchmark (core/tests/forgery.rs) forges with the project's own Rust code; this
one asks what other programs' output looks like to the checks, as a partner testing the service
from outside would. Out of CI (it needs pip packages and Ghostscript): run it by hand and put the
table in docs/integrity.md.

    pip install pikepdf pymupdf          # Ghostscript (`gs`) is optional: apt-get install ghostscript
    cargo build --release -p alama
    python3 benches/forgery_tools.py [--alama target/release/alama] [--edits 5]

Per file and forgery it prints the verdicts as `status/evidenceLevel` with the warning and
critical codes, then a table of counts per forgery (summed over the files; the qpdf modes are
summed by hand in docs/integrity.md). Exits 1 when a forgery comes out `verified` or a genuine
sample is flagged. The samples hold real people's data: only file labels, codes and counts are
printed, never a name, a number or an amount; passwords go to the CLI in `ALAMA_PASSWORD`.
"""

import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import warnings

warnings.filterwarnings("ignore", category=DeprecationWarning)

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.normpath(os.path.join(HERE, "..", "..", "shared", "samples"))
# (label, path under SHARED, password): the originals whose writer the checks know.
SAMPLES = [
    ("safaricom-2021", "real/mpesa_2021-03_to_2022-03_encrypted_pw35388008_cancelled_rows.pdf", "35388008"),
    ("safaricom-2022", "real/mpesa_2022-01_monthly_itext5_aes256_pw34915463.pdf", "34915463"),
    ("safaricom-2023", "real/mpesa_2023-05_to_2024-05_encrypted_pw183177.pdf", "183177"),
    ("airtel-ug", "wallets/airtel-money-ug_2026-03_personal.pdf", ""),
    ("vodacom-ls", "wallets/vodacom-mpesa-ls_2024-12_personal.pdf", ""),
]
AMOUNT = re.compile(r"^-?[0-9]{1,3}(,[0-9]{3})*\.[0-9]{2}$")


def verdict(alama, path, password):
    """`status/evidenceLevel codes…` of the file, or `error:code`."""
    env = dict(os.environ, ALAMA_PASSWORD=password)
    run = subprocess.run([alama, "score", path, "--format", "json"], capture_output=True, text=True, env=env)
    if not run.stdout.strip():
        code = re.search(r"error\[(\w+)\]", run.stderr)
        return "error:" + (code.group(1) if code else "unknown")
    integrity = json.loads(run.stdout)["integrity"]
    codes = sorted({f["code"] for f in integrity["findings"] if f["severity"] != "info"})
    return f"{integrity['status']}/{integrity['evidenceLevel']} " + ",".join(codes)


def resaves(pikepdf, pymupdf, label, path, password, out):
    """Whole-file re-saves that keep the wallet's Info: (forgery, file)."""
    pdf = pikepdf.open(path, password=password)
    encryption = False
    if password:
        r = pdf.encryption.R
        encryption = pikepdf.Encryption(user=password, owner=password, R=r, aes=r >= 4, metadata=r >= 4)
    made = []
    for name, options in [
        ("qpdf_resave", {}),
        ("qpdf_linearized", {"linearize": True}),
        ("qpdf_object_streams", {"object_stream_mode": pikepdf.ObjectStreamMode.generate}),
    ]:
        target = os.path.join(out, name + ".pdf")
        pdf.save(target, encryption=encryption, **options)
        made.append((name, target))
    doc = pymupdf.open(path)
    if password:
        doc.authenticate(password)
    target = os.path.join(out, "mupdf_resave.pdf")
    doc.save(target, garbage=3, deflate=True)
    made.append(("mupdf_resave", target))
    if password:
        target = os.path.join(out, "mupdf_reencrypted.pdf")
        doc.save(target, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw=password, owner_pw=password)
        made.append(("mupdf_reencrypted", target))
    if shutil.which("gs"):
        drawn = os.path.join(out, "gs.pdf")
        cmd = ["gs", "-q", "-dNOPAUSE", "-dBATCH", "-sDEVICE=pdfwrite", f"-sOutputFile={drawn}"]
        cmd += [f"-sPDFPassword={password}"] if password else []
        code = subprocess.run(cmd + [path], capture_output=True).returncode
        if code != 0:
            print(f"note: {label}: Ghostscript could not re-draw it (exit {code})")
        else:
            copy = pikepdf.open(drawn)
            for key, value in pdf.docinfo.items():
                copy.docinfo[key] = value
            target = os.path.join(out, "gs_info_copied.pdf")
            copy.save(target)
            made.append(("gs_info_copied", target))
    return made


def edits(pymupdf, path, password, out, count):
    """One digit of an amount of the second page typed over with PyMuPDF (redaction, then the new
    figures drawn in Helvetica at the old place and size), saved whole and incrementally."""
    made = []
    for k in range(count):
        for mode in ("mupdf_digit", "mupdf_digit_incremental"):
            target = os.path.join(out, f"{mode}_{k}.pdf")
            shutil.copy(path, target)
            doc = pymupdf.open(target)
            if password:
                doc.authenticate(password)
            page = doc[min(1, len(doc) - 1)]
            words = [w for w in page.get_text("words") if AMOUNT.match(w[4])]
            if len(words) <= k:
                break
            x0, y0, x1, y1, old = words[len(words) * (k + 1) // (count + 1)][:5]
            first = next(i for i, c in enumerate(old) if c.isdigit())
            new = old[:first] + str(int(old[first]) % 9 + 1) + old[first + 1:]
            page.add_redact_annot(pymupdf.Rect(x0, y0, x1, y1))
            page.apply_redactions()
            page.insert_text((x0, y1 - 1.5), new, fontsize=(y1 - y0) * 0.9, fontname="helv")
            if mode == "mupdf_digit_incremental":
                doc.save(target, incremental=True, encryption=pymupdf.PDF_ENCRYPT_KEEP)
                made.append((mode, target))
            else:
                whole = target + ".whole.pdf"
                doc.save(whole, garbage=3, deflate=True)
                made.append((mode, whole))
    return made


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--alama", default=os.path.join(HERE, "..", "target", "release", "alama"))
    parser.add_argument("--edits", type=int, default=5, help="digit edits per file and mode")
    args = parser.parse_args()
    import pikepdf
    import pymupdf

    table = collections.defaultdict(collections.Counter)
    bad = []
    with tempfile.TemporaryDirectory() as tmp:
        for label, rel, password in SAMPLES:
            path = os.path.join(SHARED, rel)
            if not os.path.isfile(path):
                print(f"note: the {label} sample is absent; skipping")
                continue
            genuine = verdict(args.alama, path, password)
            print(f"{label:16} genuine                   {genuine}")
            if not genuine.startswith(("verified", "consistent")):
                bad.append((label, "genuine", genuine))
            out = os.path.join(tmp, label)
            os.makedirs(out)
            forged = resaves(pikepdf, pymupdf, label, path, password, out)
            forged += edits(pymupdf, path, password, out, args.edits)
            for forgery, target in forged:
                got = verdict(args.alama, target, password)
                print(f"{label:16} {forgery:25} {got}")
                table[(label, forgery)][got.split(" ")[0].split("/")[0]] += 1
                if got.startswith("verified"):
                    bad.append((label, forgery, got))
    print("\n| file | forgery | n | failed | warnings | consistent | verified | error |")
    print("|---|---|---|---|---|---|---|---|")
    for (label, forgery), c in table.items():
        errors = sum(v for k, v in c.items() if k.startswith("error"))
        n = sum(c.values())
        print(f"| {label} | {forgery} | {n} | {c['failed']} | {c['warnings']} | {c['consistent']} | {c['verified']} | {errors} |")
    for label, forgery, got in bad:
        print(f"FAIL: {label} {forgery}: {got}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
