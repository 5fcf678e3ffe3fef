"""Reference-answer domains (`/choice`, `/answer`, `/gym`): a shared reader of committed answers."""
