"""Multiple choice (`/choice`): read the one label a response commits to, refuse hedges."""
