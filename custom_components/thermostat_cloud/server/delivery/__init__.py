"""Delivery: held subscribe connections, and what each thermostat has been sent and is owed."""
