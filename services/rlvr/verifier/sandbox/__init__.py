"""The code sandbox, in three places whose names say which side of the trust boundary they run on:
`host/` (the trusted verifier process), `wire/` (the messages and encodings both sides share) and
`inside/` (the program shipped into every container as its PID 1). See docs/architecture.md."""
