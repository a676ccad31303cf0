"""Example agents written as a user would write their own (see the README, "Bring your own agent")."""
