"""Reading a thermostat: its buckets decoded, validated and shown as one state.

Also the errors a command can meet. Everything here is pure: no saving, no events, no delivery.
"""
