"""Checks the licences of what the Python and Node packages bring to their users, and that both
packages carry Alama's licence text. The Rust crates are cargo-deny's (deny.toml, which says
which licences are allowed and why; the same list applies here).

    PYTHON_FOR_CHECK=target/python-ci-venv/bin/python python3 scripts/check-licences.py

- PyPI: every distribution a user gets with an extra of the `alama` wheel (pandas, progress,
  modelling, spark), as installed in the interpreter $PYTHON_FOR_CHECK (default: this one),
  found by following the installed metadata's requirements; licences read by pip-licenses
  (installed into that interpreter when missing). An extra whose packages are not installed
  there is reported and not checked. Test and build tools (pytest, mypy, maturin) are not
  shipped and not checked.
- npm: the production dependencies of node/package.json (`npm query .prod`: none today; the
  addon is self-contained), so a future runtime dependency is checked. Build tools
  (@napi-rs/cli, typescript) are devDependencies and not shipped.
- The wheel in target/wheels/python/ and `npm pack --dry-run` of node/ carry LICENSE and NOTICE.

Exits 1 naming each package whose licence is not allowed (or not recognised: add it below only
after reading its licence).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: deny.toml's list (the Rust crates'), plus what the PyPI packages of the extras need, each
#: permissive: PSF-2.0 (matplotlib's licence is based on Python's; typing_extensions), MIT-CMU
#: (Pillow, under matplotlib), MIT-0 (cffi), 0BSD and CC0-1.0 (parts of numpy).
ALLOWED = {
    "MIT", "MIT-0", "MIT-CMU", "Apache-2.0", "Apache-2.0 WITH LLVM-exception", "BSD-2-Clause",
    "BSD-3-Clause", "0BSD", "ISC", "Zlib", "CC0-1.0", "Unicode-3.0", "CDLA-Permissive-2.0",
    "MPL-2.0", "PSF-2.0",
}
#: Classifier and free-text names → SPDX.
SYNONYMS = {
    "mit license": "MIT",
    "mit": "MIT",
    "bsd license": "BSD-3-Clause",
    "bsd": "BSD-3-Clause",
    "bsd-3-clause": "BSD-3-Clause",
    "bsd 3-clause": "BSD-3-Clause",
    "3-clause bsd license": "BSD-3-Clause",
    "new bsd license": "BSD-3-Clause",
    "bsd-2-clause": "BSD-2-Clause",
    "apache software license": "Apache-2.0",
    "apache 2.0": "Apache-2.0",
    "apache-2.0": "Apache-2.0",
    "apache license 2.0": "Apache-2.0",
    "apache license, version 2.0": "Apache-2.0",
    "apache 2": "Apache-2.0",
    "isc license (iscl)": "ISC",
    "python software foundation license": "PSF-2.0",
    "mozilla public license 2.0 (mpl 2.0)": "MPL-2.0",
}


def spdx_ids(licence: str) -> list[str]:
    """The licences a metadata string names: an SPDX expression's ids (every one must be
    allowed: an `OR` with a disallowed side is refused, to be safe), or classifier names joined
    by `; `."""
    text = licence.strip()
    if not text or text == "UNKNOWN":
        return ["UNKNOWN"]
    parts = [p.strip() for p in text.split(";")] if ";" in text else [text]
    ids: list[str] = []
    for part in parts:
        known = SYNONYMS.get(part.lower())
        if known:
            ids.append(known)
            continue
        for token in re.split(r"\s+(?:AND|OR)\s+|[()]", part):
            token = token.strip()
            if token:
                ids.append(SYNONYMS.get(token.lower(), token))
    return ids


def python_closure(python: str) -> tuple[list[str], list[str]]:
    """(distributions the extras bring, extras not installed there)."""
    code = r"""
import json, sys
from importlib.metadata import distribution, PackageNotFoundError
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
alama = distribution("alama")
extras = alama.metadata.get_all("Provides-Extra") or []
seen, missing, todo = {}, [], []
for extra in extras:
    if extra == "test":
        continue
    for line in alama.requires or []:
        req = Requirement(line)
        if req.marker and req.marker.evaluate({"extra": extra}):
            todo.append((req, extra))
