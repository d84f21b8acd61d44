"""mafiacam tablesim package."""
