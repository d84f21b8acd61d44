"""mafiacam vision package."""
