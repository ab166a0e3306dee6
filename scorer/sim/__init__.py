"""`tourpad sim`: bot-against-bot games played many times over, as data (win rates, points, game lengths) that
the command prints: Boomerang (`boomerang`) and Race Around Europe (`race`)."""
