"""Stateful Python sessions (`/sessions`): the session table, admission, the reaper, the service."""
