"""Build the repository's static site (what `make site` runs): the builder is the package's
:mod:`crazylab.widgets.site_build` (also behind ``crazylab site FOLDER -o DIR``).

    .venv/bin/python site/build.py            # -> _site/
    .venv/bin/python -m http.server -d _site  # or `make site-serve`
"""

from __future__ import annotations

from crazylab.widgets.site_build import *  # noqa: F403 - this file's names are the builder's
from crazylab.widgets.site_build import main

if __name__ == "__main__":
    main()
