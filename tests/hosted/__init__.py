"""Tests of the hosted API, served by Home Assistant."""
