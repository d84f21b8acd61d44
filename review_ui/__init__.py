"""mafiacam review_ui package."""
