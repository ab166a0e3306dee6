"""Boomerang solo play against bots, without Flet: the game the app drives (`game`), and what its screens
show and how it is saved in the score pad's event store (`view`). Race Around Europe's solo is scorer.race.solo."""
