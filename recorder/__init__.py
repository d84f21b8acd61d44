"""mafiacam recorder package."""
