"""`/run_code`'s work files inside the container: `work_files` (what is written) and
`read_work_files` (what is fetched after the run), on a real directory of this machine."""

from __future__ import annotations

import base64
import os
from pathlib import Path

from rlvr.verifier.sandbox.inside.work_files import read_work_files, work_files
from rlvr.verifier.sandbox.wire.protocol import Job


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def test_work_files_decode_and_the_programs_own_files_win() -> None:
    job = {"files": {"in.txt": _b64(b"1"), "solution.py": _b64(b"evil"), "d/x": _b64(b"2")}}
    own = {"solution.py": b"print(1)"}
    assert work_files(job, own) == {"in.txt": b"1", "d/x": b"2"}


def test_work_files_drop_unplain_paths() -> None:
    job: Job = {"files": {"/etc/x": "", "../x": "", "a//b": "", "ok": _b64(b"k")}}
    assert work_files(job, {}) == {"ok": b"k"}


def test_read_work_files_reads_regular_files_under_the_work_dir(tmp_path: Path) -> None:
    (tmp_path / "out.txt").write_bytes(b"42\n")
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "r.bin").write_bytes(b"\x00\xff")
    got = read_work_files(str(tmp_path), ["out.txt", "d/r.bin", "missing"])
    assert got == {"out.txt": _b64(b"42\n"), "d/r.bin": _b64(b"\x00\xff")}


def test_read_work_files_never_follows_a_symlink_nor_blocks_on_a_fifo(tmp_path: Path) -> None:
    secret = tmp_path.parent / f"{tmp_path.name}-secret"
    secret.write_text("secret")
    outside = tmp_path.parent / f"{tmp_path.name}-outside"
    outside.mkdir()
    (outside / "f").write_text("outside")
    (tmp_path / "link").symlink_to(secret)
    (tmp_path / "dirlink").symlink_to(outside)
    os.mkfifo(tmp_path / "fifo")
    got = read_work_files(str(tmp_path), ["link", "dirlink/f", "fifo", "../x", "/etc/passwd"])
    assert got == {}


def test_read_work_files_keeps_within_its_byte_limit(tmp_path: Path) -> None:
    (tmp_path / "a").write_bytes(b"a" * 600)
    (tmp_path / "b").write_bytes(b"b" * 600)
    (tmp_path / "c").write_bytes(b"c" * 300)
    got = read_work_files(str(tmp_path), ["a", "b", "c"], limit=1000)
    assert set(got) == {"a", "c"}  # b does not fit after a; c does
