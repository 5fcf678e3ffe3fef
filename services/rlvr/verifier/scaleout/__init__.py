"""Running the verifier past one process: a Ray Serve application (`ray_app`), configured by
`RayServeSettings` (`config`, importable without Ray)."""