while todo:
    req, extra = todo.pop()
    name = canonicalize_name(req.name)
    if name in seen:
        continue
    try:
        dist = distribution(req.name)
    except PackageNotFoundError:
        missing.append(f"{req.name} (extra {extra})")
        continue
    seen[name] = dist.metadata["Name"]
    for line in dist.requires or []:
        sub = Requirement(line)
        wanted = [""] + sorted(req.extras)
        if sub.marker is None or any(sub.marker.evaluate({"extra": e}) for e in wanted):
            todo.append((sub, extra))
print(json.dumps({"dists": sorted(seen.values()), "missing": sorted(set(missing))}))
"""
    out = subprocess.run([python, "-c", code], capture_output=True, text=True, check=True)
    found = json.loads(out.stdout)
    return found["dists"], found["missing"]


def check_python(python: str) -> list[str]:
    problems: list[str] = []
    dists, missing = python_closure(python)
    have = subprocess.run(
        [python, "-c", "import piplicenses"], capture_output=True, check=False
    ).returncode == 0
    if not have:
        subprocess.run(
            [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
             "pip-licenses>=5,<6"],
            check=True,
        )
    listed = subprocess.run(
        [python, "-m", "piplicenses", "--from=mixed", "--format=json", "--packages", *dists],
        capture_output=True, text=True, check=True,
    )
    for entry in json.loads(listed.stdout):
        ids = spdx_ids(entry["License"])
        bad = [i for i in ids if i not in ALLOWED]
        if bad:
            problems.append(f"PyPI {entry['Name']} {entry['Version']}: {entry['License']!r}")
    print(f"PyPI: {len(dists)} distributions brought by alama's extras, licences allowed: "
          f"{'no' if problems else 'yes'}")
    for m in missing:
        print(f"  not installed here, not checked: {m}")
    return problems


def check_npm() -> list[str]:
    node = ROOT / "node"
    out = subprocess.run(
        ["npm", "query", ".prod", "--json"], cwd=node, capture_output=True, text=True, check=True
    )
    problems = []
    # `.prod` matches the package itself too (location ""): only its dependencies count.
    packages = [p for p in json.loads(out.stdout) if p.get("location")]
    for pkg in packages:
        licence = pkg.get("license") or "UNKNOWN"
        if isinstance(licence, dict):
            licence = licence.get("type", "UNKNOWN")
        bad = [i for i in spdx_ids(licence) if i not in ALLOWED]
        if bad:
            problems.append(f"npm {pkg.get('name')} {pkg.get('version')}: {licence!r}")
    print(f"npm: {len(packages)} production dependencies of node/package.json, licences allowed: "
          f"{'no' if problems else 'yes'}")
    return problems


def check_packages_carry_the_licence() -> list[str]:
    problems = []
    wheels = sorted((ROOT / "target" / "wheels" / "python").glob("alama-*.whl"))
    if not wheels:
        problems.append("no wheel in target/wheels/python (run python/ci.sh first)")
    for wheel in wheels:
        names = zipfile.ZipFile(wheel).namelist()
        for wanted in ("LICENSE", "NOTICE"):
            if not any(n.endswith(f".dist-info/licenses/{wanted}") for n in names):
                problems.append(f"{wheel.name} does not carry {wanted}")
    packed = subprocess.run(
        ["npm", "pack", "--dry-run", "--json"], cwd=ROOT / "node", capture_output=True,
        text=True, check=True,
    )
    files = {f["path"] for f in json.loads(packed.stdout)[0]["files"]}
    for wanted in ("LICENSE", "NOTICE"):
        if wanted not in files:
            problems.append(f"the npm package does not carry {wanted}")
    if not problems:
        print("the wheel and the npm package carry LICENSE and NOTICE")
    return problems


def main() -> int:
    python = os.environ.get("PYTHON_FOR_CHECK", sys.executable)
    problems = check_python(python) + check_npm() + check_packages_carry_the_licence()
    for p in problems:
        print(f"not allowed or not found: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
