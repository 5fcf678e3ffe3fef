"""Short reference answers (`/answer`): normalised exact match, numbers, token F1, no stuffing."""
