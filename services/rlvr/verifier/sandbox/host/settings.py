"""Settings of the Docker sandbox containers (part of `CodeSettings`, `VERIFIER_CODE__*`)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


class DockerSandboxSettings(BaseModel):
    image: str = Field("rlvr-sandbox:latest", description="Sandbox image (docker/sandbox).")
    docker_host: str | None = Field(
        None, description="Docker engine URL (unix:// only); default: DOCKER_HOST or the socket."
    )
    memory_mb: int = Field(1024, ge=128, description="Container memory limit (cgroup).")
    pids_limit: int = Field(128, ge=16, description="Container process limit (cgroup).")
    cpus: float = Field(1.0, gt=0, description="CPU share of one container (nano_cpus).")
    cpuset_cpus: str | None = Field(
        None,
        description="CPUs the containers may run on (Docker's cpuset, e.g. `0-3`): keeps code "
        "on the cores given to it, apart from math workers and the trainer.",
    )
    cpu_pinning: Literal["spread", "off"] = Field(
        "spread",
        description="`spread`: each container pinned to one CPU (of `cpuset_cpus`, else of the "
        "CPUs this service may use), the one fewest of this engine's sandbox containers are "
        "pinned to; a container's processes then hand work to each other on one core (~12% "
        "less CPU per /run_code call, measured). Where the engine refuses a derived CPU, "
        "containers start unpinned. `off`: containers roam the `cpuset_cpus` (or all CPUs).",
    )
    job_channel: Literal["socket", "attach"] = Field(
        "socket",
        description="How jobs reach a container's PID 1. `socket`: a Unix socket in a fresh "
        "directory of this host, bind-mounted and removed once connected, past the engine "
        "(over its attach stream, dockerd and the shims took 0.38 ms of CPU per /run_code "
        "call, measured); used where the service runs as root beside its engine, the attach "
        "stream otherwise (a service in a container, a remote engine). `attach`: always the "
        "engine's attach stream.",
    )
    tmpfs_mb: int = Field(64, ge=8, description="Size of the only writable place, /tmp.")
    output_limit_bytes: int = Field(
        1 << 20, ge=1024, description="Captured stdout/stderr kept per run; more is a failure."
    )
    is_launcher_enabled: bool = Field(
        True,
        description="Start native runs (compiled binaries, compilers, JVM, Node) through the "
        "image's launcher (docker/sandbox/launch.c) rather than a fork of the Python zygote: "
        "the same rules, ~2 ms less per run. Off, or without the launcher in the image, every "
        "run is forked.",
    )
    is_job_init_enabled: bool = Field(
        True,
        description="Start each job's init (PID 1 of its PID namespace) from the image's init "
        "binary (docker/sandbox/jobinit.c) rather than a fork of the Python zygote: the same "
        "rules, ~2 ms less CPU per job. Off, or without the binary in the image, it is forked.",
    )
    job_namespaces: Literal["preferred", "required", "off"] = Field(
        "preferred",
        description="Fresh user, PID, mount, IPC, UTS and cgroup namespaces for every job, made "
        "by a trusted spawner inside the container: nothing one job does to kernel state (the "
        "PID counter, /tmp and its inode numbers, cgroup counters) is visible to a later job. "
        "It needs our engine seccomp profile and an unmasked /proc (docs: Code verifier, "
        '"Job namespaces"). `preferred`: used where the engine allows it, the shared '
        "container otherwise; `required`: a container without them does not start; `off`.",
    )
    kept_artefacts: int = Field(
        16,
        ge=0,
        description="Compiled programs each container keeps between jobs (PID 1's memory, "
        "oldest out first), so a later item of the same program is sent by its key alone; 0 "
        "sends the bytes with every item. The host follows what each container reports it holds.",
    )
    kept_artefact_mb: int = Field(
        48, ge=0, description="What the kept compiled programs of one container may weigh."
    )
    start_timeout_s: float = Field(30.0, gt=0, description="Time to start one container.")
    label: str = Field("code", description="Value of the `rlvr.pool` label on our containers.")
