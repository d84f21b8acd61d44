"""The game log: events, bundles, rule sets and the referee. Standard library only, no Qt."""
