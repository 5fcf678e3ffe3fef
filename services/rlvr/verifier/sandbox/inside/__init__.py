"""The program that runs inside a sandbox container as PID 1 (executor, zygote, launcher, harness,
job runner). Standard library, `wire/` and itself only: shipped into the container at start."""
