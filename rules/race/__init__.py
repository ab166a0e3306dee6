"""Race Around Europe: the board data, the journey validator, the game engine and its bots."""
