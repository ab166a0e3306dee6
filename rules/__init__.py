"""tourpad's rules engine: pure Python, no UI and no I/O beyond reading its own bundled edition data."""
