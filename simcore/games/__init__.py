"""The games: one package per game (rules, card data, agents, RULES.md)."""
