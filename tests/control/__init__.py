"""Tests of the control API."""
