"""The pad's one error type, shared by the game model and its category entry."""


class EntryError(ValueError):
    """A command the rules refuse; the message names the round, the player and the problem."""
