"""The self-hosted control API surface."""
