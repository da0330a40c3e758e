"""Placeholder for the standard library's ``sqlite3`` in the crazylab static site.

Pyodide ships ``sqlite3`` as a separate compiled package that only its full distribution has.
The browser kernel installs ``sqlite3`` at start and IPython imports these names for its
history, which this kernel keeps off. Nothing in crazylab uses a database: ``connect()``
refuses with ``OperationalError``, as ``sqlite3`` does for a file it cannot open.
"""

PARSE_DECLTYPES = 1
PARSE_COLNAMES = 2
sqlite_version = "0.0.0"
version = "0.0.0"


class Error(Exception):
    """The base of every sqlite3 error."""


class DatabaseError(Error):
    pass


class OperationalError(DatabaseError):
    pass


class IntegrityError(DatabaseError):
    pass


class Connection:
    """Never made: :func:`connect` refuses first."""


def connect(*args: object, **kwargs: object) -> Connection:
    raise OperationalError("sqlite3 is not available in the crazylab static site")
