"""Tests of the Thermostat Cloud integration."""
