"""The thermostats themselves: sessions, contact, the roster, firmware habits, pairing, clients."""
