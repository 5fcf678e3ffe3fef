"""What crosses the boundary, shared by both sides: the job/result messages, the value
codec, the language table. Standard library only; shipped into every container."""
