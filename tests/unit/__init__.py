"""Unit tests of the service core: no Home Assistant, no sockets (see conftest.py)."""
