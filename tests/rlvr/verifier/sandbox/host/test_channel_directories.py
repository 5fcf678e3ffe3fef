"""The job channel's directories on the host (`host/channel.py`, no engine needed): each is named
after the service that made it, and only those of services gone are swept."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from rlvr.verifier.sandbox.host.channel import ChannelPlace, remove_orphaned_directories


def a_pid_that_is_gone() -> int:
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def test_only_the_directories_of_services_gone_are_removed(tmp_path: Path) -> None:
    gone = tmp_path / f"rlvr-channel-{a_pid_that_is_gone()}-abc"
    (gone / "left").mkdir(parents=True)  # with what PID 1 may have left there
    living = tmp_path / f"rlvr-channel-{os.getpid()}-def"
    living.mkdir()
    unnamed = tmp_path / "rlvr-channel-xyz-1"  # not a pid: not ours to judge
    unnamed.mkdir()
    other = tmp_path / "something-else"
    other.mkdir()
    assert remove_orphaned_directories(tmp_path) == 1
    assert not gone.exists()
    assert living.is_dir() and unnamed.is_dir() and other.is_dir()


def test_a_link_in_a_directorys_place_is_never_followed(tmp_path: Path) -> None:
    target = tmp_path / "kept"
    (target / "inside").mkdir(parents=True)
    (tmp_path / f"rlvr-channel-{a_pid_that_is_gone()}-lnk").symlink_to(target)
    assert remove_orphaned_directories(tmp_path) == 0
    assert (target / "inside").is_dir()


def test_a_made_directory_carries_the_services_pid() -> None:
    place = ChannelPlace(is_wanted=True)
    made = place.make(os.getuid())
    if not place.is_usable:  # not root: no channel, no directory
        assert made is None
        return
    assert made is not None
    try:
        assert made.name.startswith(f"rlvr-channel-{os.getpid()}-")
        remove_orphaned_directories(made.parent)  # the real temp dir, as a service sweeps it
        assert made.is_dir()  # its service (this process) lives
    finally:
        made.rmdir()
