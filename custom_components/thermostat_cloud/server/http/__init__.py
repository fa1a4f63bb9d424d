"""The small HTTP kit the three surfaces share: a port listener, bodies, errors."""
