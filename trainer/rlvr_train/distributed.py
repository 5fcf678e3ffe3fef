"""One process or several (`accelerate launch --num_processes N`): who writes, and where each runs.

Every process of a run executes the same command. The training stages are collective (TRL's
trainers shard the batch and all-reduce the gradients), but files must have one writer: the
main process writes (built-in models, tokenizers, metrics, sampling outputs, pipeline state)
and the others wait for it at a barrier, then read what it wrote. Each process computes on its
own device (`PartialState().device`: `cuda:<local rank>` on a GPU node, the CPU otherwise).

Outside `accelerate launch` there is one process, which is the main one, and the barriers
return at once. On CPUs, accelerate's `--cpu` starts a single process whatever
`--num_processes` says (unless an MPI hostfile is configured); several CPU processes are started
with its torchrun launcher: `accelerate launch --multi_gpu --num_processes 2 -m rlvr_train.cli ...`
(`--use_cpu` defaults to true on a machine without CUDA).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

T = TypeVar("T")


def _state() -> Any:
    """Accelerate's process state. On a machine without CUDA it is asked for CPU processes, so
    a launch of several (`accelerate launch --multi_gpu --num_processes 2`, or torchrun) joins
    them in one gloo group rather than running each alone. The first caller sets it up (TRL's
    training arguments do, from `--use_cpu`); later calls get the same state."""
    import torch
    from accelerate import PartialState

    return PartialState(cpu=not torch.cuda.is_available())


def is_main_process() -> bool:
    return bool(_state().is_main_process)


def process_index() -> int:
    return int(_state().process_index)


def num_processes() -> int:
    return int(_state().num_processes)


def device() -> Any:
    """This process's own device (a `torch.device`)."""
    return _state().device


def wait_for_everyone() -> None:
    _state().wait_for_everyone()


@contextmanager
def main_process_first() -> Iterator[None]:
    """The main process runs the block first (and writes); the others run it after, when what
    it wrote is there to be reused."""
    with _state().main_process_first():
        yield


def on_main_process(write: Callable[[], object], read: Callable[[], T]) -> T:
    """`write()` on the main process only, then, after a barrier, `read()` on every process."""
    if is_main_process():
        write()
    wait_for_everyone()
    return read()


def describe() -> str:
    """`process 0 of 2 on cpu`: printed by each process at the start of a stage."""
    return f"process {process_index()} of {num_processes()} on {device()}"
