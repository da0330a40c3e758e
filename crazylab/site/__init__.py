"""The static site: its builder (:mod:`.build`, ``crazylab site``), a plain server for the
built folder (:mod:`.static_server`) and the builder's files with the one npm lock (``files/``)."""
