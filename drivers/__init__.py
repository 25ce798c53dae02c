"""Hardware drivers: buttons, serial panel, cameras and outputs."""
