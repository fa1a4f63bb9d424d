"""The thermostats themselves.

Their sessions on the device surface, contact and availability, the roster of known devices,
firmware habits, pairing with the home, the API clients, the outdoor weather they are sent, and
the causes of a thermostat's trouble.
"""
