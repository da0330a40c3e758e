"""Tables for people: matches that learners play each other from their own browsers, kept by
one service (:class:`~crazylab.tables.service.TableService`) in the class database."""

from .service import (
    CODE_ALPHABET,
    BadMove,
    BadToken,
    NotHost,
    NotYourTurn,
    RateLimited,
    SeatTicket,
    StaleMove,
    TableError,
    TableFull,
    TableService,
    TableState,
    UnknownTable,
)

__all__ = [
    "CODE_ALPHABET", "BadMove", "BadToken", "NotHost", "NotYourTurn", "RateLimited",
    "SeatTicket", "StaleMove", "TableError", "TableFull", "TableService", "TableState",
    "UnknownTable",
]
