"""The device protocol surface, spoken by thermostat firmware."""
