"""Helpers shared by the fault-injection tests (tests/test_faults*.py)."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import zooanalysis.simulation as simulation
from zooanalysis import cli

ZOOSIM = Path(sys.executable).with_name("zoosim")


def run_cli(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    """Run ``zoosim ARGS`` in-process; its exit code, stdout and stderr."""
    code = cli.main([str(arg) for arg in args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def one_error_line(err: str, *fragments: str) -> str:
    """stderr is exactly one ``zoosim: error:`` line holding every fragment; the line."""
    lines = err.splitlines()
    assert len(lines) == 1, f"expected one stderr line, got {err!r}"
    assert lines[0].startswith("zoosim: error: "), lines[0]
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in lines[0], f"{fragment!r} not in {lines[0]!r}"
    return lines[0]


def interrupt_after(batches: int, monkeypatch: pytest.MonkeyPatch, batch_size: int = 1000) -> None:
    """Make runs raise KeyboardInterrupt (as Ctrl-C does) once ``batches`` whole batches of
    ``batch_size`` games are played (progress comes per chunk, and chunks never cross a
    batch's end), with a checkpoint after every chunk."""
    monkeypatch.setattr(simulation, "CHECKPOINT_SECONDS", 0.0)
    original = simulation.run_simulation

    def run_simulation(request, on_progress=None, resume=False, **options):
        finished: list[int] = []

        def progress(games: int) -> None:
            finished.append(games)
            if sum(finished) == batches * batch_size:
                raise KeyboardInterrupt

        return original(request, on_progress=progress, resume=resume, **options)

    monkeypatch.setattr(simulation, "run_simulation", run_simulation)


def flip_byte(path: Path, fraction: float = 0.5) -> None:
    """Invert one byte of ``path`` (at ``fraction`` of its length)."""
    data = bytearray(path.read_bytes())
    data[int(len(data) * fraction)] ^= 0xFF
    path.write_bytes(bytes(data))


def damage_checkpoint(path: Path, damage: str) -> bytes:
    """Damage the file at ``path`` as ``damage`` says ("truncate": half of it left,
    "empty": no bytes, "flip": one byte inverted at 30%); returns what it holds then."""
    data = path.read_bytes()
    if damage == "truncate":
        path.write_bytes(data[: len(data) // 2])
    elif damage == "empty":
        path.write_bytes(b"")
    else:
        flip_byte(path, 0.3)
    return path.read_bytes()


def tree(path: Path) -> list[str]:
    """Every file and folder under ``path`` (hidden ones too), relative, sorted."""
    return sorted(str(p.relative_to(path)) for p in path.rglob("*"))


def is_root() -> bool:
    return os.geteuid() == 0


@contextlib.contextmanager
def tmpfs(path: Path, size: str, read_only: bool = False) -> Iterator[Path]:
    """A small tmpfs mounted at ``path`` for the block (skips the test where it cannot be)."""
    path.mkdir(parents=True, exist_ok=True)
    options = f"size={size}" + (",ro" if read_only else "")
    if not is_root():
        pytest.skip("mounting a tmpfs needs root")
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(path)],
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False)


@contextlib.contextmanager
def immutable(path: Path) -> Iterator[Path]:
    """``path`` (a folder) made immutable with ``chattr +i`` for the block (or skip)."""
    path.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["chattr", "+i", str(path)], capture_output=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"cannot make a folder immutable here: {done.stderr.decode().strip()}")
    try:
        yield path
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=False)


@contextlib.contextmanager
def read_only(path: Path) -> Iterator[Path]:
    """A read-only folder at ``path`` for the block: ``chmod 555``, or a read-only tmpfs
    for root (whom permissions do not stop)."""
    if is_root():
        with tmpfs(path, "64k", read_only=True):
            yield path
        return
    path.mkdir(parents=True, exist_ok=True)
    path.chmod(0o555)
    try:
        yield path
    finally:
        path.chmod(0o755)
