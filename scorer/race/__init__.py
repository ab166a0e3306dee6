"""Race Around Europe in the app, without Flet: the journey checker's model and solo play against bots."""
