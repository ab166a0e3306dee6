"""The Flet screens of the score pad app."""
