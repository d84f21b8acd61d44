"""The club archive: a folder of game bundles indexed in SQLite (see ``docs/ARCHIVE.md``).

- :mod:`archive.record` reads one bundle into a :class:`archive.record.GameRecord` (what the index keeps);
- :mod:`archive.margins` measures how close each vision vote came to the window's close;
- :mod:`archive.catalog` keeps the index (incremental re-indexing, damaged bundles listed, never dropped);
- :mod:`archive.search` queries it; :mod:`archive.verify` re-checks every hash chain;
- :mod:`archive.export` writes a whole tournament; :mod:`archive.batch` analyses what needs it, locally
  or on a Dask cluster.

Headless: no Qt here (checked by ``tests/test_architecture.py``).
"""
