"""mafiacam: a camera referee for sports Mafia."""

__version__ = "0.1.0"
