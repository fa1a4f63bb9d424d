"""The hosted API, served by Home Assistant, as clients of the hosted service use it."""
