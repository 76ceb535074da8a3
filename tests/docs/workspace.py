"""The folder, environment and bash process each document's examples run in.

Every document runs in a directory of its own (a temporary one, removed afterwards) holding
links to the checkout's ``examples``, ``tests`` and ``docs`` folders and a ``node_modules/alama``
link to ``node/``; ``alama`` is the release CLI (``$ALAMA_CLI``, default
``target/release/alama``) first on ``PATH``, and ``cargo`` runs with the checkout's manifest, so
``cargo run --release -- …`` is the same build. ``SAMPLES`` (Python) and ``$SAMPLES`` (shell)
name ``../shared/samples`` when it exists.

The shell examples of a document share one bash process (variables carry over from block to
block, as in a terminal), in its own process group, which is ended with the document: a server
an example started in the background goes with it.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
TIMEOUT_SECS = 180


@dataclass
class Workspace:
    root: Path
    env: dict[str, str]
    shell: Shell | None = None
    blocks: int = 0


def samples() -> Path | None:
    samples = Path(os.environ.get("ALAMA_SAMPLES_DIR", REPO.parent / "shared" / "samples"))
    if (samples / "real").is_dir():
        return samples.resolve()
    return None


def cli() -> Path:
    cli = os.environ.get("ALAMA_CLI")
    if cli:
        return Path(cli).resolve()
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    return (target / "release" / "alama").resolve()


def setup(namespace: dict[str, Any]) -> None:
    doc = Path(namespace["__doc_path__"])
    root = Path(tempfile.mkdtemp(prefix=f"doc-{doc.parent.name}-{doc.stem}-"))
    for name in ("examples", "tests", "docs"):
        (root / name).symlink_to(REPO / name, target_is_directory=True)
    (root / "node_modules").mkdir()
    (root / "node_modules" / "alama").symlink_to(REPO / "node", target_is_directory=True)
    binary = cli()
    bin_dir = root / ".bin"
    bin_dir.mkdir()
    (bin_dir / "alama").symlink_to(binary)
    env = dict(os.environ)
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    env["ALAMA_REPO"] = str(REPO)
    found = samples()
    env["SAMPLES"] = str(found) if found else ""
    for var in ("ALAMA_PASSWORD", "ALAMA_DATABASE_URL", "ALAMA_LOG_FORMAT", "ALAMA_METRICS_BIND"):
        env.pop(var, None)
    namespace["SAMPLES"] = found
    namespace["__workspace__"] = Workspace(root, env)


def teardown(namespace: dict[str, Any]) -> None:
    workspace: Workspace = namespace["__workspace__"]
    if workspace.shell is not None:
        workspace.shell.close()
    shutil.rmtree(workspace.root, ignore_errors=True)


_SHELL_PRELUDE = r"""
cargo() {
  # `cargo run --release -- …` from the document's folder: the checkout's build.
  local sub="$1"; shift
  command cargo "$sub" --manifest-path "$ALAMA_REPO/Cargo.toml" "$@"
}
"""


class Shell:
    """One bash process per document; each block is sourced in it, so variables carry over."""

    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace
        self.proc = subprocess.Popen(
            ["bash", "--noprofile", "--norc"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            cwd=workspace.root,
            env=workspace.env,
            start_new_session=True,
            text=True,
            bufsize=1,
        )
        self.run(_SHELL_PRELUDE, strict=False)

    def run(self, script: str, *, strict: bool) -> tuple[int, str]:
        """Sources `script`; returns its exit status and what it printed (both streams)."""
        ws = self.workspace
        ws.blocks += 1
        script_path = ws.root / f".block-{ws.blocks}.sh"
        out_path = ws.root / f".block-{ws.blocks}.out"
        if strict:
            prelude = "set -euo pipefail"
        else:
            # A transcript's `echo $?` sees the status of the command before it.
            prelude = 'set +e +u -o pipefail\n__alama_status() { return "$1"; }\n' \
                '__alama_status "${__ALAMA_STATUS:-0}"'
        script_path.write_text(f"{prelude}\n{script}\n", encoding="utf-8")
        marker = f"__ALAMA_DOC_DONE_{ws.blocks}__"
        assert self.proc.stdin is not None and self.proc.stdout is not None
        if self.proc.poll() is not None:
            return 1, "(the document's shell exited in an earlier example)"
        self.proc.stdin.write(
            f'source "{script_path}" > "{out_path}" 2>&1 < /dev/null; __ALAMA_STATUS=$?; '
            f'echo "{marker} $__ALAMA_STATUS"; set +euo pipefail\n'
        )
        self.proc.stdin.flush()
        status = self._wait(marker)
        printed = out_path.read_text(encoding="utf-8", errors="replace") if out_path.exists() else ""
        if status is None:
            return 1, printed + "\n(the shell exited: a command failed under set -e)"
        return status, printed

    def _wait(self, marker: str) -> int | None:
        assert self.proc.stdout is not None
        selector = selectors.DefaultSelector()
        selector.register(self.proc.stdout, selectors.EVENT_READ)
        deadline = time.monotonic() + TIMEOUT_SECS
        while time.monotonic() < deadline:
            if not selector.select(timeout=1):
                continue
            line = self.proc.stdout.readline()
            if not line:
                return None
            if line.startswith(marker):
                return int(line.split()[-1])
        self.close()
        raise TimeoutError(f"the example did not finish within {TIMEOUT_SECS} s")

    def close(self) -> None:
        """Ends the shell and everything it started (its own process group)."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        # Background jobs (a server) are in the same group: wait until none is left.
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            try:
                os.killpg(self.proc.pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.1)
        else:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
