"""The static site: its builder (:mod:`.build`, ``crazylab site``), a plain server for the
built folder (:mod:`.serve`) and the builder's files with the one npm lock (``files/``)."""
